"""The warm driver (ADR 0059): jobs of different orgs one after another in one driver, each in a
session of its own, isolated as strictly as runs with a JVM each — the hostile cases of
``test_job.py`` again, after the victim's own job has run in the same driver."""
import io
import json

from lakeline_spark.warm import run_isolated, serve

from conftest import ORG_A, ORG_B


def spec_file(tmp_path, name, catalog, sql, table):
    path = tmp_path / f"{name}.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "run_id": name,
                "sql": sql,
                "output": {"namespace": "out", "table": table},
                "catalog": {"name": catalog["name"], "type": "jdbc", "uri": catalog["uri"], "warehouse": catalog["warehouse"]},
                "result_uri": f"file://{tmp_path}/{name}-result.json",
            }
        )
    )
    return str(path)


def result(tmp_path, name):
    return json.loads((tmp_path / f"{name}-result.json").read_text())


def catalogs(home):
    uri = f"jdbc:sqlite:{home}/catalog.db"
    return (
        {"name": ORG_A, "uri": uri, "warehouse": f"file://{home}/warehouse/{ORG_A}"},
        {"name": ORG_B, "uri": uri, "warehouse": f"file://{home}/warehouse/{ORG_B}"},
    )


def test_an_org_never_reaches_the_tables_of_the_org_whose_job_ran_before_in_the_same_driver(spark, home, tmp_path):
    org_a, org_b = catalogs(home)
    # The victim's job first: its catalog is registered in its session of this driver.
    victim = spec_file(tmp_path, "victim", org_b, "select who, pay from secret.salaries", "pay_copy")
    by_namespace = spec_file(tmp_path, "by_namespace", org_a, "select * from secret.salaries", "leak1")
    by_lakeline = spec_file(tmp_path, "by_lakeline", org_a, "select * from lakeline.secret.salaries", "leak2")
    by_catalog = spec_file(tmp_path, "by_catalog", org_a, f"select * from {ORG_B}.secret.salaries", "leak3")
    by_default = spec_file(tmp_path, "by_default", org_a, "select * from pay_copy", "leak4")
    out = io.StringIO()

    serve(spark, io.StringIO("\n".join(json.dumps({"spec": s}) for s in (victim, by_namespace, by_lakeline, by_catalog, by_default)) + "\n"), out)

    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"ready": True}
    assert [a["code"] for a in answers[1:]] == [0, 1, 1, 1, 1]
    assert result(tmp_path, "victim")["rows_written"] == 1
    for name in ("by_namespace", "by_lakeline", "by_default"):
        assert "TABLE_OR_VIEW_NOT_FOUND" in result(tmp_path, name)["error"], name
    assert result(tmp_path, "by_catalog")["error"].startswith("refused: table")
    # No row of the victim's, and no internal name the caller did not write itself.
    for name in ("by_namespace", "by_lakeline", "by_catalog", "by_default"):
        assert "ceo" not in json.dumps(result(tmp_path, name)), name
    for name in ("by_namespace", "by_lakeline", "by_default"):
        assert ORG_B not in result(tmp_path, name)["error"], name


def test_a_job_leaves_no_catalog_setting_or_cached_data_behind(spark, home, tmp_path):
    org_a, _ = catalogs(home)
    # The pytest run's session was used by the per-run jobs' tests before this one (their org A
    # catalog is set on it): the warm driver's own session here is a fresh one of the same driver.
    driver = spark.newSession()
    key = f"spark.sql.catalog.{ORG_A}"
    assert driver.conf.get(key, None) is None
    # Something cached in the driver's shared state before the job (a job's own SQL cannot cache).
    driver.range(3).cache().count()

    code = run_isolated(driver, spec_file(tmp_path, "plain", org_a, "select id from sales.orders", "plain_out"))

    assert code == 0 and result(tmp_path, "plain")["warm"] == 1
    assert driver.conf.get(key, None) is None
    assert driver.conf.get("spark.sql.defaultCatalog") == "spark_catalog"
    assert driver._jsparkSession.sharedState().cacheManager().isEmpty()


def test_an_unreadable_line_is_answered_and_the_driver_goes_on(spark, home, tmp_path):
    org_a, _ = catalogs(home)
    ok = spec_file(tmp_path, "after_bad", org_a, "select 1 as x", "after_bad_out")
    out = io.StringIO()

    serve(spark, io.StringIO("not json\n\n" + json.dumps({"spec": ok}) + "\n"), out)

    assert [json.loads(line) for line in out.getvalue().splitlines()] == [{"ready": True}, {"error": "unreadable command"}, {"spec": ok, "code": 0}]
