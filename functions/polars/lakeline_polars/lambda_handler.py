"""The polars sandbox as a Lambda function (one per tier; AWS profile).

Lambda's micro-VM is the outer sandbox; inside it each request runs in a forked child with the
zygote's limits (memory, processes, file size, wall clock), so nothing a script does survives into
the next invocation. polars is imported once per execution environment (module load), like the
local warm workers. Event: ``{"op": "run", "request": {...}, "timeout_s": ..}`` or ``{"op": "version"}``.
"""
from __future__ import annotations

import json
import os
from typing import Any

import polars as pl

from . import zygote

zygote.warm(pl)

_ROOT = "/tmp/lakeline-polars"
_INBOX = os.path.join(_ROOT, "inbox")
_SCRATCH = os.path.join(_ROOT, "scratch")
#: Memory the run may take: the function's memory less what the runtime holds.
_MEMORY_BYTES = max(512, int(os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "3538")) - 256) * 1024 * 1024


def handler(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    if event.get("op") == "version":
        return {"ok": True, "polars": pl.__version__}
    os.makedirs(_INBOX, exist_ok=True)
    os.makedirs(_SCRATCH, exist_ok=True)
    with open(os.path.join(_INBOX, "request.json"), "w", encoding="utf-8") as handle:
        json.dump(event["request"], handle)
    op = {"op": "run", "task": "run", "timeout_s": float(event.get("timeout_s") or 880), "memory_bytes": _MEMORY_BYTES, "max_processes": 0}
    status = zygote.run_forked(pl, op, _SCRATCH, _INBOX)
    if not status.get("ok"):
        return status
    with open(os.path.join(_SCRATCH, "answer.json"), encoding="utf-8") as handle:
        return json.load(handle)
