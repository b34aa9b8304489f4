"""Table references are found by Spark's own parser and only they are rewritten; everything that
is not a plain query over the lake is refused before Spark runs it."""
import pytest

from lakeline_spark.names import ForbiddenReference, map_reference
from lakeline_spark.rewrite import ForbiddenStatement, find_references, rewrite


def physical(catalog, sql, spark):
    return rewrite(sql, find_references(spark, sql), lambda parts: map_reference(catalog, parts))


def test_finds_every_reference_with_its_span(spark):
    sql = (
        "with x as (select * from lakeline.sales.orders o where o.id in (select id from `sales`.orders))\n"
        "select x.*, (select max(region) from sales.customers) from x join LakeLine.Sales.Customers c on c.customer = x.customer\n"
        "where exists (select 1 from sales.orders) union all select * from x"
    )

    refs = find_references(spark, sql)

    assert [sql[r.start : r.end] for r in refs] == [
        "lakeline.sales.orders",
        "`sales`.orders",
        "sales.customers",
        "x",
        "LakeLine.Sales.Customers",
        "sales.orders",
        "x",
    ]


def test_rewrites_table_names_only_never_literals_comments_or_columns(spark, catalog_a):
    sql = "select o.id, 'lakeline.sales.orders' as s -- from sales.orders\nfrom sales.orders o where o.customer <> 'sales.orders'"

    out = physical(catalog_a, sql, spark)

    assert out == (
        "select o.id, 'lakeline.sales.orders' as s -- from sales.orders\n"
        f"from `{catalog_a.name}`.`sales`.`orders` o where o.customer <> 'sales.orders'"
    )


def test_cte_names_and_one_part_names_stay_as_written(spark, catalog_a):
    sql = "with t as (select 1 as a) select * from t"

    assert physical(catalog_a, sql, spark) == sql


def test_offsets_survive_characters_outside_the_basic_plane(spark, catalog_a):
    sql = "select '\U0001F600\U0001F600' as e, id from sales.orders"

    assert physical(catalog_a, sql, spark).endswith(f"from `{catalog_a.name}`.`sales`.`orders`")


@pytest.mark.parametrize(
    "sql",
    [
        "select * from spark_catalog.default.t",
        "select * from org_bbbbbbbb000000000000000000000002.secret.salaries",
        "select * from a.b.c.d",
    ],
)
def test_other_catalogs_are_refused(spark, catalog_a, sql):
    with pytest.raises(ForbiddenReference):
        physical(catalog_a, sql, spark)


@pytest.mark.parametrize(
    "sql, needle",
    [
        ("insert into sales.orders select * from sales.orders", "only a query"),
        ("create table sales.copy as select * from sales.orders", "only a query"),
        ("with x as (select 1) insert into sales.orders select * from x", "only a query"),
        ("set spark.sql.runSQLOnFiles=true", "only a query"),
        ("add jar /tmp/evil.jar", "only a query"),
        ("insert overwrite directory '/tmp/out' select * from sales.orders", "DIRECTORY"),
        ("select transform(id) using 'cat' as (x) from sales.orders", "TRANSFORM"),
        ("select reflect('java.lang.System', 'exit', '0')", "reflect"),
        ("select * from sales.orders where id = java_method('java.lang.Math', 'abs', -1)", "java_method"),
        ("select * from identifier('sales.orders')", "IDENTIFIER"),
    ],
)
def test_non_queries_and_escapes_are_refused(spark, sql, needle):
    with pytest.raises(ForbiddenStatement, match=needle):
        find_references(spark, sql)
