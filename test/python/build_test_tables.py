"""Builds Iceberg tables that exercise an engine's reader, with pyiceberg, for the HTTP tests.

Run with the project venv and the lake writer on the path (the HTTP tests do this through
``test/helpers/test-tables.ts``)::

    LAKELINE_HOME=<stack home> PYTHONPATH=functions/lakewriter \\
        .lakeline/venv/bin/python test/python/build_test_tables.py <org id> <namespace> <case> [<case> ...]

Each case writes one table named after it into ``<namespace>`` of the org's catalog (the same
catalog the stack reads, opened through the lake writer's ``OrgLake``) and prints one JSON object
``{case: {"table": ..., "expected": [...rows...]}}`` with the rows a correct reader returns, ordered
by ``id``. Every write goes through pyiceberg; the delete-file cases use pyiceberg's own manifest
writer to add a delete manifest, because pyiceberg's public API only deletes copy-on-write.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sys
import uuid
from typing import Any, Callable

import pyarrow as pa
import pyarrow.parquet as pq
from pyiceberg.conversions import to_bytes
from pyiceberg.manifest import DataFile, DataFileContent, FileFormat, ManifestContent, ManifestWriterV2
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table import Table
from pyiceberg.table.update.snapshot import _FastAppendFiles
from pyiceberg.transforms import DayTransform, IdentityTransform
from pyiceberg.types import DateType, DoubleType, LongType, NestedField, StringType, TimestamptzType

from lakewriter.catalogs import OrgLake


def _fresh(lake: OrgLake, namespace: str, name: str, schema: Schema, spec: PartitionSpec | None = None) -> Table:
    """Drops any previous table of that name, so a case always starts from nothing."""
    lake.ensure_namespace(namespace)
    ident = lake.identifier(namespace, name)
    if lake.catalog.table_exists(ident):
        location = lake.catalog.load_table(ident).location()
        lake.catalog.drop_table(ident)
        # A dropped table's files stay behind; a new table at the same location must not see them.
        if location.startswith("file://"):
            shutil.rmtree(location.removeprefix("file://"), ignore_errors=True)
    kwargs: dict[str, Any] = {"schema": schema, "properties": {"format-version": "2"}}
    if spec is not None:
        kwargs["partition_spec"] = spec
    return lake.catalog.create_table(ident, **kwargs)


def _rows(table: pa.Table, columns: list[str]) -> list[list[Any]]:
    """Rows as JSON-friendly lists (dates and timestamps as ISO strings), sorted by the first column."""

    def cell(v: Any) -> Any:
        if isinstance(v, dt.datetime):
            return v.isoformat()
        if isinstance(v, dt.date):
            return v.isoformat()
        return v

    out = [[cell(r[c]) for c in columns] for r in table.select(columns).to_pylist()]
    return sorted(out, key=lambda r: r[0])


def partitioned(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """Identity partitions on a string and a date, then partition evolution (a second field added
    after data was written), so files of two partition specs sit in many partition directories."""
    schema = Schema(
        NestedField(1, "id", LongType(), required=False),
        NestedField(2, "region", StringType(), required=False),
        NestedField(3, "day", DateType(), required=False),
        NestedField(4, "amount", DoubleType(), required=False),
    )
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(), name="region"))
    tbl = _fresh(lake, namespace, "partitioned", schema, spec)
    base = dt.date(2024, 3, 1)

    def batch(ids: range) -> pa.Table:
        return pa.table(
            {
                "id": pa.array(list(ids), pa.int64()),
                "region": pa.array([("eu", "us", "apac")[i % 3] for i in ids], pa.string()),
                "day": pa.array([base + dt.timedelta(days=i % 5) for i in ids], pa.date32()),
                "amount": pa.array([i * 1.5 for i in ids], pa.float64()),
            }
        )

    first, second = batch(range(1, 21)), batch(range(21, 41))
    tbl.append(first)
    with tbl.update_spec() as update:
        update.add_identity("day")
    tbl = tbl.refresh()
    tbl.append(second)
    data = pa.concat_tables([first, second])
    return {"table": "partitioned", "columns": ["id", "region", "day", "amount"], "expected": _rows(data, ["id", "region", "day", "amount"])}


def evolved(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """Schema evolution: a column renamed and one added after data was written; old files keep the old names."""
    schema = Schema(
        NestedField(1, "id", LongType(), required=False),
        NestedField(2, "name", StringType(), required=False),
        NestedField(3, "score", LongType(), required=False),
    )
    tbl = _fresh(lake, namespace, "evolved", schema)
    tbl.append(pa.table({"id": pa.array([1, 2], pa.int64()), "name": ["ann", "bob"], "score": pa.array([10, 20], pa.int64())}))
    with tbl.update_schema() as update:
        update.rename_column("name", "full_name")
        update.add_column("joined", DateType())
    tbl = tbl.refresh()
    tbl.append(
        pa.table(
            {
                "id": pa.array([3], pa.int64()),
                "full_name": ["cy"],
                "score": pa.array([30], pa.int64()),
                "joined": pa.array([dt.date(2024, 1, 31)], pa.date32()),
            }
        )
    )
    expected = [[1, "ann", 10, None], [2, "bob", 20, None], [3, "cy", 30, "2024-01-31"]]
    return {"table": "evolved", "columns": ["id", "full_name", "score", "joined"], "expected": expected}


def snapshots(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """Several snapshots: append, overwrite, append. Only the current one must be read."""
    schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "v", StringType(), required=False))
    tbl = _fresh(lake, namespace, "snapshots", schema)
    tbl.append(pa.table({"id": pa.array([1, 2], pa.int64()), "v": ["old1", "old2"]}))
    tbl.overwrite(pa.table({"id": pa.array([10, 11], pa.int64()), "v": ["new10", "new11"]}))
    tbl.append(pa.table({"id": pa.array([12], pa.int64()), "v": ["new12"]}))
    expected = [[10, "new10"], [11, "new11"], [12, "new12"]]
    return {"table": "snapshots", "columns": ["id", "v"], "expected": expected, "snapshot_count": len(tbl.refresh().snapshots())}


class _DeleteManifestWriter(ManifestWriterV2):
    """pyiceberg's v2 manifest writer, marked as a delete manifest."""

    def content(self) -> ManifestContent:
        return ManifestContent.DELETES

    @property
    def _meta(self) -> dict[str, str]:
        return {**super()._meta, "content": "deletes"}


class _AddDeleteFiles(_FastAppendFiles):
    """A fast append whose new manifest is a delete manifest (pyiceberg commits it as usual)."""

    def new_manifest_writer(self, spec: PartitionSpec) -> ManifestWriterV2:  # type: ignore[override]
        return _DeleteManifestWriter(spec, self.schema(), self.new_manifest_output(), self._snapshot_id, self._compression)


def _commit_delete_file(tbl: Table, data_file: DataFile) -> None:
    with tbl.transaction() as tx:
        producer = _AddDeleteFiles(operation=tx.update_snapshot().fast_append()._operation, transaction=tx, io=tbl.io)
        producer.append_data_file(data_file)
        producer.commit()


def _base_for_deletes(lake: OrgLake, namespace: str, name: str) -> tuple[Table, str]:
    schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "v", StringType(), required=False))
    tbl = _fresh(lake, namespace, name, schema)
    tbl.append(pa.table({"id": pa.array([1, 2, 3, 4, 5], pa.int64()), "v": ["a", "b", "c", "d", "e"]}))
    tbl = tbl.refresh()
    [task] = list(tbl.scan().plan_files())
    return tbl, task.file.file_path


def position_deletes(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """A v2 positional delete file removing rows 1 and 3 (ids 2 and 4) of the only data file."""
    tbl, data_path = _base_for_deletes(lake, namespace, "position_deletes")
    deletes = pa.table({"file_path": pa.array([data_path, data_path], pa.string()), "pos": pa.array([1, 3], pa.int64())})
    path = f"{tbl.location()}/data/pos-deletes-{uuid.uuid4()}.parquet"
    local = path.removeprefix("file://")
    pq.write_table(deletes, local)
    data_file = DataFile.from_args(
        content=DataFileContent.POSITION_DELETES,
        file_path=path,
        file_format=FileFormat.PARQUET,
        partition={},
        record_count=2,
        file_size_in_bytes=len(open(local, "rb").read()),
    )
    data_file.spec_id = 0
    _commit_delete_file(tbl, data_file)
    return {"table": "position_deletes", "columns": ["id", "v"], "expected": [[1, "a"], [3, "c"], [5, "e"]]}


def equality_deletes(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """A v2 equality delete file on column `id` (field 1) removing ids 1 and 5."""
    tbl, _ = _base_for_deletes(lake, namespace, "equality_deletes")
    # Delete files are read by field id, like data files: the column carries id 1 (`id`).
    id_field = pa.field("id", pa.int64(), metadata={b"PARQUET:field_id": b"1"})
    deletes = pa.table({"id": pa.array([1, 5], pa.int64())}, schema=pa.schema([id_field]))
    path = f"{tbl.location()}/data/eq-deletes-{uuid.uuid4()}.parquet"
    local = path.removeprefix("file://")
    pq.write_table(deletes, local)
    data_file = DataFile.from_args(
        content=DataFileContent.EQUALITY_DELETES,
        file_path=path,
        file_format=FileFormat.PARQUET,
        partition={},
        record_count=2,
        file_size_in_bytes=len(open(local, "rb").read()),
        equality_ids=[1],
        value_counts={1: 2},
        null_value_counts={1: 0},
        lower_bounds={1: to_bytes(LongType(), 1)},
        upper_bounds={1: to_bytes(LongType(), 5)},
    )
    data_file.spec_id = 0
    _commit_delete_file(tbl, data_file)
    return {"table": "equality_deletes", "columns": ["id", "v"], "expected": [[2, "b"], [3, "c"], [4, "d"]]}


def counter(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """A one-row table whose value the tests change between calls (`bump` overwrites it)."""
    schema = Schema(NestedField(1, "n", LongType(), required=False))
    tbl = _fresh(lake, namespace, "counter", schema)
    tbl.append(pa.table({"n": pa.array([1], pa.int64())}))
    return {"table": "counter", "columns": ["n"], "expected": [[1]]}


def bump(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """Overwrites `counter` with its value plus one (a new snapshot)."""
    tbl = lake.load(namespace, "counter")
    [value] = tbl.scan().to_arrow()["n"].to_pylist()
    tbl.overwrite(pa.table({"n": pa.array([value + 1], pa.int64())}))
    return {"table": "counter", "columns": ["n"], "expected": [[value + 1]]}


def by_day(lake: OrgLake, namespace: str) -> dict[str, Any]:
    """Partitioned by day(ts) of a timestamptz column: 48 rows, one every 3 hours from
    2024-03-01T00:00Z, so six days with eight rows (and one data file) each."""
    schema = Schema(
        NestedField(1, "id", LongType(), required=False),
        NestedField(2, "ts", TimestamptzType(), required=False),
    )
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=DayTransform(), name="ts_day"))
    tbl = _fresh(lake, namespace, "by_day", schema, spec)
    start = dt.datetime(2024, 3, 1, tzinfo=dt.timezone.utc)
    data = pa.table(
        {
            "id": pa.array(list(range(48)), pa.int64()),
            "ts": pa.array([start + dt.timedelta(hours=3 * i) for i in range(48)], pa.timestamp("us", tz="UTC")),
        }
    )
    # One Parquet file per day, added as it is: append() would need pyiceberg-core (Rust) for the
    # day transform over arrays, while add_files derives each file's day from its statistics.
    location = tbl.location().removeprefix("file://")
    os.makedirs(f"{location}/data", exist_ok=True)
    paths = []
    for day in range(6):
        path = f"{location}/data/day-{day}.parquet"
        pq.write_table(data.slice(day * 8, 8), path)
        paths.append(path)
    tbl.add_files(paths)
    return {"table": "by_day", "columns": ["id", "ts"], "expected": _rows(data, ["id", "ts"])}


CASES: dict[str, Callable[[OrgLake, str], dict[str, Any]]] = {
    "partitioned": partitioned,
    "by_day": by_day,
    "evolved": evolved,
    "snapshots": snapshots,
    "position_deletes": position_deletes,
    "equality_deletes": equality_deletes,
    "counter": counter,
    "bump": bump,
}


def main(argv: list[str]) -> int:
    if len(argv) < 3 or any(c not in CASES for c in argv[2:]):
        print(f"usage: build_test_tables.py <org id> <namespace> <{'|'.join(CASES)}>...", file=sys.stderr)
        return 2
    org_id, namespace, *cases = argv
    lake = OrgLake(org_id)
    json.dump({case: CASES[case](lake, namespace) for case in cases}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
