"""Creating the output namespace when another run creates it at the same moment."""
from types import SimpleNamespace

import pytest

from lakeline_spark.write import _ensure_namespace

SPEC = SimpleNamespace(catalog=SimpleNamespace(name="lakeline", namespace_prefix="org_x__"), output_namespace="fresh")
CREATE = "CREATE NAMESPACE IF NOT EXISTS `lakeline`.`org_x__fresh`"
DESCRIBE = "DESCRIBE NAMESPACE `lakeline`.`org_x__fresh`"
# What the JDBC catalog on SQLite raised in CI when two runs created one namespace at once.
RACE = "[SQLITE_CONSTRAINT_PRIMARYKEY] A PRIMARY KEY constraint failed (UNIQUE constraint failed: iceberg_namespace_properties.catalog_name, iceberg_namespace_properties.namespace, iceberg_namespace_properties.property_key)"


class Spark:
    """Fails the create with ``create_error``; describes the namespace only if ``exists``."""

    def __init__(self, create_error=None, exists=True):
        self.create_error = create_error
        self.exists = exists
        self.statements = []

    def sql(self, statement):
        self.statements.append(statement)
        if statement.startswith("CREATE") and self.create_error is not None:
            raise self.create_error
        if statement.startswith("DESCRIBE") and not self.exists:
            raise RuntimeError("[SCHEMA_NOT_FOUND] The schema cannot be found")


def test_a_plain_create_does_not_look_again():
    spark = Spark()
    _ensure_namespace(spark, SPEC)
    assert spark.statements == [CREATE]


@pytest.mark.parametrize("message", [RACE, "Namespace already exists: org_x__fresh", "AlreadyExistsException: Database fresh already exists"])
def test_a_namespace_a_concurrent_run_created_first_is_fine(message):
    spark = Spark(RuntimeError(message), exists=True)
    _ensure_namespace(spark, SPEC)
    assert spark.statements == [CREATE, DESCRIBE]


def test_a_failed_create_of_a_namespace_that_is_not_there_fails_the_run():
    with pytest.raises(RuntimeError, match="AccessDenied"):
        _ensure_namespace(Spark(RuntimeError("AccessDenied: glue:CreateDatabase"), exists=False), SPEC)


def test_the_existence_check_reads_the_real_iceberg_catalog(spark, catalog_a):
    """``DESCRIBE NAMESPACE`` on the JDBC catalog: true for a namespace, false for none."""
    from lakeline_spark.session import use_catalog
    from lakeline_spark.write import _namespace_exists

    use_catalog(spark, catalog_a)
    spark.sql(f"CREATE NAMESPACE IF NOT EXISTS `{catalog_a.name}`.`{catalog_a.namespace_prefix}race_ns`")
    assert _namespace_exists(spark, f"`{catalog_a.name}`.`{catalog_a.namespace_prefix}race_ns`")
    assert not _namespace_exists(spark, f"`{catalog_a.name}`.`{catalog_a.namespace_prefix}never_created`")
