"""A run end to end on the local session: the query's rows land in the output table (created,
replaced, appended), the result document says what happened, and failures carry Spark's error."""
import json

import pytest

from lakeline_spark.job import error_text, execute, run
from lakeline_spark.spec import JobSpec


def job(catalog, tmp_path, sql, table, mode="overwrite", namespace="out", run_id="r1"):
    return JobSpec(run_id=run_id, sql=sql, output_namespace=namespace, output_table=table, mode=mode, catalog=catalog, result_uri=f"file://{tmp_path}/result.json")


def rows(spark, catalog, namespace, table):
    return sorted(tuple(r) for r in spark.sql(f"select * from `{catalog.name}`.`{namespace}`.`{table}`").collect())


def test_overwrite_creates_then_replaces_and_append_adds(spark, catalog_a, tmp_path):
    per_customer = "select customer, sum(amount) as total from lakeline.sales.orders group by customer"

    created = execute(spark, job(catalog_a, tmp_path, per_customer, "totals", namespace="fresh_ns"))
    replaced = execute(spark, job(catalog_a, tmp_path, "select 'w' as customer, cast(1 as double) as total", "totals", namespace="fresh_ns"))
    appended = execute(spark, job(catalog_a, tmp_path, per_customer, "totals", mode="append", namespace="fresh_ns"))

    assert created["rows_written"] == 3 and created["files_written"] >= 1 and created["bytes_written"] > 0
    assert replaced["rows_written"] == 1
    assert appended["rows_written"] == 3 and appended["mode"] == "append"
    assert rows(spark, catalog_a, "fresh_ns", "totals") == [("w", 1.0), ("x", 90.0), ("y", 20.0), ("z", 40.0)]


def test_every_commit_carries_its_run_id_and_reports_its_own_snapshot(spark, catalog_a, tmp_path):
    # The run service finds a run's commit by this property (domain/runs/commit.ts).
    first = execute(spark, job(catalog_a, tmp_path, "select 1 as x", "tagged", run_id="run-one"))
    second = execute(spark, job(catalog_a, tmp_path, "select 2 as x union all select 3", "tagged", mode="append", run_id="run-two"))

    table = f"`{catalog_a.name}`.`out`.`tagged`"
    tagged = {r["run"]: str(r["snapshot_id"]) for r in spark.sql(f"select snapshot_id, summary['lakeline.run-id'] as run from {table}.snapshots").collect()}
    assert tagged == {"run-one": first["snapshot_id"], "run-two": second["snapshot_id"]}
    assert (first["rows_written"], second["rows_written"]) == (1, 2)


def test_append_creates_a_missing_table(spark, catalog_a, tmp_path):
    out = execute(spark, job(catalog_a, tmp_path, "select * from sales.customers", "appended_first", mode="append"))

    assert out["rows_written"] == 3
    assert len(rows(spark, catalog_a, "out", "appended_first")) == 3


def test_reads_tables_pyiceberg_wrote_and_joins_them(spark, catalog_a, tmp_path):
    sql = "select c.region, count(*) as n from sales.orders o join lakeline.sales.customers c on o.customer = c.customer group by c.region"

    execute(spark, job(catalog_a, tmp_path, sql, "by_region"))

    assert rows(spark, catalog_a, "out", "by_region") == [("north", 4), ("south", 1)]


def test_another_orgs_tables_are_not_reachable(spark, catalog_a, tmp_path):
    with pytest.raises(Exception) as failure:
        execute(spark, job(catalog_a, tmp_path, "select * from secret.salaries", "leak"))

    message = error_text(failure.value, job(catalog_a, tmp_path, "", "leak"))
    assert "TABLE_OR_VIEW_NOT_FOUND" in message and "`lakeline`.`secret`.`salaries`" in message
    assert catalog_a.name not in message and "Project" not in message


def test_run_writes_the_result_document_for_success_and_for_failure(spark, catalog_a, tmp_path):
    ok_spec = tmp_path / "ok.json"
    bad_spec = tmp_path / "bad.json"
    base = {
        "version": 1,
        "run_id": "r9",
        "output": {"namespace": "out", "table": "doc_t"},
        "catalog": {"name": catalog_a.name, "type": "jdbc", "uri": catalog_a.uri, "warehouse": catalog_a.warehouse},
    }
    ok_spec.write_text(json.dumps({**base, "sql": "select id from sales.orders", "result_uri": f"file://{tmp_path}/ok-result.json"}))
    bad_spec.write_text(json.dumps({**base, "sql": "select no_such_column from sales.orders", "result_uri": f"file://{tmp_path}/bad-result.json"}))

    ok_code = run(spark, str(ok_spec), {"started_at": 1, "session_ready_at": 2})
    bad_code = run(spark, f"file://{bad_spec}", {"started_at": 1, "session_ready_at": 2})
    unusable = run(spark, str(tmp_path / "missing.json"), {})

    ok = json.loads((tmp_path / "ok-result.json").read_text())
    bad = json.loads((tmp_path / "bad-result.json").read_text())
    assert (ok_code, bad_code, unusable) == (0, 1, 2)
    assert ok["ok"] and ok["rows_written"] == 5 and ok["run_id"] == "r9" and ok["finished_at"] >= ok["session_ready_at"]
    assert not bad["ok"] and "no_such_column" in bad["error"] and bad["error_type"] == "AnalysisException"


def test_a_refused_statement_is_a_failed_run_not_a_crash(spark, catalog_a, tmp_path):
    spec_file = tmp_path / "refused.json"
    spec_file.write_text(
        json.dumps(
            {
                "version": 1,
                "run_id": "r10",
                "sql": "drop table sales.orders",
                "output": {"namespace": "out", "table": "never"},
                "catalog": {"name": catalog_a.name, "type": "jdbc", "uri": catalog_a.uri, "warehouse": catalog_a.warehouse},
                "result_uri": f"file://{tmp_path}/refused-result.json",
            }
        )
    )

    assert run(spark, str(spec_file), {}) == 1
    result = json.loads((tmp_path / "refused-result.json").read_text())
    assert result["error"].startswith("refused: only a query")
    assert len(rows(spark, catalog_a, "sales", "orders")) == 5


def test_runtime_failures_keep_the_root_cause_without_stack_traces(spark, catalog_a, tmp_path):
    spec = job(catalog_a, tmp_path, "select id, case when id > 2 then raise_error('boom from the query') else 'ok' end as x from sales.orders", "never_written")

    with pytest.raises(Exception) as failure:
        execute(spark, spec)

    message = error_text(failure.value, spec)
    assert "boom from the query" in message
    assert "\tat " not in message and "Job aborted" not in message
