"""The warm worker: imports polars once, then forks one child per request.

Protocol: one JSON object per line on stdin, one JSON answer per line on stdout; the zygote itself
never sees a request's content or its answer. The parent writes the request to
``$LAKELINE_INBOX/request.json`` (read-only here) and sends only the limits:

* ``{"op": "run", "task": "run" | "analyze", "timeout_s": .., "memory_bytes": .., ...}``: forks a
  child that reads the request, runs it (``execute.run_request``) or parses the script
  (``execute.analyze_request``), and writes its answer to ``$LAKELINE_SCRATCH/answer.json``. The
  zygote answers ``{"ok": true, "status": "done"}`` once the child is gone, or
  ``{"ok": false, "kind": "timeout" | "oom" | "crash", ...}``.
* ``{"op": "ping"}`` -> ``{"ok": true}``.

Why fork per request: a script can change anything in its interpreter (patch polars, keep data in
a global, start a thread); the child dies with all of that, and the next request forks a clean copy
of a process that has never run user code nor held another request's data. The child gets its own
memory and file-size limits, and the zygote kills whatever the child left running (the sandbox has
its own PID namespace, so every other process in it but its init belongs to the request).
"""
from __future__ import annotations

import json
import os
import resource
import select
import shutil
import signal
import sys
import time
from typing import Any, Callable

#: Prepares a request in the forked child before it runs (AWS: the run's credentials, the
#: function's own removed from the environment); returns the request to run.
ChildSetup = Callable[[dict[str, Any]], dict[str, Any]]


#: Where the sandbox mounts the worker's private, writable directory.
SCRATCH_ENV = "LAKELINE_SCRATCH"
#: Where the sandbox mounts the read-only directory holding the request.
INBOX_ENV = "LAKELINE_INBOX"


def _set_limit(which: int, value: int) -> None:
    """Lowers a limit (soft and hard), so the request cannot raise it again."""
    soft, hard = resource.getrlimit(which)
    new = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(which, (new, new))


def _make_undumpable() -> None:
    """No ptrace and no /proc/<pid>/mem of the zygote for its own children (same uid)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_dumpable = 4
        libc.prctl(pr_set_dumpable, 0, 0, 0, 0)
    except OSError:
        pass


def warm(pl: Any) -> None:
    """Imports what a first request would import, without starting polars' thread pools.

    Pools started here would not survive the fork (only the forking thread does): running an SQL
    statement in the zygote makes the child's first Iceberg scan hang, so the warm-up stops at
    imports and building a lazy plan (measured with polars 1.44).
    """
    import polars.io.iceberg  # noqa: F401
    import pyiceberg.avro.file  # noqa: F401
    import pyiceberg.io.pyarrow  # noqa: F401
    import pyiceberg.manifest  # noqa: F401
    import pyiceberg.table  # noqa: F401

    from . import execute  # noqa: F401

    pl.LazyFrame({"a": [1]}).select(pl.col("a").sum())


def _wipe(directory: str) -> None:
    """Empties the scratch directory (what the previous request left is not the next one's)."""
    for entry in os.listdir(directory):
        path = os.path.join(directory, entry)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def _in_own_pid_namespace() -> bool:
    """Whether this process runs in a PID namespace of its own (bubblewrap's), so that every
    process it can see in /proc belongs to the sandbox. Outside one, /proc lists the whole
    machine, and killing "every other process" would kill the host's processes."""
    try:
        with open("/proc/1/comm", encoding="utf-8") as f:
            init = f.read().strip()
        return init == "bwrap" and os.readlink("/proc/self/ns/pid") != os.environ.get("LAKELINE_HOST_PIDNS", "")
    except OSError:
        return False


def _kill_strays() -> int:
    """Kills every process of the sandbox except the zygote and the sandbox's init. Does nothing
    unless the zygote is in its own PID namespace (see _in_own_pid_namespace)."""
    if not _in_own_pid_namespace():
        return 0
    me = os.getpid()
    killed = 0
    for _round in range(20):
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, me)]
        if not pids:
            return killed
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        reap_exited_children()
        time.sleep(0.005)
    return killed


def reap_exited_children() -> None:
    """Collects every child that has exited, without waiting for the others."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _limits(op: dict[str, Any]) -> None:
    memory = int(op.get("memory_bytes") or 0)
    if memory > 0:
        # RLIMIT_DATA counts what the request writes (heap, anonymous mappings); polars reserves far
        # more address space than it uses (TPC-H Q1 at SF 1: 1.2 GB resident, fails under a 4 GB
        # RLIMIT_AS), so the address space only gets a backstop of four times the memory.
        _set_limit(resource.RLIMIT_DATA, memory)
        _set_limit(resource.RLIMIT_AS, 4 * memory)
    _set_limit(resource.RLIMIT_CORE, 0)
    # Counted per uid (each worker has its own): caps a fork bomb and runaway threads.
    processes = int(op.get("max_processes") or 0)
    if processes > 0:
        _set_limit(resource.RLIMIT_NPROC, processes)
    _set_limit(resource.RLIMIT_FSIZE, int(op.get("max_file_bytes") or 4 * 1024**3))


def _write_answer(scratch: str, answer: dict[str, Any]) -> None:
    """Writes the answer file atomically (the parent reads it once the child is gone)."""
    temp = os.path.join(scratch, "answer.json.tmp")
    with open(temp, "w", encoding="utf-8") as handle:
        json.dump(answer, handle, allow_nan=False, default=str)
    os.replace(temp, os.path.join(scratch, "answer.json"))


def _enter_child(op: dict[str, Any]) -> None:
    """First steps of every forked child: its own session, the op's limits, stdio to /dev/null."""
    os.setsid()
    _limits(op)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)


def _child(pl: Any, op: dict[str, Any], scratch: str, inbox: str, me: int, setup: ChildSetup | None = None) -> None:
    """The forked child: limits, quiet descriptors, read the request, set it up, run, answer, exit."""
    try:
        _enter_child(op)
        work = os.path.join(scratch, "request")
        os.chdir(work)
        os.environ["TMPDIR"] = work
        os.environ["POLARS_TEMP_DIR"] = work
        with open(os.path.join(inbox, "request.json"), encoding="utf-8") as handle:
            request = json.load(handle)
        if setup is not None:
            request = setup(request)
        from .execute import analyze_request, run_request

        answer = analyze_request(request) if op.get("task") == "analyze" else run_request(pl, request, work)
    except MemoryError:
        answer = {"ok": False, "kind": "oom", "error": "the request ran out of memory; use a larger vcpus tier or read less data", "details": "MemoryError"}
    except BaseException as err:  # noqa: BLE001 - anything else is the service's failure
        answer = {"ok": False, "kind": "internal", "error": f"the sandbox failed: {type(err).__name__}", "details": str(err)[:500]}
    # A script that forked runs this code in every copy; only the request's own child answers.
    if os.getpid() == me:
        try:
            _write_answer(scratch, answer)
        except BaseException:  # noqa: BLE001 - the zygote reports a child without an answer
            os._exit(3)
    os._exit(0)


class _QueryChild:
    """A forked child that runs SQL requests one after another.

    Only ``mode: query`` uses it: SQL (through the service's firewall) runs no Python of the
    caller's, so nothing a request does survives into the next one, and the child keeps polars'
    thread pools and caches warm (a fresh fork pays ~30 ms of first-run set-up per request). It is
    killed before any script runs (so no script ever runs beside it), on a time-out, after an
    error, and after ``MAX_SERVED`` requests.
    """

    MAX_SERVED = 200

    def __init__(self, pl: Any, op: dict[str, Any], scratch: str, inbox: str) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(to_child_w)
            os.close(from_child_r)
            _query_loop(pl, op, scratch, inbox, to_child_r, from_child_w)
        os.close(to_child_r)
        os.close(from_child_w)
        self.pid = pid
        self.to_child = to_child_w
        self.from_child = from_child_r
        self.pidfd = os.pidfd_open(pid)
        self.served = 0

    def stop(self) -> int | None:
        """Kills the child; returns its wait status."""
        for kill in (lambda: os.killpg(self.pid, signal.SIGKILL), lambda: os.kill(self.pid, signal.SIGKILL)):
            try:
                kill()
            except OSError:
                pass
        status = None
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        for fd in (self.to_child, self.from_child, self.pidfd):
            try:
                os.close(fd)
            except OSError:
                pass
        return status


def _query_loop(pl: Any, op: dict[str, Any], scratch: str, inbox: str, commands: int, replies: int) -> None:
    """The SQL child: one line in per request, ``ok`` out once its answer file is written."""
    try:
        _enter_child(op)
        from .execute import run_request

        me = os.getpid()
        source = os.fdopen(commands, "rb", buffering=0)
        while True:
            line = source.readline()
            if not line:
                break
            work = os.path.join(scratch, "request")
            try:
                os.chdir(work)
                os.environ["TMPDIR"] = work
                os.environ["POLARS_TEMP_DIR"] = work
                with open(os.path.join(inbox, "request.json"), encoding="utf-8") as handle:
                    request = json.load(handle)
                if request.get("mode") != "query":
                    raise ValueError("the SQL child runs queries only")
                answer = run_request(pl, request, work)
            except MemoryError:
                answer = {"ok": False, "kind": "oom", "error": "the request ran out of memory; use a larger vcpus tier or read less data", "details": "MemoryError"}
            except BaseException as err:  # noqa: BLE001 - answered, then the child is replaced
                answer = {"ok": False, "kind": "internal", "error": f"the sandbox failed: {type(err).__name__}", "details": str(err)[:500]}
            if os.getpid() != me:
                os._exit(0)
            _write_answer(scratch, answer)
            os.write(replies, b"ok\n" if answer.get("ok") or answer.get("kind") == "user" else b"retire\n")
            if not (answer.get("ok") or answer.get("kind") == "user"):
                break
    finally:
        os._exit(0)


_query_child: _QueryChild | None = None


def _drop_query_child() -> None:
    global _query_child
    if _query_child is not None:
        _query_child.stop()
        _query_child = None


def run_reused(pl: Any, op: dict[str, Any], scratch: str, inbox: str) -> dict[str, Any]:
    """Runs an SQL request in the warm SQL child (started on first use), within its wall-clock limit."""
    global _query_child
    _wipe(scratch)
    os.mkdir(os.path.join(scratch, "request"), 0o700)
    timeout = float(op.get("timeout_s") or 1700)
    if _query_child is None:
        _query_child = _QueryChild(pl, op, scratch, inbox)
    child = _query_child
    child.served += 1
    try:
        os.write(child.to_child, b"run\n")
    except OSError:
        status = child.stop()
        _query_child = None
        return _death_answer(status)
    ready, _, _ = select.select([child.from_child], [], [], timeout)
    reply = os.read(child.from_child, 64) if ready else None
    if reply is None:
        child.stop()
        _query_child = None
        return {
            "ok": False,
            "kind": "timeout",
            "error": f"the request ran longer than its limit of {timeout:g} s and was stopped",
            "details": "wall-clock limit",
        }
    if not reply:
        status = child.stop()
        _query_child = None
        return _death_answer(status)
    if reply.startswith(b"retire") or child.served >= _QueryChild.MAX_SERVED:
        _drop_query_child()
    return {"ok": True, "status": "done"}


def run_forked(pl: Any, op: dict[str, Any], scratch: str, inbox: str, setup: ChildSetup | None = None) -> dict[str, Any]:
    """Runs one request in a forked child, within its wall-clock limit; ``setup`` runs in the
    child before the request (and before any caller code)."""
    # No script ever runs beside the warm SQL child (same uid: it could tamper with it).
    _drop_query_child()
    _wipe(scratch)
    os.mkdir(os.path.join(scratch, "request"), 0o700)
    timeout = float(op.get("timeout_s") or 1700)
    pid = os.fork()
    if pid == 0:
        _child(pl, op, scratch, inbox, os.getpid(), setup)
    status: int | None = None
    pidfd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([pidfd], [], [], timeout)
        if ready:
            _, status = os.waitpid(pid, 0)
    finally:
        os.close(pidfd)
        if status is None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _kill_strays()
    if status is None:
        return {
            "ok": False,
            "kind": "timeout",
            "error": f"the request ran longer than its limit of {timeout:g} s and was stopped",
            "details": "wall-clock limit",
        }
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and os.path.exists(os.path.join(scratch, "answer.json")):
        return {"ok": True, "status": "done"}
    return _death_answer(status)


def _death_answer(status: int | None) -> dict[str, Any]:
    if status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGKILL, signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS):
            return {
                "ok": False,
                "kind": "oom",
                "error": "the request's process died (signal %d), most likely out of memory; use a larger vcpus tier or reduce the data" % sig,
                "details": f"signal {sig}",
            }
        return {"ok": False, "kind": "crash", "error": f"the request's process died on signal {sig}", "details": f"signal {sig}"}
    code = os.WEXITSTATUS(status) if status is not None else -1
    return {"ok": False, "kind": "crash", "error": f"the request's process exited ({code}) without an answer", "details": f"exit {code}"}


def serve(stdin: Any = None, stdout: Any = None) -> None:
    """The worker loop."""
    _make_undumpable()
    import polars as pl

    warm(pl)
    scratch = os.environ.get(SCRATCH_ENV) or "/scratch"
    inbox = os.environ.get(INBOX_ENV) or "/inbox"
    os.makedirs(scratch, exist_ok=True)
    inp = stdin or sys.stdin.buffer
    out = stdout or sys.stdout.buffer

    def send(obj: dict[str, Any]) -> None:
        out.write((json.dumps(obj, allow_nan=False, default=str) + "\n").encode())
        out.flush()

    send({"ready": True, "polars": pl.__version__, "pid": os.getpid(), "uid": os.getuid()})
    for raw in inp:
        if not raw.strip():
            continue
        try:
            message = json.loads(raw)
            op = message.get("op")
            if op == "run":
                started = time.perf_counter()
                answer = run_reused(pl, message, scratch, inbox) if message.get("reuse") else run_forked(pl, message, scratch, inbox)
                answer["sandbox_ms"] = round((time.perf_counter() - started) * 1000, 3)
                send(answer)
            elif op == "ping":
                send({"ok": True})
            else:
                send({"ok": False, "kind": "internal", "error": f"unknown op {op!r}"})
        except Exception as err:  # noqa: BLE001 - the loop must answer every line
            send({"ok": False, "kind": "internal", "error": f"worker error: {type(err).__name__}: {err}"})


if __name__ == "__main__":
    serve()
