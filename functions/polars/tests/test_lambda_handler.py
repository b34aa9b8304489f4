"""The Lambda entry point (AWS profile), run in a fresh interpreter as Lambda would: the module
imports polars at load, then each event runs in a forked child and answers the same JSON as the
local workers. A fresh process, because forking a process whose polars pools already run (this
test process) is exactly what the zygote avoids."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = """
import json, sys
from lakeline_polars import lambda_handler
events = json.load(sys.stdin)
print(json.dumps([lambda_handler.handler(e, None) for e in events]))
"""


def run_events(events, tmp_path):
    env = {**os.environ, "PYTHONPATH": HERE, "TMPDIR": str(tmp_path), "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "2048"}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", PROGRAM], input=json.dumps(events), capture_output=True, text=True, env=env, timeout=120, check=True)
    return json.loads(done.stdout)


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
