"""Points user SQL at the org's catalog, using Spark's own parser.

User SQL names tables ``lakeline.<ns>.<t>`` or ``<ns>.<t>``, but Spark must see the org's
catalog (``org_<id>``; in Glue also ``org_<id>__<ns>``). Spark has no catalog aliases and
Iceberg's JdbcCatalog takes its row filter from the Spark catalog's name, so the references are
rewritten in the text: the statement is parsed with the session's parser (Iceberg extensions
included), every table reference is found in the unresolved plan with its character span, and each
span is replaced by the physical name. Because the engine's own parser finds the references, the
rewrite cannot disagree with what Spark will execute; string literals, comments, aliases and
column references are never touched.

The walk also refuses, as a second line behind the service's SQL firewall, anything that is not
a plain query: commands and DDL/DML statements, ``INSERT OVERWRITE DIRECTORY``, ``TRANSFORM``
scripts, ``IDENTIFIER(...)`` clauses (names resolved after parsing could dodge the rewrite), and
``reflect``/``java_method``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .names import ForbiddenReference

_LOGICAL = "org.apache.spark.sql.catalyst.plans.logical."
#: Plans that do something other than compute rows.
_STATEMENT_TYPES = (_LOGICAL + "Command", _LOGICAL + "ParsedStatement")
#: Query nodes that still escape the lake or run programs.
_FORBIDDEN_NODES = {
    "InsertIntoDir": "INSERT OVERWRITE DIRECTORY is not allowed",
    "ScriptTransformation": "TRANSFORM ... USING is not allowed",
    "PlanWithUnresolvedIdentifier": "IDENTIFIER(...) table names are not allowed",
    "ExpressionWithUnresolvedIdentifier": "IDENTIFIER(...) names are not allowed",
}
_FORBIDDEN_FUNCTIONS = {"reflect", "java_method", "try_reflect"}


class ForbiddenStatement(ValueError):
    """The SQL is not a plain query over the lake."""


@dataclass(frozen=True)
class TableReference:
    """One table reference: its name parts and its span (Python indexes, end exclusive)."""

    parts: tuple[str, ...]
    start: int
    end: int


def _iterate(seq: Any) -> Iterator[Any]:
    it = seq.iterator()
    while it.hasNext():
        yield it.next()


class _Walker:
    """Walks a parsed plan over py4j: children, inner children (CTEs, subqueries) and expressions."""

    def __init__(self, jvm: Any) -> None:
        self._types = [jvm.java.lang.Class.forName(name) for name in _STATEMENT_TYPES]
        self.references: dict[tuple[int, int], TableReference] = {}

    def plan(self, node: Any) -> None:
        name = node.getClass().getSimpleName()
        if any(t.isInstance(node) for t in self._types):
            raise ForbiddenStatement(f"only a query (SELECT) can run here; the result goes to the output table (found {name})")
        if name in _FORBIDDEN_NODES:
            raise ForbiddenStatement(_FORBIDDEN_NODES[name])
        if name == "UnresolvedRelation":
            self._relation(node)
        for child in _iterate(node.children()):
            self.plan(child)
        # Inner children are the plans of CTE definitions and of subquery expressions.
        for inner in _iterate(node.innerChildren()):
            self.plan(inner)
        for expression in _iterate(node.expressions()):
            self.expression(expression)

    def expression(self, node: Any) -> None:
        name = node.getClass().getSimpleName()
        if name in _FORBIDDEN_NODES:
            raise ForbiddenStatement(_FORBIDDEN_NODES[name])
        if name == "UnresolvedFunction":
            parts = list(_iterate(node.nameParts()))
            if parts and str(parts[-1]).lower() in _FORBIDDEN_FUNCTIONS:
                raise ForbiddenStatement(f"the function {parts[-1]} is not allowed")
        for child in _iterate(node.children()):
            self.expression(child)

    def _relation(self, node: Any) -> None:
        origin = node.origin()
        start, stop = origin.startIndex(), origin.stopIndex()
        if not (start.isDefined() and stop.isDefined()):
            raise ForbiddenReference("a table reference without a position in the statement cannot be checked")
        # ANTLR reads the statement as code points, so the offsets are Python string indexes.
        begin, end = int(start.get()), int(stop.get()) + 1
        parts = tuple(str(p) for p in _iterate(node.multipartIdentifier()))
        self.references[(begin, end)] = TableReference(parts, begin, end)


def find_references(spark: Any, sql: str) -> list[TableReference]:
    """Parses ``sql`` with the session's parser and returns its table references, in text order.

    Raises Spark's ParseException for invalid SQL and ForbiddenStatement for non-queries.
    """
    from pyspark.errors.exceptions.captured import convert_exception
    from py4j.protocol import Py4JJavaError

    try:
        plan = spark._jsparkSession.sessionState().sqlParser().parsePlan(sql)
    except Py4JJavaError as err:
        raise convert_exception(err.java_exception) from None
    walker = _Walker(spark._jvm)
    walker.plan(plan)
    return sorted(walker.references.values(), key=lambda r: r.start)


def rewrite(sql: str, references: list[TableReference], mapper: Callable[[list[str]], str | None]) -> str:
    """Replaces each reference's span by ``mapper(parts)``; None leaves it as written."""
    out = sql
    for ref in sorted(references, key=lambda r: r.start, reverse=True):
        replacement = mapper(list(ref.parts))
        if replacement is not None:
            out = out[: ref.start] + replacement + out[ref.end :]
    return out
