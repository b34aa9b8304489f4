"""The spec is validated before the lake is touched; names map both ways."""
import pytest

from lakeline_spark.names import ForbiddenReference, logical_text, map_reference, physical_name
from lakeline_spark.spec import CatalogSpec, SpecError, parse_spec

GLUE = CatalogSpec(name="org_abc", type="glue", warehouse="s3://b/warehouse/org_abc", namespace_prefix="org_abc__")


def spec(**overrides):
    doc = {
        "version": 1,
        "run_id": "r",
        "sql": "select 1",
        "output": {"namespace": "out", "table": "t"},
        "mode": "overwrite",
        "catalog": {"name": "org_abc", "type": "jdbc", "uri": "jdbc:sqlite:/x/catalog.db", "warehouse": "file:///x"},
        "result_uri": "file:///x/result.json",
    }
    doc.update(overrides)
    return doc


def test_a_valid_spec_parses_and_folds_output_names():
    parsed = parse_spec(spec(output={"namespace": "Out", "table": "Daily_T"}))

    assert (parsed.output_namespace, parsed.output_table, parsed.mode) == ("out", "daily_t", "overwrite")


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"version": 2}, "version"),
        ({"sql": ""}, "sql"),
        ({"mode": "merge"}, "mode"),
        ({"output": {"namespace": "bad-ns", "table": "t"}}, "output.namespace"),
        ({"catalog": {"name": "spark_catalog", "type": "jdbc", "uri": "u", "warehouse": "w"}}, "catalog.name"),
        ({"catalog": {"name": "org_abc", "type": "hive", "warehouse": "w"}}, "catalog.type"),
        ({"catalog": {"name": "org_abc", "type": "jdbc", "warehouse": "w"}}, "catalog.uri"),
    ],
)
def test_invalid_specs_name_the_field(overrides, field):
    with pytest.raises(SpecError, match=field):
        parse_spec(spec(**overrides))


def test_glue_names_carry_the_org_prefix_on_the_namespace():
    assert map_reference(GLUE, ["lakeline", "Sales", "Orders"]) == "`org_abc`.`org_abc__sales`.`orders`"
    assert map_reference(GLUE, ["sales", "orders"]) == "`org_abc`.`org_abc__sales`.`orders`"
    assert map_reference(GLUE, ["orders"]) is None


def test_bad_names_are_refused():
    with pytest.raises(ForbiddenReference):
        physical_name(GLUE, "sales", "or ders")


def test_internal_names_are_mapped_back_in_messages():
    text = "The table or view `org_abc`.`org_abc__sales`.`nope` cannot be found"

    assert logical_text(GLUE, text) == "The table or view `lakeline`.`sales`.`nope` cannot be found"
