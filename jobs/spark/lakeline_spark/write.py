"""Runs the (rewritten) query and lands its rows in the output table.

``overwrite`` (the default) creates or replaces the table with the result — schema included, as
``CREATE OR REPLACE TABLE ... AS SELECT`` would, keeping the table's snapshot history.
``append`` adds the rows, creating the table on first write. Rows written are counted by an
observation on the written DataFrame itself (no second pass over the query); bytes and files
come from the snapshot the write committed.

Every commit carries the run id in its snapshot summary (``lakeline.run-id``): the run service
decides a run's outcome from the catalog (a run is COMPLETE if and only if a snapshot of its run id
exists), so a job killed between its commit and its result document still counts as written, and
a retried write can never be mistaken for the first one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .names import physical_name
from .spec import JobSpec


@dataclass(frozen=True)
class WriteStats:
    """What the write produced."""

    rows_written: int
    bytes_written: int
    files_written: int
    snapshot_id: str | None


def _ensure_namespace(spark: Any, spec: JobSpec) -> None:
    # Glue needs the database before a table can exist in it; the SQL catalog accepts it too.
    namespace = f"`{spec.catalog.name}`.`{spec.catalog.namespace_prefix}{spec.output_namespace}`"
    try:
        spark.sql(f"CREATE NAMESPACE IF NOT EXISTS {namespace}")
    except Exception:
        # IF NOT EXISTS is check-then-create: two runs writing new tables of one new namespace at
        # once both see it missing, and the slower one's create fails (Iceberg's JDBC catalog on
        # SQLite says "PRIMARY KEY constraint failed" on iceberg_namespace_properties; Glue says it
        # already exists). If the namespace exists now, the goal is met; otherwise the error stands.
        if not _namespace_exists(spark, namespace):
            raise


def _namespace_exists(spark: Any, namespace: str) -> bool:
    try:
        spark.sql(f"DESCRIBE NAMESPACE {namespace}")
        return True
    except Exception:  # noqa: BLE001 - any failure to describe it means "not there" here
        return False


def _exists(spark: Any, spec: JobSpec) -> bool:
    name = f"{spec.catalog.name}.{spec.catalog.namespace_prefix}{spec.output_namespace}.{spec.output_table}"
    return bool(spark.catalog.tableExists(name))


#: The snapshot summary property naming the run that committed a snapshot (``domain/runs/commit.ts``).
RUN_ID_PROPERTY = "lakeline.run-id"


def _run_snapshot(spark: Any, target: str, run_id: str) -> tuple[str | None, dict[str, str]]:
    """The snapshot this run committed (found by its run id, not by being the latest: another
    run may have committed to the same table since)."""
    literal = run_id.replace("\\", "\\\\").replace("'", "\\'")
    rows = spark.sql(
        f"SELECT snapshot_id, summary FROM {target}.snapshots WHERE summary['{RUN_ID_PROPERTY}'] = '{literal}' ORDER BY committed_at DESC LIMIT 1"
    ).collect()
    if not rows:
        return None, {}
    return str(rows[0]["snapshot_id"]), dict(rows[0]["summary"] or {})


def run_and_write(spark: Any, spec: JobSpec, sql: str) -> WriteStats:
    """Executes ``sql`` (already pointed at the org's catalog) into the spec's output table."""
    from pyspark.sql import Observation
    from pyspark.sql import functions as F

    target = physical_name(spec.catalog, spec.output_namespace, spec.output_table)
    _ensure_namespace(spark, spec)
    observation = Observation("lakeline_rows_written")
    frame = spark.sql(sql).observe(observation, F.count(F.lit(1)).alias("rows"))
    # Iceberg copies `snapshot-property.*` write options into the commit's snapshot summary.
    writer = frame.writeTo(target).using("iceberg").option(f"snapshot-property.{RUN_ID_PROPERTY}", spec.run_id)
    if spec.mode == "overwrite":
        writer.createOrReplace()
    elif _exists(spark, spec):
        writer.append()
    else:
        writer.create()
    snapshot_id, summary = _run_snapshot(spark, target, spec.run_id)
    return WriteStats(
        rows_written=int(observation.get.get("rows", 0)),
        bytes_written=int(summary.get("added-files-size", 0)),
        files_written=int(summary.get("added-data-files", 0)),
        snapshot_id=snapshot_id,
    )
