"""Script policy: what a polars script may call, checked before it runs and while it runs.

A script must hand back a lazy or eager frame in ``result``; the service collects it. Calling
``.collect()`` (or friends) or ``.remote()`` inside the script is refused twice: statically, by
walking the syntax tree, so the common case gets a clear 400 before any compute is spent; and at run
time, by replacing those methods in the child process, for the cases a syntax walk cannot see
(``getattr(lf, "col" + "lect")``). Neither is a security boundary: the sandbox is.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable

#: Methods that execute a plan (or send it elsewhere) and so are the service's job, not the script's.
REFUSED_METHODS = (
    "collect",
    "collect_async",
    "collect_batches",
    "_collect_eager",
    "collect_all",
    "collect_all_async",
    "profile",
    "remote",
    "sink_parquet",
    "sink_csv",
    "sink_ipc",
    "sink_ndjson",
    "sink_batches",
    "sink_delta",
    "sink_iceberg",
)

#: Module-level functions among them (the rest are LazyFrame methods).
_MODULE_FUNCTIONS = ("collect_all", "collect_all_async")

#: Largest script accepted, in characters.
MAX_SCRIPT_CHARS = 200_000


class PolicyError(Exception):
    """The script breaks the script rules (a 400 for the caller)."""


@dataclass
class ScriptAnalysis:
    """What a script reads, found without running it."""

    #: Table names given to ``scan("...")`` as string literals, in order of first use.
    scans: list[str] = field(default_factory=list)
    #: Whether some ``scan(...)`` call has an argument that is not a string literal.
    dynamic_scan: bool = False


def _refused_message(name: str, line: int) -> str:
    return (
        f"line {line}: calling .{name}() is not allowed in a script; assign the lazy frame to "
        "`result` and the service runs it"
    )


def analyze_script(source: str) -> ScriptAnalysis:
    """Parses a script and checks it statically.

    Raises PolicyError for a syntax error, a refused method, or a script that never assigns
    ``result``.
    """
    if len(source) > MAX_SCRIPT_CHARS:
        raise PolicyError(f"the script is {len(source)} characters; the limit is {MAX_SCRIPT_CHARS}")
    try:
        tree = ast.parse(source, filename="<script>", mode="exec")
    except SyntaxError as err:
        raise PolicyError(f"line {err.lineno}: syntax error: {err.msg}") from None
    except (RecursionError, MemoryError, ValueError) as err:
        raise PolicyError(f"the script cannot be parsed: {type(err).__name__}") from None

    analysis = ScriptAnalysis()
    assigns_result = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in REFUSED_METHODS:
            raise PolicyError(_refused_message(node.attr, node.lineno))
        # getattr(x, "collect") and friends name the method as a string.
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in REFUSED_METHODS:
            raise PolicyError(_refused_message(node.value, node.lineno))
        if isinstance(node, ast.Name) and node.id == "result" and isinstance(node.ctx, ast.Store):
            assigns_result = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "scan":
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                if first.value not in analysis.scans:
                    analysis.scans.append(first.value)
            else:
                analysis.dynamic_scan = True
    if not assigns_result:
        raise PolicyError("the script must assign its output to `result` (a polars LazyFrame or DataFrame)")
    return analysis


def install_runtime_guard(pl: Any, script_filename: str) -> dict[str, Callable[..., Any]]:
    """Refuses the methods above when the script itself calls them; returns the originals.

    polars' own eager operations run through the same methods (``DataFrame.select`` builds a lazy
    plan and collects it), so a call is refused only when its caller is a frame of the script.
    Only the forked child of one request calls this, so the replaced methods never reach another
    request. The service keeps the originals to collect ``result`` itself.
    """
    import sys

    originals: dict[str, Callable[..., Any]] = {}

    def guarded(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def method(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1)
            if caller.f_code.co_filename == script_filename:
                raise PolicyError(
                    f"line {caller.f_lineno}: calling .{name}() is not allowed in a script; assign the lazy frame to "
                    "`result` and the service runs it"
                )
            return original(*args, **kwargs)

        return method

    for name in REFUSED_METHODS:
        owner = pl if name in _MODULE_FUNCTIONS else pl.LazyFrame
        original = getattr(owner, name, None)
        if original is None:
            continue
        originals[f"{owner.__name__}.{name}"] = original
        setattr(owner, name, guarded(name, original))
    # An eager frame has nothing to collect, but `remote` would ship it elsewhere.
    if hasattr(pl.DataFrame, "remote"):
        pl.DataFrame.remote = guarded("remote", pl.DataFrame.remote)
    return originals
