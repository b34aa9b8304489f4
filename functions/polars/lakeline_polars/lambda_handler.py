"""The polars sandbox as a Lambda function (one per tier; AWS profile).

Lambda's micro-VM is the outer sandbox; inside it each request runs in a forked child with the
zygote's limits (memory, processes, file size, wall clock), so nothing a script does survives into
the next invocation. polars is imported once per execution environment (module load), like the
local warm workers. Event: ``{"op": "run", "request": {...}, "timeout_s": .., "credentials":
{"access_key_id", "secret_access_key", "session_token"}}`` or ``{"op": "version"}``; the request
has the local workers' shape (``execute.run_request``), plus ``output_uri`` for a destination.

S3 access: the child reads tables (and uploads a destination's result to its staging key) with the
event's credentials only, scoped by the caller to this run's files; it removes the function's own
credentials from its environment before the request runs (``s3_access``: why that alone is not
enough, and why the execution role therefore has no data access). The credentials never go to the
request file on disk: the child gets them through its forked memory.

Strays: a script can start processes that leave its session (``setsid``, double fork). Lambda has no
PID namespace per request, so this process makes itself their subreaper and kills every descendant
after each run: nothing of a request is alive when the next one (another org's) arrives.
"""
from __future__ import annotations

import ctypes
import json
import os
import signal
import time
from typing import Any

import polars as pl

from . import s3_access, zygote

zygote.warm(pl)

_ROOT = "/tmp/lakeline-polars"
_INBOX = os.path.join(_ROOT, "inbox")
_SCRATCH = os.path.join(_ROOT, "scratch")
#: Memory the run may take: the function's memory less what the runtime holds.
_MEMORY_BYTES = max(512, int(os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "3538")) - 256) * 1024 * 1024
#: Read once, in the parent: the child removes the platform's variables before the request runs.
_REGION = s3_access.region_of_function()
_S3_ENDPOINT = s3_access.s3_endpoint_of_function()
_PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> bool:
    """Orphaned descendants are re-parented to this process instead of the environment's init."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


_SUBREAPER = _become_subreaper()


def _children() -> list[int]:
    """The processes whose parent is this one (as subreaper: every surviving descendant's root)."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                stat = handle.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the fields after it start at the last ')'.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1] == me:
            found.append(int(entry))
    return found


def kill_descendants() -> int:
    """Kills what the run left behind; their own children come to this process next round."""
    killed = 0
    for _round in range(50):
        children = _children()
        if not children:
            break
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        zygote.reap_exited_children()
        time.sleep(0.002)
    return killed


def _child_setup(event: dict[str, Any]) -> zygote.ChildSetup:
    """What the forked child does before the request: the run's credentials in, the function's out."""
    credentials = event.get("credentials")
    options = s3_access.storage_options(credentials, _REGION, _S3_ENDPOINT) if credentials is not None else None

    def setup(request: dict[str, Any]) -> dict[str, Any]:
        s3_access.scrub_own_credentials(os.environ)
        if options is None:
            if request.get("tables") or request.get("output_uri"):
                raise ValueError("a run that reads tables or writes a result needs credentials")
            return request
        return {**request, "storage_options": options}

    return setup


def handler(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    """The Lambda entry point: polars SQL only.

    A script here would share the function's network view with the runtime interface client, so it
    could call the Lambda runtime API (``AWS_LAMBDA_RUNTIME_API``, on localhost whatever the
    environment says), answer its own invocation and take the next one: another org's request with
    that org's credentials. Lambda gives no way to hide the endpoint from a process (no network
    namespace, no second uid), so scripts run on the Fargate tiers (``task_runner``), whose worker
    has a uid of its own. The Node side never sends a script here; this refusal is the second layer.
    """
    request = event.get("request")
    if event.get("op") == "run" and isinstance(request, dict) and request.get("mode") != "query":
        return {"ok": False, "kind": "internal", "error": "scripts do not run on the Lambda sandbox (the runtime API is reachable from them); use a Fargate tier"}
    return run_event(event)


def run_event(event: dict[str, Any]) -> dict[str, Any]:
    """Runs one event (``{op: run|version, ...}``) in a forked child; the task runner's worker calls this directly."""
    if event.get("op") == "version":
        return {"ok": True, "polars": pl.__version__}
    if event.get("op") != "run" or not isinstance(event.get("request"), dict):
        return {"ok": False, "kind": "internal", "error": "the event must be {op: run, request} or {op: version}"}
    try:
        setup = _child_setup(event)
    except ValueError as err:
        return {"ok": False, "kind": "internal", "error": f"invalid event: {err}"}
    os.makedirs(_INBOX, exist_ok=True)
    os.makedirs(_SCRATCH, exist_ok=True)
    request = {k: v for k, v in event["request"].items() if k != "storage_options"}
    with open(os.path.join(_INBOX, "request.json"), "w", encoding="utf-8") as handle:
        json.dump(request, handle)
    op = {"op": "run", "task": "run", "timeout_s": float(event.get("timeout_s") or 880), "memory_bytes": _MEMORY_BYTES, "max_processes": 0}
    try:
        status = zygote.run_forked(pl, op, _SCRATCH, _INBOX, setup=setup)
    finally:
        kill_descendants()
    if not status.get("ok"):
        return status
    with open(os.path.join(_SCRATCH, "answer.json"), encoding="utf-8") as handle:
        return json.load(handle)
