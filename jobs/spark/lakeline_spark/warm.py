"""The warm driver's loop (ADR 0059): one long-lived local Spark driver that runs small jobs one
after another, each in a session of its own, so a small write does not pay for a JVM's start.

Isolation is that of separate runs: every job gets ``newSession()`` — its own SQL settings (the
org's catalog is registered in it and nowhere else), its own temporary views and its own catalog
instances — and after each job whatever a job could leave in the state sessions share (cached
data) is dropped. A job reaches only what the same spec reaches in a run of its own: the same
``run`` does the work, with the same name mapping and refusals.

Protocol: one JSON object per line on stdin, ``{"spec": "<path or URI>"}``; for each, one line on
stdout, ``{"spec": ..., "code": <run's exit code>}``, after its result document is written. The
first line out is ``{"ready": true}`` once the session is up. End of input ends the driver (the
stack that started it is gone).
"""
from __future__ import annotations

import json
import time
from typing import Any, IO, Iterable

from .job import run


def _now_ms() -> int:
    return int(time.time() * 1000)


def run_isolated(spark: Any, spec_uri: str) -> int:
    """Runs one job in a fresh session of the shared driver, then clears what sessions share."""
    started_at = _now_ms()
    session = spark.newSession()
    try:
        return run(session, spec_uri, {"started_at": started_at, "session_ready_at": _now_ms(), "warm": 1})
    finally:
        # Cached data lives in the driver's shared state, not the session: nothing one job cached
        # may serve the next. (A job's temporary views and settings went with its session.)
        session.catalog.clearCache()


def serve(spark: Any, lines: Iterable[str], out: IO[str]) -> None:
    """Answers each job line with its exit code, in order, until the input ends."""
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            spec = json.loads(line)["spec"]
        except (ValueError, KeyError, TypeError):
            out.write(json.dumps({"error": "unreadable command"}) + "\n")
            out.flush()
            continue
        code = run_isolated(spark, spec)
        out.write(json.dumps({"spec": spec, "code": code}) + "\n")
        out.flush()
