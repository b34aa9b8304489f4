"""Lake names: user SQL says ``lakeline.<namespace>.<table>`` (or ``<namespace>.<table>``); the
catalog knows the table as ``<org catalog>.<prefix><namespace>.<table>``. This module maps one way
for the query and the other way for error text, so the org's internal names never reach a caller.
"""
from __future__ import annotations

import re

from .spec import CatalogSpec

#: The catalog name every org uses in SQL for its own lake.
LAKELINE_CATALOG = "lakeline"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


class ForbiddenReference(ValueError):
    """The SQL names something outside the org's lake (another catalog, a path, a bad name)."""


def _quote(part: str) -> str:
    # Every part is a checked identifier, so backticks cannot occur inside it.
    return f"`{part}`"


def physical_name(catalog: CatalogSpec, namespace: str, table: str) -> str:
    """The quoted identifier Spark resolves for ``lakeline.<namespace>.<table>``.

    Names are folded to lower case: Spark resolves identifiers case-insensitively, Glue stores
    them lower-cased, and the SQL catalog compares them exactly, so one case must be chosen.
    """
    for kind, value in (("namespace", namespace), ("table", table)):
        if not _IDENT.match(value):
            raise ForbiddenReference(f"{kind} '{value}' must be letters, digits and underscores")
    return ".".join(_quote(p) for p in (catalog.name, catalog.namespace_prefix + namespace.lower(), table.lower()))


def map_reference(catalog: CatalogSpec, parts: list[str]) -> str | None:
    """Maps one table reference of user SQL to its physical name.

    Returns None for a one-part name (a CTE, or a table of the org's ``default`` namespace, which
    the catalog's ``default-namespace`` already scopes to the org).
    """
    if len(parts) == 1:
        return None
    if len(parts) == 2:
        return physical_name(catalog, parts[0], parts[1])
    if len(parts) == 3 and parts[0].lower() == LAKELINE_CATALOG:
        return physical_name(catalog, parts[1], parts[2])
    shown = ".".join(parts)
    raise ForbiddenReference(
        f"table '{shown}' is not in the lakeline catalog; use {LAKELINE_CATALOG}.<namespace>.<table> or <namespace>.<table>"
    )


def logical_text(catalog: CatalogSpec, text: str) -> str:
    """Rewrites internal names in engine messages back to the names the caller used."""
    if catalog.namespace_prefix:
        text = re.sub(re.escape(catalog.namespace_prefix), "", text, flags=re.IGNORECASE)
    return re.sub(re.escape(catalog.name), LAKELINE_CATALOG, text, flags=re.IGNORECASE)
