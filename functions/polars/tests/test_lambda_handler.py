"""The Lambda entry point (AWS profile), run in a fresh interpreter as Lambda would: the module
imports polars at load, then each event runs in a forked child and answers the same JSON as the
local workers. A fresh process, because forking a process whose polars pools already run (this
test process) is exactly what the zygote avoids.

S3 is not reached: the program replaces ``pl.scan_iceberg`` (recording the storage options it was
given, then reading the local table) and ``s3_access.put_file`` (copying the file below the test's
directory) before the first event; the forked children inherit the replacements."""
import json
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyiceberg.catalog.sql import SqlCatalog

from lakeline_polars import s3_access

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = """
import json, os, shutil, sys
import polars as pl
from lakeline_polars import lambda_handler, s3_access
record_dir = sys.argv[1]
real_scan = pl.scan_iceberg

def scan_iceberg(source, storage_options=None, **kwargs):
    with open(os.path.join(record_dir, "scan.json"), "w") as f:
        json.dump({"source": source, "storage_options": storage_options}, f)
    return real_scan(source)

def put_file(local, uri, options):
    target = os.path.join(record_dir, "uploaded", uri[len("s3://"):])
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(local, target)
    with open(os.path.join(record_dir, "put.json"), "w") as f:
        json.dump({"uri": uri, "options": options}, f)

pl.scan_iceberg = scan_iceberg
s3_access.put_file = put_file
events = json.load(sys.stdin)
answers = []
for event in events:
    answer = (lambda_handler.handler(event, None) if event.pop('entry', None) == 'lambda' else lambda_handler.run_event(event))
    pid_file = os.path.join(record_dir, "stray.pid")
    if os.path.exists(pid_file):
        pid = int(open(pid_file).read())
        try:
            os.kill(pid, 0)
            answer["stray_alive"] = True
        except ProcessLookupError:
            answer["stray_alive"] = False
        os.unlink(pid_file)
    answers.append(answer)
print(json.dumps(answers))
"""

OWN = {
    "AWS_ACCESS_KEY_ID": "ASIAOWNFUNCTIONKEY",
    "AWS_SECRET_ACCESS_KEY": "own-secret",
    "AWS_SESSION_TOKEN": "own-token",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:9999/creds",
    "AWS_LAMBDA_RUNTIME_API": "127.0.0.1:9001",
    "AWS_LAMBDA_FUNCTION_NAME": "sandbox-2",
    "AWS_REGION": "eu-west-1",
}
CREDENTIALS = {"access_key_id": "ASIASCOPED", "secret_access_key": "scoped-secret", "session_token": "scoped-token"}


def run_events(events, tmp_path, extra_env=None):
    env = {**os.environ, "PYTHONPATH": HERE, "TMPDIR": str(tmp_path), "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "2048", **(extra_env or {})}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", PROGRAM, str(tmp_path)], input=json.dumps(events), capture_output=True, text=True, env=env, timeout=120, check=True)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def metadata(tmp_path_factory):
    root = tmp_path_factory.mktemp("lake")
    catalog = SqlCatalog("t", uri=f"sqlite:///{root}/c.db", warehouse=f"file://{root}/wh")
    catalog.create_namespace("ns")
    data = pa.table({"k": pa.array([1, 2, 3], pa.int64())})
    table = catalog.create_table("ns.t", schema=data.schema)
    table.append(data)
    return table.metadata_location


def test_should_answer_version_query_and_script_error(tmp_path):
    answers = run_events(
        [
            {"op": "version"},
            {"op": "run", "request": {"mode": "script", "script": 'result = pl.DataFrame({"a": [1, 2]}).lazy().select(pl.col("a").sum())', "tables": {}}, "timeout_s": 30},
            {"op": "run", "request": {"mode": "script", "script": "result = 1 / 0", "tables": {}}, "timeout_s": 30},
        ],
        tmp_path,
    )
    assert answers[0]["ok"] is True and answers[0]["polars"]
    assert answers[1]["results"] == {"columns": ["a"], "column_types": ["Int64"], "rows": [[3]]}
    assert answers[2]["ok"] is False and answers[2]["kind"] == "user"
    assert answers[2]["details"].endswith("ZeroDivisionError: division by zero")


def test_should_refuse_scripts_at_the_lambda_entry_point_and_run_sql_there(tmp_path):
    """Scripts run on the Fargate tiers only: the Lambda runtime API is reachable from a script."""
    answers = run_events(
        [
            {"entry": "lambda", "op": "run", "request": {"mode": "script", "script": "result = pl.DataFrame({'a': [1]})", "tables": {}}, "timeout_s": 30},
            {"entry": "lambda", "op": "run", "request": {"mode": "query", "query": "SELECT 1 AS a", "tables": {}}, "timeout_s": 30},
        ],
        tmp_path,
    )
    assert answers[0]["ok"] is False and "Fargate" in answers[0]["error"]
    assert answers[1]["ok"] is True and answers[1]["results"]["rows"] == [[1]]


def test_should_remove_the_functions_own_credentials_before_the_script_runs(tmp_path):
    script = 'import os\nresult = pl.DataFrame({"name": sorted(n for n in os.environ if n.startswith("AWS"))})'
    [answer] = run_events([{"op": "run", "request": {"mode": "script", "script": script, "tables": {}}, "credentials": CREDENTIALS, "timeout_s": 30}], tmp_path, OWN)
    assert answer["ok"] is True
    assert [row[0] for row in answer["results"]["rows"]] == ["AWS_EC2_METADATA_DISABLED", "AWS_REGION"]


def test_should_read_tables_with_the_events_credentials_only(metadata, tmp_path):
    request = {"mode": "script", "script": 'result = scan("ns.t").select(pl.col("k").sum())', "tables": {"ns.t": metadata}}
    [answer] = run_events([{"op": "run", "request": request, "credentials": CREDENTIALS, "timeout_s": 30}], tmp_path, OWN)
    assert answer["ok"] is True and answer["results"]["rows"] == [[6]]
    scan = json.loads((tmp_path / "scan.json").read_text())
    assert scan == {
        "source": metadata,
        "storage_options": {"s3.access-key-id": "ASIASCOPED", "s3.secret-access-key": "scoped-secret", "s3.session-token": "scoped-token", "s3.region": "eu-west-1"},
    }


def test_should_never_write_the_credentials_to_the_request_file(metadata, tmp_path):
    request = {"mode": "query", "query": "SELECT k FROM t", "tables": {"t": metadata}, "storage_options": {"s3.access-key-id": "INJECTED"}}
    [answer] = run_events([{"op": "run", "request": request, "credentials": CREDENTIALS, "timeout_s": 30}], tmp_path, OWN)
    assert answer["ok"] is True
    with open("/tmp/lakeline-polars/inbox/request.json", encoding="utf-8") as handle:
        stored = handle.read()
    assert "scoped-secret" not in stored and "INJECTED" not in stored
    assert json.loads((tmp_path / "scan.json").read_text())["storage_options"]["s3.access-key-id"] == "ASIASCOPED"


def test_should_refuse_a_run_over_tables_without_credentials(metadata, tmp_path):
    [answer] = run_events([{"op": "run", "request": {"mode": "query", "query": "SELECT k FROM t", "tables": {"t": metadata}}, "timeout_s": 30}], tmp_path, OWN)
    assert answer["ok"] is False and answer["kind"] == "internal"
    assert not (tmp_path / "scan.json").exists()


def test_should_upload_a_destinations_result_to_its_staging_key(metadata, tmp_path):
    uri = "s3://lake-bucket/polars-staging/req-1/result.parquet"
    request = {"mode": "query", "query": "SELECT k FROM t ORDER BY k", "tables": {"t": metadata}, "output": True, "output_uri": uri}
    [answer] = run_events([{"op": "run", "request": request, "credentials": CREDENTIALS, "timeout_s": 30}], tmp_path, OWN)
    assert answer["ok"] is True and answer["output_uri"] == uri and answer["row_count"] == 3
    put = json.loads((tmp_path / "put.json").read_text())
    assert put["uri"] == uri and put["options"]["s3.access-key-id"] == "ASIASCOPED"
    assert pq.read_table(tmp_path / "uploaded" / "lake-bucket" / "polars-staging" / "req-1" / "result.parquet")["k"].to_pylist() == [1, 2, 3]


def test_should_kill_a_daemon_the_script_left_behind(tmp_path):
    pid_file = tmp_path / "stray.pid"
    script = f"""import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        time.sleep(60)
    os._exit(0)
while not os.path.exists({str(pid_file)!r}):
    time.sleep(0.01)
result = pl.DataFrame({{"a": [1]}})
"""
    [answer] = run_events([{"op": "run", "request": {"mode": "script", "script": script, "tables": {}}, "timeout_s": 30}], tmp_path)
    assert answer["ok"] is True
    assert answer["stray_alive"] is False


def test_should_keep_only_the_region_of_the_platforms_variables():
    environ = {**OWN, "PATH": "/usr/bin", "_X_AMZN_TRACE_ID": "Root=1", "AWS_DEFAULT_REGION": "eu-west-1"}
    removed = s3_access.scrub_own_credentials(environ)
    assert environ == {"PATH": "/usr/bin", "AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "eu-west-1", "AWS_EC2_METADATA_DISABLED": "true"}
    assert "AWS_SECRET_ACCESS_KEY" in removed and "AWS_LAMBDA_RUNTIME_API" in removed


def test_should_refuse_incomplete_credentials():
    with pytest.raises(ValueError, match="session_token"):
        s3_access.storage_options({"access_key_id": "a", "secret_access_key": "b"}, "eu-west-1")
    with pytest.raises(ValueError, match="region"):
        s3_access.storage_options(CREDENTIALS, "")
