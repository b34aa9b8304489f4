"""The job specification: what one run asks the job to do, as the run service writes it.

The same document drives the local ``spark-submit`` and EMR Serverless; only the ``catalog`` block
and the URIs differ. It is validated here again (the service already did) because the job is the
last line before the lake and must not trust a malformed file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SPEC_VERSION = 1
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
_CATALOG = re.compile(r"^org_[a-z0-9]{1,64}$")


class SpecError(ValueError):
    """The specification is malformed (the job exits with code 2, without touching the lake)."""


@dataclass(frozen=True)
class CatalogSpec:
    """How to reach the org's Iceberg catalog.

    ``name`` is the Spark catalog name, which must be the org's internal catalog name: Iceberg's
    JdbcCatalog stores it as ``catalog_name``. ``namespace_prefix`` maps a lakeline namespace to
    the catalog's (``org_<id>__`` for Glue databases, empty for the SQL catalog).
    """

    name: str
    type: str
    warehouse: str
    uri: str | None = None
    namespace_prefix: str = ""


@dataclass(frozen=True)
class JobSpec:
    """One run: the SQL, where its result goes, and how."""

    run_id: str
    sql: str
    output_namespace: str
    output_table: str
    mode: str
    catalog: CatalogSpec
    result_uri: str


def _text(doc: dict[str, Any], key: str) -> str:
    value = doc.get(key)
    if not isinstance(value, str) or value == "":
        raise SpecError(f"{key}: must be a non-empty string")
    return value


def _identifier(field: str, value: Any) -> str:
    if not isinstance(value, str) or not _IDENT.match(value):
        raise SpecError(f"{field}: must be an identifier (letters, digits, underscores)")
    return value.lower()


def parse_spec(doc: Any) -> JobSpec:
    """Validates a decoded specification document."""
    if not isinstance(doc, dict):
        raise SpecError("spec: must be a JSON object")
    if doc.get("version") != SPEC_VERSION:
        raise SpecError(f"version: must be {SPEC_VERSION}")
    output = doc.get("output")
    if not isinstance(output, dict):
        raise SpecError("output: must be an object with namespace and table")
    mode = doc.get("mode", "overwrite")
    if mode not in ("overwrite", "append"):
        raise SpecError("mode: must be overwrite or append")
    cat = doc.get("catalog")
    if not isinstance(cat, dict):
        raise SpecError("catalog: must be an object")
    name = _text(cat, "name")
    if not _CATALOG.match(name):
        raise SpecError("catalog.name: must be an org catalog name (org_<id>)")
    kind = _text(cat, "type")
    if kind not in ("jdbc", "glue"):
        raise SpecError("catalog.type: must be jdbc or glue")
    prefix = cat.get("namespace_prefix", "")
    if not isinstance(prefix, str) or (prefix and not _IDENT.match(prefix)):
        raise SpecError("catalog.namespace_prefix: must be empty or an identifier prefix")
    catalog = CatalogSpec(
        name=name,
        type=kind,
        warehouse=_text(cat, "warehouse"),
        uri=cat.get("uri") if kind == "jdbc" else None,
        namespace_prefix=prefix,
    )
    if kind == "jdbc" and not isinstance(catalog.uri, str):
        raise SpecError("catalog.uri: a jdbc catalog needs a JDBC URI")
    return JobSpec(
        run_id=_text(doc, "run_id"),
        sql=_text(doc, "sql"),
        output_namespace=_identifier("output.namespace", output.get("namespace")),
        output_table=_identifier("output.table", output.get("table")),
        mode=mode,
        catalog=catalog,
        result_uri=_text(doc, "result_uri"),
    )
