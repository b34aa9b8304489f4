"""One run, start to finish: read the spec, point the SQL at the org's catalog, write the output
table, and record the outcome in the result document the run service reads.

Exit codes: 0 the write landed; 1 the query failed (the result document holds Spark's error);
2 the spec could not be used. A run killed from outside (abort) leaves no result document.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from typing import Any

from .io import read_json, write_json
from .names import ForbiddenReference, logical_text, map_reference
from .rewrite import ForbiddenStatement, find_references, rewrite
from .session import open_session, use_catalog
from .spec import JobSpec, SpecError, parse_spec
from .write import run_and_write

#: Longest error text kept; Spark messages can embed whole plans.
MAX_ERROR_CHARS = 4000


def _now_ms() -> int:
    return int(time.time() * 1000)


def _root_message(err: BaseException) -> str:
    """The message of the innermost JVM cause: "Job aborted due to stage failure" wraps the error
    that matters (a cast overflow, a missing file) together with executor stack traces."""
    java = getattr(err, "java_exception", None)
    if java is None:
        return str(err)
    message = java.getMessage() or ""
    cause = java.getCause()
    while cause is not None:
        if cause.getMessage():
            message = cause.getMessage()
        cause = cause.getCause()
    return message


def error_text(err: BaseException, spec: JobSpec | None) -> str:
    """Spark's message for a failure, without stack traces or the plan dump AnalysisException
    appends, and with internal catalog names mapped back to ``lakeline``."""
    text = _root_message(err).strip() or type(err).__name__
    text = text.split("\n\tat ", 1)[0]
    # AnalysisException ends "...; line 1 pos 14;\n'Project [*]\n+- ..."; the plan helps no caller.
    text = re.split(r"\n'|\n== ", text, maxsplit=1)[0].rstrip("; \n")
    if isinstance(err, (ForbiddenReference, ForbiddenStatement)):
        text = f"refused: {text}"
    if spec is not None:
        text = logical_text(spec.catalog, text)
    return text[:MAX_ERROR_CHARS]


def execute(spark: Any, spec: JobSpec) -> dict[str, Any]:
    """Runs the spec's query into its output table; returns the success part of the result."""
    use_catalog(spark, spec.catalog)
    references = find_references(spark, spec.sql)
    sql = rewrite(spec.sql, references, lambda parts: map_reference(spec.catalog, parts))
    stats = run_and_write(spark, spec, sql)
    return {
        "ok": True,
        "rows_written": stats.rows_written,
        "bytes_written": stats.bytes_written,
        "files_written": stats.files_written,
        "snapshot_id": stats.snapshot_id,
        "mode": spec.mode,
        "output": {"namespace": spec.output_namespace, "table": spec.output_table},
    }


def run(spark: Any, spec_uri: str, timings: dict[str, int]) -> int:
    """Runs the spec at ``spec_uri`` in an open session and writes its result document."""
    try:
        spec = parse_spec(read_json(spark, spec_uri))
    except (SpecError, OSError, ValueError) as err:
        print(f"lakeline: unusable job spec {spec_uri}: {err}", file=sys.stderr)
        return 2
    try:
        result = execute(spark, spec)
        code = 0
    except Exception as err:  # noqa: BLE001 - every failure of the query is the run's outcome
        result = {"ok": False, "error": error_text(err, spec), "error_type": type(err).__name__}
        code = 1
    result.update(timings, finished_at=_now_ms(), spark_version=spark.version, run_id=spec.run_id)
    write_json(spark, spec.result_uri, result)
    return code


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``run_job.py``."""
    started_at = _now_ms()
    parser = argparse.ArgumentParser(description="lakeline managed Spark job")
    parser.add_argument("--spec", required=True, help="path or URI of the job spec (JSON)")
    args = parser.parse_args(argv)
    spark = open_session("lakeline-run")
    try:
        return run(spark, args.spec, {"started_at": started_at, "session_ready_at": _now_ms()})
    finally:
        spark.stop()
