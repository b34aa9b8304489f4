"""The Spark session of a run: the org's Iceberg catalog as the default catalog, and nothing else.

Jars are the launcher's business (``--jars`` locally, the EMR release's Iceberg runtime in AWS);
everything that decides what the SQL can reach is set here, from the spec, in both places.
"""
from __future__ import annotations

from typing import Any

from .spec import CatalogSpec

_ICEBERG_EXTENSIONS = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"


def catalog_conf(catalog: CatalogSpec) -> dict[str, str]:
    """Spark settings that register the org's catalog under its internal name and make it the default."""
    key = f"spark.sql.catalog.{catalog.name}"
    conf = {
        key: "org.apache.iceberg.spark.SparkCatalog",
        f"{key}.warehouse": catalog.warehouse,
        # One-part table names resolve in the org's own `default` namespace, never a shared one.
        f"{key}.default-namespace": f"{catalog.namespace_prefix}default",
        "spark.sql.defaultCatalog": catalog.name,
    }
    if catalog.type == "jdbc":
        conf[f"{key}.type"] = "jdbc"
        conf[f"{key}.uri"] = catalog.uri or ""
    else:
        conf[f"{key}.type"] = "glue"
        conf[f"{key}.io-impl"] = "org.apache.iceberg.aws.s3.S3FileIO"
    return conf


#: Settings fixed when the session starts (they do not depend on the run).
SESSION_CONF = {
    "spark.sql.extensions": _ICEBERG_EXTENSIONS,
    # `parquet.`/path`` and friends read files outside any catalog: off.
    "spark.sql.runSQLOnFiles": "false",
    "spark.ui.showConsoleProgress": "false",
}


def open_session(app_name: str, extra: dict[str, str] | None = None) -> Any:
    """Creates (or joins) the session. The catalog comes later, from the spec, which on EMR can
    only be read once the JVM (and with it S3 access) is up."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name)
    for key, value in {**SESSION_CONF, **(extra or {})}.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    return spark


def use_catalog(spark: Any, catalog: CatalogSpec) -> None:
    """Registers the org's catalog and makes it the default. Catalog plugins load on first use,
    so runtime settings are enough."""
    for key, value in catalog_conf(catalog).items():
        spark.conf.set(key, value)
