"""One request run in-process (the sandbox around it is tested over HTTP): SQL over an Iceberg
table, scripts, the script's own traceback, run-time refusal of collect."""
import pyarrow as pa
import pytest
import polars as pl
from pyiceberg.catalog.sql import SqlCatalog

from lakeline_polars.execute import run_request


@pytest.fixture(scope="module")
def metadata(tmp_path_factory):
    root = tmp_path_factory.mktemp("lake")
    catalog = SqlCatalog("t", uri=f"sqlite:///{root}/c.db", warehouse=f"file://{root}/wh")
    catalog.create_namespace("ns")
    data = pa.table({"k": pa.array([1, 2, 3], pa.int64()), "v": pa.array(["a", "b", "c"])})
    table = catalog.create_table("ns.t", schema=data.schema)
    table.append(data)
    return table.metadata_location


def test_should_run_sql_over_a_registered_iceberg_table(metadata, tmp_path):
    answer = run_request(pl, {"mode": "query", "query": "SELECT v FROM t WHERE k > 1 ORDER BY k", "tables": {"t": metadata}}, str(tmp_path))
    assert answer["ok"] is True
    assert answer["results"] == {"columns": ["v"], "column_types": ["String"], "rows": [["b"], ["c"]]}
    assert answer["row_count"] == 2


def test_should_run_a_script_with_scan_and_params(metadata, tmp_path):
    script = 'result = scan("ns.t").filter(pl.col("v") == params["v"]).select("k")'
    answer = run_request(pl, {"mode": "script", "script": script, "params": {"v": "c"}, "tables": {"ns.t": metadata}}, str(tmp_path))
    assert answer["results"]["rows"] == [[3]]


def test_should_keep_only_the_scripts_frames_in_a_traceback(tmp_path):
    answer = run_request(pl, {"mode": "script", "script": "def f():\n    return {}['x']\nresult = f()", "tables": {}}, str(tmp_path))
    assert answer["ok"] is False
    assert answer["details"] == "line 3, in <module>\nline 2, in f\nKeyError: 'x'"


def test_should_refuse_collect_reached_at_run_time(tmp_path):
    script = 'f = getattr(pl.LazyFrame({"a": [1]}), "col" + "lect")\nresult = f()'
    answer = run_request(pl, {"mode": "script", "script": script, "tables": {}}, str(tmp_path))
    assert answer["ok"] is False
    assert "calling .collect() is not allowed" in answer["error"]


def test_should_write_the_result_file_when_asked(tmp_path):
    answer = run_request(pl, {"mode": "script", "script": 'result = pl.DataFrame({"a": [1, 2]})', "tables": {}, "output": True}, str(tmp_path))
    assert answer["output_file"] == "result.parquet"
    assert pl.read_parquet(tmp_path / "result.parquet")["a"].to_list() == [1, 2]
