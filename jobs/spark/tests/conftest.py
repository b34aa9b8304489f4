"""One local Spark session (``local[1]``, small heap) for the whole suite, with the project's
Iceberg and SQLite jars, over a temporary lake whose input tables pyiceberg wrote, exactly as the
lake writer writes them. Spark start-up costs seconds, so every test shares the session."""
from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pytest
from pyiceberg.catalog.sql import SqlCatalog

from lakeline_spark.session import open_session
from lakeline_spark.spec import CatalogSpec

REPO_ROOT = Path(__file__).resolve().parents[3]
JARS = REPO_ROOT / ".lakeline" / "jars"
ORG_A = "org_aaaaaaaa000000000000000000000001"
ORG_B = "org_bbbbbbbb000000000000000000000002"


def _write(catalog: SqlCatalog, namespace: str, table: str, data: pa.Table) -> None:
    catalog.create_namespace_if_not_exists(namespace)
    catalog.create_table((namespace, table), schema=data.schema).append(data)


@pytest.fixture(scope="session")
def home(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lake")
    for org in (ORG_A, ORG_B):
        os.makedirs(root / "warehouse" / org, exist_ok=True)
    a = SqlCatalog(ORG_A, uri=f"sqlite:///{root}/catalog.db", warehouse=f"file://{root}/warehouse/{ORG_A}")
    _write(a, "sales", "orders", pa.table({"id": [1, 2, 3, 4, 5], "customer": ["x", "y", "x", "z", "x"], "amount": [10.0, 20.0, 30.0, 40.0, 50.0]}))
    _write(a, "sales", "customers", pa.table({"customer": ["x", "y", "z"], "region": ["north", "south", "north"]}))
    b = SqlCatalog(ORG_B, uri=f"sqlite:///{root}/catalog.db", warehouse=f"file://{root}/warehouse/{ORG_B}")
    _write(b, "secret", "salaries", pa.table({"who": ["ceo"], "pay": [1_000_000]}))
    return root


@pytest.fixture(scope="session")
def catalog_a(home: Path) -> CatalogSpec:
    return CatalogSpec(name=ORG_A, type="jdbc", uri=f"jdbc:sqlite:{home}/catalog.db", warehouse=f"file://{home}/warehouse/{ORG_A}")


@pytest.fixture(scope="session")
def spark(home: Path, catalog_a: CatalogSpec):
    jars = [JARS / "iceberg-spark-runtime-3.5_2.12-1.12.0.jar", JARS / "sqlite-jdbc-3.54.1.0.jar"]
    missing = [str(j) for j in jars if not j.exists()]
    if missing:
        pytest.fail(f"run `npm run setup` first: missing {missing}")
    session = open_session(
        "lakeline-spark-tests",
        {
            "spark.master": "local[1]",
            "spark.driver.memory": "768m",
            "spark.jars": ",".join(str(j) for j in jars),
            "spark.ui.enabled": "false",
            "spark.sql.shuffle.partitions": "2",
            "spark.sql.warehouse.dir": str(home / "spark-warehouse"),
        },
    )
    yield session
    session.stop()
