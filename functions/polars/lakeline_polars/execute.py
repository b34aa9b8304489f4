"""Runs one request: polars SQL over registered Iceberg tables, or a dataframe script.

Called inside the sandbox, in the forked child of one request (``zygote``) or in the Lambda.
Tables arrive as ``name -> metadata file``; the files they reference are the only lake files the
sandbox can see. Errors the caller caused (SQL, script, policy, result size) come back as
``{"ok": False, "kind": "user", ...}`` with the script's own traceback lines only.
"""
from __future__ import annotations

import io
import os
import sys
import time
import traceback
from typing import Any

from .policy import PolicyError, analyze_script, install_runtime_guard
from .values import dtype_name, json_value

#: The file name scripts are compiled under: it marks the script's frames in tracebacks and calls.
SCRIPT_FILENAME = "<script>"

#: Inline results stop here (bytes of JSON, estimated); a Lambda response is at most 6 MB.
DEFAULT_MAX_RESULT_BYTES = 5 * 1024 * 1024


class UserError(Exception):
    """The request is wrong in a way the caller can fix (400)."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details or message


def _scan_iceberg(pl: Any, metadata: str, storage: dict[str, str] | None = None) -> Any:
    """A lazy scan; ``storage`` holds the run's S3 credentials in AWS (``s3_access``), none locally."""
    return pl.scan_iceberg(metadata, storage_options=storage) if storage else pl.scan_iceberg(metadata)


def _script_traceback(err: BaseException) -> str:
    """The traceback of a script error, keeping only the frames of the script itself."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == SCRIPT_FILENAME]
    lines = [f"line {f.lineno}, in {f.name}" for f in frames]
    lines.append("".join(traceback.format_exception_only(type(err), err)).strip())
    return "\n".join(lines)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return f"{type(err).__name__}: {text.splitlines()[0] if text else ''}"


def _run_query(pl: Any, request: dict[str, Any]) -> Any:
    tables: dict[str, str] = request["tables"]
    storage = request.get("storage_options")
    frames = {alias: _scan_iceberg(pl, meta, storage) for alias, meta in tables.items()}
    context = pl.SQLContext(frames=frames)
    try:
        return context.execute(request["query"], eager=False)
    except Exception as err:  # polars' SQL errors have several classes across versions
        raise UserError(f"polars could not run the query: {_first_line(err)}", str(err)) from None


def _table_key(name: str) -> str:
    """``lakeline.ns.t`` and ``ns.t`` name the same table."""
    parts = name.split(".")
    return ".".join(parts[1:]) if len(parts) == 3 and parts[0].lower() == "lakeline" else name


def _run_script(pl: Any, request: dict[str, Any]) -> Any:
    source = request["script"]
    try:
        analyze_script(source)
    except PolicyError as err:
        raise UserError(str(err)) from None
    tables: dict[str, str] = request["tables"]
    storage = request.get("storage_options")

    def scan(name: str) -> Any:
        """A lazy scan of one of the request's tables (by alias or `namespace.table`)."""
        if not isinstance(name, str):
            raise TypeError("scan() takes a table name: an alias or namespace.table")
        key = _table_key(name)
        if key not in tables:
            known = ", ".join(sorted(tables)) or "none"
            raise KeyError(f"table {name!r} is not among the request's tables ({known}); list it in `tables` or scan it by a literal name")
        return _scan_iceberg(pl, tables[key], storage)

    scope: dict[str, Any] = {
        "__name__": "__script__",
        "pl": pl,
        "scan": scan,
        "params": dict(request.get("params") or {}),
        "catalog": request.get("catalog", "lakeline"),
    }
    code = compile(source, SCRIPT_FILENAME, "exec")
    captured = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = captured  # print() in a script must not reach the worker's streams
    try:
        exec(code, scope)  # noqa: S102 - running the caller's script is the point; the sandbox confines it
    except PolicyError as err:
        raise UserError(str(err), _script_traceback(err)) from None
    except MemoryError:
        raise
    except BaseException as err:  # SystemExit and KeyboardInterrupt are script errors too
        raise UserError(f"the script failed: {_first_line(err)}", _script_traceback(err)) from None
    finally:
        sys.stdout = real_stdout
    if "result" not in scope:
        raise UserError("the script did not assign `result`", "assign a polars LazyFrame or DataFrame to `result`")
    result = scope["result"]
    if not isinstance(result, (pl.LazyFrame, pl.DataFrame)):
        raise UserError(
            f"`result` must be a polars LazyFrame or DataFrame, not {type(result).__name__}",
            "assign a polars LazyFrame or DataFrame to `result`",
        )
    return result


def _collect(pl: Any, frame: Any, guard: dict[str, Any]) -> Any:
    if isinstance(frame, pl.DataFrame):
        return frame
    try:
        return guard["LazyFrame.collect"](frame)
    except MemoryError:
        raise
    except Exception as err:
        raise UserError(f"polars could not run the plan: {_first_line(err)}", str(err)) from None


def _tabular(df: Any, max_bytes: int) -> tuple[dict[str, Any], bool]:
    """Rows as JSON until ``max_bytes`` (estimated) is reached; says whether it stopped early."""
    columns = list(df.columns)
    types = [dtype_name(t) for t in df.dtypes]
    rows: list[list[Any]] = []
    size = 0
    truncated = False
    for row in df.iter_rows():
        converted = [json_value(v) for v in row]
        size += len(repr(converted)) + 2
        if size > max_bytes:
            truncated = True
            break
        rows.append(converted)
    return {"columns": columns, "column_types": types, "rows": rows}, truncated


def _stage_output(local: str, request: dict[str, Any]) -> str | None:
    """Uploads the result file to ``output_uri`` when the request has one (AWS); its URI."""
    uri = request.get("output_uri")
    if not uri:
        return None
    from . import s3_access

    s3_access.put_file(local, uri, request.get("storage_options") or {})
    return str(uri)


def analyze_request(request: dict[str, Any]) -> dict[str, Any]:
    """The tables a script names in ``scan("...")``, or the policy error."""
    try:
        found = analyze_script(request["script"])
    except PolicyError as err:
        return {"ok": False, "kind": "user", "error": str(err), "details": str(err)}
    return {"ok": True, "scans": found.scans, "dynamic_scan": found.dynamic_scan}


def run_request(pl: Any, request: dict[str, Any], workdir: str) -> dict[str, Any]:
    """Runs one request and returns the answer (never raises for the caller's mistakes).

    With ``request["output"]`` set the result is written to ``workdir/result.parquet`` for the
    lake writer, and no rows are returned. In AWS ``request["output_uri"]`` (the run's staging key)
    says where to upload that file, with the run's own credentials, for the lake writer to read.
    """
    started = time.perf_counter()
    guard = install_runtime_guard(pl, SCRIPT_FILENAME)
    try:
        if request["mode"] == "query":
            frame = _run_query(pl, request)
        elif request["mode"] == "script":
            frame = _run_script(pl, request)
        else:
            raise UserError(f"unknown mode {request['mode']!r}")
        df = _collect(pl, frame, guard)
        run_ms = round((time.perf_counter() - started) * 1000, 3)
        max_bytes = int(request.get("max_result_bytes") or DEFAULT_MAX_RESULT_BYTES)
        results, truncated = _tabular(df, max_bytes)
        if request.get("output"):
            # The table holds every row; the response carries them too when they fit inline.
            local = os.path.join(workdir, "result.parquet")
            df.write_parquet(local)
            staged = _stage_output(local, request)
            if truncated:
                results["rows"] = []
            answer = {"ok": True, "results": results, "row_count": df.height, "output_file": "result.parquet", "rows_omitted": truncated, "run_ms": run_ms}
            return {**answer, "output_uri": staged} if staged else answer
        if truncated:
            return {
                "ok": False,
                "kind": "user",
                "error": f"the result has {df.height} rows, more than fits in a response; write it to a table with `destination`",
                "details": f"inline results are limited to about {max_bytes} bytes of JSON",
            }
        return {"ok": True, "results": results, "row_count": df.height, "run_ms": run_ms}
    except UserError as err:
        return {"ok": False, "kind": "user", "error": str(err), "details": err.details}
    except MemoryError:
        return {"ok": False, "kind": "oom", "error": "the request ran out of memory; use a larger vcpus tier or read less data", "details": "MemoryError"}
