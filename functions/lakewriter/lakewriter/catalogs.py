"""Opens an organization's part of the lake.

Local profile: an Iceberg SQL catalog in SQLite (the JDBC-catalog layout that pyiceberg's
SqlCatalog and Iceberg's Java JdbcCatalog share). Each organization is its own catalog *name*
inside the one SQLite file (``org_<id>``) with its own warehouse directory, so one org can never
list, read or write another's tables, and the files of different orgs never share a directory.

AWS profile: the Glue catalog, where there is one namespace space per account; an org's
namespaces are Glue databases named ``org_<id>__<namespace>`` and its data sits under the org's
own S3 prefix. User SQL never sees either name: it says ``lakeline.<namespace>.<table>``.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from pyiceberg.catalog import Catalog
from pyiceberg.table import Table

_ORG_ID = re.compile(r"^[A-Za-z0-9-]{1,64}$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


def catalog_name_for_org(org_id: str) -> str:
    """The catalog name of an org: stable, and never visible in user SQL."""
    if not _ORG_ID.match(org_id):
        raise ValueError(f"invalid organization id {org_id!r}")
    return "org_" + org_id.replace("-", "").lower()


def check_identifier(kind: str, value: str) -> str:
    """Namespaces and tables are plain identifiers, so they are safe in paths and SQL."""
    if not _IDENT.match(value):
        raise ValueError(f"{kind}: {value!r} must be letters, digits and underscores, starting with a letter")
    return value


def s3_endpoint_of(environ: Mapping[str, str]) -> str | None:
    """The S3 endpoint configured by the AWS SDKs' standard variables (``AWS_ENDPOINT_URL_S3``, else
    ``AWS_ENDPOINT_URL``), or None: unset in AWS, where every client uses the region's endpoint.

    boto3 (the Glue client) reads these variables itself; pyarrow's S3 file system, which pyiceberg
    writes table files with, does not, so the catalog is given the endpoint as its ``s3.endpoint``.
    """
    return environ.get("AWS_ENDPOINT_URL_S3") or environ.get("AWS_ENDPOINT_URL") or None


@dataclass(frozen=True)
class LakeConfig:
    """Where the lake lives, read from the environment."""

    profile: str
    catalog_uri: str | None
    warehouse: str
    #: AWS: an S3 endpoint other than the region's (an emulator); None in a deployment.
    s3_endpoint: str | None = None

    @staticmethod
    def from_env() -> "LakeConfig":
        profile = os.environ.get("LAKELINE_PROFILE", "local")
        if profile == "aws":
            return LakeConfig(profile, None, os.environ["LAKELINE_WAREHOUSE_URI"], s3_endpoint_of(os.environ))
        home = os.path.abspath(os.environ.get("LAKELINE_HOME", ".lakeline"))
        return LakeConfig(
            profile,
            # pysqlite waits up to `timeout` seconds for a lock held by another writer (Spark, another
            # writer process) instead of failing at once with "database is locked".
            os.environ.get("LAKELINE_CATALOG_URI", f"sqlite:///{home}/catalog.db?timeout=30"),
            os.environ.get("LAKELINE_WAREHOUSE", f"{home}/warehouse"),
        )


class OrgLake:
    """One organization's namespaces and tables, whatever the catalog behind them."""

    def __init__(self, org_id: str, config: LakeConfig | None = None) -> None:
        self.config = config or LakeConfig.from_env()
        self.name = catalog_name_for_org(org_id)
        self.catalog = self._open()

    def _open(self) -> Catalog:
        if self.config.profile == "aws":
            from pyiceberg.catalog.glue import GlueCatalog

            return GlueCatalog(self.name, warehouse=f"{self.config.warehouse.rstrip('/')}/{self.name}", **self._s3_properties())
        from pyiceberg.catalog.sql import SqlCatalog

        warehouse = os.path.join(self.config.warehouse, self.name)
        os.makedirs(warehouse, exist_ok=True)
        return SqlCatalog(self.name, uri=self.config.catalog_uri, warehouse=f"file://{warehouse}")

    def _s3_properties(self) -> dict[str, str]:
        """FileIO settings of the Glue catalog. The warehouse bucket is in the function's own region,
        so pyiceberg is told it rather than asking S3 for the bucket's region on every open."""
        region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
        return {
            **({"s3.region": region} if region else {}),
            **({"s3.endpoint": self.config.s3_endpoint} if self.config.s3_endpoint else {}),
        }

    def catalog_namespace(self, namespace: str) -> str:
        """The namespace as the catalog stores it."""
        check_identifier("namespace", namespace)
        return f"{self.name}__{namespace}" if self.config.profile == "aws" else namespace

    def identifier(self, namespace: str, table: str) -> tuple[str, str]:
        return (self.catalog_namespace(namespace), check_identifier("table", table))

    def ensure_namespace(self, namespace: str) -> None:
        self.catalog.create_namespace_if_not_exists(self.catalog_namespace(namespace))

    def load(self, namespace: str, table: str) -> Table:
        return self.catalog.load_table(self.identifier(namespace, table))

    def exists(self, namespace: str, table: str) -> bool:
        return self.catalog.table_exists(self.identifier(namespace, table))
