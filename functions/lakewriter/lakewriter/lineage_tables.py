"""The lineage lake tables (issue 29, ADR 0056): every stored lineage event as a row of
``lineage.run_events`` and every run as a row of ``lineage.runs``, in each org's own catalog.

``lineage_export`` appends one batch of rows (built by the Node side from stored events,
``functions/domain/lineage-tables/rows.ts``) exactly once:

- the highest feed mark exported so far is kept in the table's own snapshot summary
  (``lakeline.lineage-export-mark``), committed atomically with the rows it covers;
- rows above that mark are appended; rows at or below it (a redelivery after a crash, a replay, an
  event committed late under an earlier receipt time) are appended only if their event id is not in
  the table yet, looked up in the days of event time they fall in;
- a concurrent commit (a replay beside the live feed) makes the commit fail and the batch is
  planned again against the new snapshot.

So a process killed at any point either committed the batch (and its mark) or left only
unreferenced files; the feed then delivers the batch again and nothing is added twice.

``run_events`` is partitioned by ``day(event_time)``. The AWS lake writer has no room for
pyiceberg-core, which pyiceberg needs to partition rows by a transform on append (ADR 0016), so the
rows are grouped by day here and each day's file is appended as a data file whose partition
pyiceberg reads back from the file's statistics (``parquet_file_to_data_file``, as ``add_files`` does).

``runs`` is rewritten for the runs a batch touches (copy-on-write ``overwrite`` filtered by run id):
each row is merged from the run's previous row and the batch's events with merges that are
idempotent (earliest start, latest end, latest terminal state, union of datasets), so redelivered
batches change nothing, and a crash between the two commits is repaired by the redelivery.
"""
from __future__ import annotations

import datetime as dt
import time
import uuid
from collections import defaultdict
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from pyiceberg.exceptions import CommitFailedException
from pyiceberg.expressions import And, GreaterThanOrEqual, In, LessThan
from pyiceberg.io.pyarrow import parquet_file_to_data_file, schema_to_pyarrow
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table import Table
from pyiceberg.transforms import DayTransform
from pyiceberg.types import ListType, LongType, NestedField, StringType, StructType, TimestamptzType

from .catalogs import OrgLake

#: The reserved namespace (never written by users: functions/domain/core/names.ts).
NAMESPACE = "lineage"
RUN_EVENTS = "run_events"
RUNS = "runs"
#: Snapshot summary property: the highest feed mark whose event is in ``run_events``.
MARK_PROPERTY = "lakeline.lineage-export-mark"
class CommandError(ValueError):
    """A request the caller got wrong (the commands module answers it as ``invalid``)."""


#: Commit attempts against concurrent writers before the batch fails (and is delivered again).
COMMIT_ATTEMPTS = 5

TERMINAL = ("COMPLETE", "FAIL", "ABORT")


class _Ids:
    """Field ids handed out in order, so the schemas read top to bottom."""

    def __init__(self) -> None:
        self.next = 0

    def __call__(self) -> int:
        self.next += 1
        return self.next


def _dataset_struct(ids: _Ids, *, statistics: bool) -> StructType:
    fields = [NestedField(ids(), "namespace", StringType(), required=False), NestedField(ids(), "name", StringType(), required=False)]
    if statistics:
        fields += [
            NestedField(ids(), "row_count", LongType(), required=False),
            NestedField(ids(), "bytes", LongType(), required=False),
            NestedField(ids(), "file_count", LongType(), required=False),
        ]
    return StructType(*fields)


def _string(ids: _Ids, name: str) -> NestedField:
    return NestedField(ids(), name, StringType(), required=False)


def _time(ids: _Ids, name: str) -> NestedField:
    return NestedField(ids(), name, TimestamptzType(), required=False)


def _long(ids: _Ids, name: str) -> NestedField:
    return NestedField(ids(), name, LongType(), required=False)


def _datasets(ids: _Ids, name: str, *, statistics: bool = True) -> NestedField:
    element_id = ids()
    return NestedField(ids(), name, ListType(element_id, _dataset_struct(ids, statistics=statistics), element_required=False), required=False)


def run_events_schema() -> Schema:
    """``lineage.run_events``: docs/reference/lineage-tables.md lists the columns."""
    i = _Ids()
    return Schema(
        _string(i, "event_id"),
        _string(i, "event_type"),
        _time(i, "event_time"),
        _time(i, "received_at"),
        _string(i, "event_kind"),
        _string(i, "run_id"),
        _string(i, "job_namespace"),
        _string(i, "job_name"),
        _string(i, "parent_run_id"),
        _string(i, "parent_job_namespace"),
        _string(i, "parent_job_name"),
        _datasets(i, "inputs"),
        _datasets(i, "outputs"),
        _string(i, "error_message"),
        _string(i, "producer"),
        _string(i, "integration"),
        _string(i, "integration_version"),
        _string(i, "schema_url"),
        _long(i, "event_size_bytes"),
        _string(i, "event"),
    )


def runs_schema() -> Schema:
    """``lineage.runs``: one row per run, merged from its events."""
    i = _Ids()
    return Schema(
        _string(i, "run_id"),
        _string(i, "job_namespace"),
        _string(i, "job_name"),
        _string(i, "parent_run_id"),
        _string(i, "parent_job_namespace"),
        _string(i, "parent_job_name"),
        _string(i, "state"),
        _time(i, "started_at"),
        _time(i, "ended_at"),
        _long(i, "duration_ms"),
        _datasets(i, "inputs", statistics=False),
        _datasets(i, "outputs"),
        _string(i, "error_message"),
        _string(i, "integration"),
        _time(i, "last_event_time"),
        _string(i, "last_event_type"),
    )


def _timestamp(text: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(text) if text else None


def _table(lake: OrgLake, name: str) -> Table:
    lake.ensure_namespace(NAMESPACE)
    if lake.exists(NAMESPACE, name):
        return lake.load(NAMESPACE, name)
    if name == RUN_EVENTS:
        schema = run_events_schema()
        spec = PartitionSpec(PartitionField(source_id=schema.find_field("event_time").field_id, field_id=1000, transform=DayTransform(), name="event_time_day"))
        return lake.catalog.create_table(lake.identifier(NAMESPACE, name), schema=schema, partition_spec=spec)
    return lake.catalog.create_table(lake.identifier(NAMESPACE, name), schema=runs_schema())


def exported_mark(table: Table) -> str:
    """The highest mark committed to ``table`` (``''`` when none): the newest snapshot carrying it."""
    snapshot = table.current_snapshot()
    while snapshot is not None:
        mark = snapshot.summary.get(MARK_PROPERTY) if snapshot.summary else None
        if mark:
            return mark
        snapshot = table.snapshot_by_id(snapshot.parent_snapshot_id) if snapshot.parent_snapshot_id is not None else None
    return ""


def _present_ids(table: Table, rows: list[dict[str, Any]]) -> set[str]:
    """Which of the rows' event ids ``run_events`` already holds (read in their days only)."""
    if not rows or table.current_snapshot() is None:
        return set()
    times = [_timestamp(r["event_time"]) for r in rows]
    low = min(times).replace(hour=0, minute=0, second=0, microsecond=0)
    high = max(times).replace(hour=0, minute=0, second=0, microsecond=0) + dt.timedelta(days=1)
    row_filter = And(
        In("event_id", {r["event_id"] for r in rows}),
        And(GreaterThanOrEqual("event_time", low.isoformat()), LessThan("event_time", high.isoformat())),
    )
    found = table.scan(row_filter=row_filter, selected_fields=("event_id",)).to_arrow()
    return set(found.column("event_id").to_pylist())


def _arrow_rows(table: Table, rows: list[dict[str, Any]], time_columns: tuple[str, ...]) -> pa.Table:
    # Field ids in the files: readers that resolve columns by id (polars, Spark) need them.
    schema = schema_to_pyarrow(table.schema(), include_field_ids=True)
    converted = [{**r, **{c: _timestamp(r.get(c)) for c in time_columns}} for r in rows]
    return pa.Table.from_pylist(converted, schema=schema)


def _write_day_files(table: Table, data: pa.Table) -> list[str]:
    """One Parquet file per day of event time under the table's data directory."""
    days: dict[dt.date, list[int]] = defaultdict(list)
    for index, value in enumerate(data.column("event_time").to_pylist()):
        days[value.astimezone(dt.timezone.utc).date()].append(index)
    paths = []
    for day, indices in sorted(days.items()):
        path = f"{table.location()}/data/event_time_day={day.isoformat()}/{uuid.uuid4()}.parquet"
        with table.io.new_output(path).create() as stream:
            pq.write_table(data.take(indices), stream)
        paths.append(path)
    return paths


def _append_events(table: Table, rows: list[dict[str, Any]], mark: str) -> tuple[int, str]:
    """Appends the rows not yet in the table and moves the mark; returns (rows appended, mark)."""
    high = exported_mark(table)
    fresh = [r for r in rows if r["mark"] > high]
    seen = [r for r in rows if r["mark"] <= high]
    present = _present_ids(table, seen)
    unique: dict[str, dict[str, Any]] = {}
    for r in fresh + [r for r in seen if r["event_id"] not in present]:
        unique.setdefault(r["event_id"], r)
    if not unique:
        # Only rows the table holds (every fresh row is appended): nothing to commit, the mark stands.
        return 0, high
    new_mark = max(mark, high)
    columns = [f.name for f in table.schema().fields]
    data = _arrow_rows(table, [{c: r.get(c) for c in columns} for r in unique.values()], ("event_time", "received_at"))
    tx = table.transaction()
    with tx.update_snapshot(snapshot_properties={MARK_PROPERTY: new_mark}).fast_append() as append:
        for path in _write_day_files(table, data):
            # The partition (the day) is read back from the file's statistics: no transform is computed here.
            append.append_data_file(parquet_file_to_data_file(table.io, table.metadata, path))
    tx.commit_transaction()
    return data.num_rows, new_mark


def _merge_datasets(old: list[dict[str, Any]] | None, new: list[dict[str, Any]] | None, new_wins: bool = True) -> list[dict[str, Any]]:
    """Union by (namespace, name). Statistics the new report gives replace the old ones when
    ``new_wins`` (a terminal event's, or any before the run ended); otherwise they only fill gaps,
    so a late RUNNING cannot undo the COMPLETE's figures."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for d in old or []:
        merged[(d.get("namespace"), d.get("name"))] = dict(d)
    for d in new or []:
        key = (d.get("namespace"), d.get("name"))
        prior = merged.get(key, {})
        merged[key] = {**prior, **{k: v for k, v in d.items() if k not in prior or (v is not None and (new_wins or prior[k] is None))}}
    return [merged[k] for k in sorted(merged, key=lambda k: (k[0] or "", k[1] or ""))]


def _merge_run(run: dict[str, Any] | None, event: dict[str, Any]) -> dict[str, Any]:
    """One run's row after one more of its events. Every step is idempotent and order-free."""
    r = dict(run or {"run_id": event["run_id"]})
    t = _timestamp(event["event_time"])
    kind = event["event_type"]
    for key in ("job_namespace", "job_name", "parent_run_id", "parent_job_namespace", "parent_job_name", "integration"):
        if r.get(key) is None and event.get(key) is not None:
            r[key] = event[key]
    r["started_at"] = t if r.get("started_at") is None else min(r["started_at"], t)
    if r.get("last_event_time") is None or (t, kind) > (r["last_event_time"], r.get("last_event_type") or ""):
        r["last_event_time"], r["last_event_type"] = t, kind
    if kind in TERMINAL and (r.get("ended_at") is None or t >= r["ended_at"]):
        r["ended_at"], r["state"] = t, kind
    if r.get("state") not in TERMINAL:
        r["state"] = r["last_event_type"]
    if event.get("error_message"):
        r["error_message"] = event["error_message"]
    r["inputs"] = _merge_datasets(r.get("inputs"), [{"namespace": d["namespace"], "name": d["name"]} for d in event.get("inputs") or []])
    # The statistics of the run's last terminal event stand (order-free: a late non-terminal event only fills gaps).
    wins = r.get("ended_at") is None or (kind in TERMINAL and t >= r["ended_at"])
    r["outputs"] = _merge_datasets(r.get("outputs"), event.get("outputs"), wins)
    r["duration_ms"] = int((r["ended_at"] - r["started_at"]).total_seconds() * 1000) if r.get("ended_at") and r.get("started_at") else None
    return r


def _upsert_runs(table: Table, rows: list[dict[str, Any]]) -> int:
    """Rewrites the rows of the runs the batch names (idempotent merges; retried on a conflict)."""
    events = sorted((r for r in rows if r.get("run_id")), key=lambda r: (r["event_time"], r["event_type"]))
    ids = sorted({r["run_id"] for r in events})
    if not ids:
        return 0
    previous: dict[str, dict[str, Any]] = {}
    if table.current_snapshot() is not None:
        for row in table.scan(row_filter=In("run_id", set(ids))).to_arrow().to_pylist():
            previous[row["run_id"]] = row
    merged = dict(previous)
    for event in events:
        merged[event["run_id"]] = _merge_run(merged.get(event["run_id"]), event)
    changed = [m for k, m in merged.items() if k in ids and m != previous.get(k)]
    if not changed:
        return 0
    columns = [f.name for f in table.schema().fields]
    data = pa.Table.from_pylist([{c: m.get(c) for c in columns} for m in changed], schema=schema_to_pyarrow(table.schema(), include_field_ids=False))
    if table.current_snapshot() is None:
        table.append(data)
    else:
        table.overwrite(data, overwrite_filter=In("run_id", {m["run_id"] for m in changed}))
    return len(changed)


def _with_retries(lake: OrgLake, name: str, action):
    for attempt in range(COMMIT_ATTEMPTS):
        try:
            return action(_table(lake, name))
        except CommitFailedException:
            if attempt == COMMIT_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def lineage_export(request: dict[str, Any]) -> dict[str, Any]:
    """Appends one batch of ``run_events`` rows exactly once, then merges the runs they name."""
    rows = request.get("rows")
    mark = request.get("mark")
    if not isinstance(rows, list) or not isinstance(mark, str) or not mark:
        raise CommandError("rows and mark: a list of rows and the batch's highest feed mark are required")
    lake = OrgLake(request["org_id"])
    started = time.perf_counter()
    appended, new_mark = _with_retries(lake, RUN_EVENTS, lambda t: _append_events(t, rows, mark))
    exported = time.perf_counter()
    runs = _with_retries(lake, RUNS, lambda t: _upsert_runs(t, rows))
    timings = {"run_events": round((exported - started) * 1000), "runs": round((time.perf_counter() - exported) * 1000)}
    return {"appended": appended, "runs_written": runs, "mark": new_mark, "timings_ms": timings}


def lineage_mark(request: dict[str, Any]) -> dict[str, Any]:
    """The mark ``run_events`` was exported up to (``''``: never)."""
    lake = OrgLake(request["org_id"])
    if not lake.exists(NAMESPACE, RUN_EVENTS):
        return {"mark": ""}
    return {"mark": exported_mark(lake.load(NAMESPACE, RUN_EVENTS))}


def lineage_drop(request: dict[str, Any]) -> dict[str, Any]:
    """Drops (and purges) both tables of an org: its deletion, or a rebuild."""
    lake = OrgLake(request["org_id"])
    dropped = []
    for name in (RUN_EVENTS, RUNS):
        if lake.exists(NAMESPACE, name):
            lake.catalog.purge_table(lake.identifier(NAMESPACE, name))
            dropped.append(name)
    return {"dropped": dropped}



def _compact_day(table: Table, files: list[Any]) -> int:
    """Rewrites one day's files as one, in a snapshot that carries the export mark forward."""
    parts = []
    for data_file in files:
        with table.io.new_input(data_file.file_path).open() as stream:
            parts.append(pq.read_table(stream))
    schema = schema_to_pyarrow(table.schema(), include_field_ids=True)
    data = pa.concat_tables([p.cast(schema) for p in parts])
    [path] = _write_day_files(table, data)
    tx = table.transaction()
    with tx.update_snapshot(snapshot_properties={MARK_PROPERTY: exported_mark(table), "lakeline.compaction": "true"}).overwrite() as rewrite:
        for data_file in files:
            rewrite.delete_data_file(data_file)
        rewrite.append_data_file(parquet_file_to_data_file(table.io, table.metadata, path))
    tx.commit_transaction()
    return len(files)


def _compact_run_events(lake: OrgLake, min_files: int) -> dict[str, int]:
    """Every day of run_events with at least ``min_files`` files becomes one file (a commit per day,
    each retried against a concurrent export, which only adds files and so never loses a row)."""
    days, rewritten = 0, 0
    table = _table(lake, RUN_EVENTS)
    if table.current_snapshot() is None:
        return {"days": 0, "files_rewritten": 0}
    by_day: dict[Any, list[Any]] = defaultdict(list)
    for task in table.scan().plan_files():
        by_day[task.file.partition[0]].append(task.file)
    for day, files in sorted(by_day.items()):
        if len(files) < min_files:
            continue
        for attempt in range(COMMIT_ATTEMPTS):
            try:
                rewritten += _compact_day(table, files)
                days += 1
                break
            except CommitFailedException:
                if attempt == COMMIT_ATTEMPTS - 1:
                    raise
                table = table.refresh()
                files = [t.file for t in table.scan().plan_files() if t.file.partition[0] == day]
    return {"days": days, "files_rewritten": rewritten}


def _expire_snapshots(table: Table, older_than: dt.datetime) -> int:
    """Drops snapshots older than ``older_than`` (never the current one, which holds the mark)."""
    current = table.current_snapshot()
    old = [s.snapshot_id for s in table.snapshots() if s.timestamp_ms < older_than.timestamp() * 1000 and (current is None or s.snapshot_id != current.snapshot_id)]
    if old:
        table.maintenance.expire_snapshots().by_ids(old).commit()
    return len(old)


def lineage_compact(request: dict[str, Any]) -> dict[str, Any]:
    """The scheduled maintenance: compacts run_events by day and runs into few files, then expires
    snapshots older than ``snapshot_age_hours`` (default 24) of both tables."""
    lake = OrgLake(request["org_id"])
    if not lake.exists(NAMESPACE, RUN_EVENTS):
        return {"days": 0, "files_rewritten": 0, "runs_rewritten": False, "snapshots_expired": 0}
    min_files = int(request.get("min_files", 2))
    if min_files < 2:
        raise CommandError("min_files: must be at least 2")
    compacted = _compact_run_events(lake, min_files)
    runs_rewritten = False
    if lake.exists(NAMESPACE, RUNS):
        runs = lake.load(NAMESPACE, RUNS)
        if runs.current_snapshot() is not None and len(list(runs.scan().plan_files())) >= min_files:
            _with_retries(lake, RUNS, lambda t: t.overwrite(t.scan().to_arrow()))
            runs_rewritten = True
    cutoff = dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=float(request.get("snapshot_age_hours", 24)))
    expired = sum(_expire_snapshots(lake.load(NAMESPACE, name), cutoff) for name in (RUN_EVENTS, RUNS) if lake.exists(NAMESPACE, name))
    return {**compacted, "runs_rewritten": runs_rewritten, "snapshots_expired": expired}


def lineage_expire(request: dict[str, Any]) -> dict[str, Any]:
    """Retention: deletes the rows of events before ``before`` (a day, ``YYYY-MM-DD``; whole day
    partitions, so no file is rewritten) and the runs whose last event is before it."""
    before = dt.datetime.combine(dt.date.fromisoformat(request["before"]), dt.time(), dt.timezone.utc)
    lake = OrgLake(request["org_id"])
    if not lake.exists(NAMESPACE, RUN_EVENTS):
        return {"before": before.date().isoformat()}

    def expire_events(t: Table) -> None:
        t.delete(delete_filter=LessThan("event_time", before.isoformat()), snapshot_properties={MARK_PROPERTY: exported_mark(t)})

    _with_retries(lake, RUN_EVENTS, expire_events)
    if lake.exists(NAMESPACE, RUNS):
        _with_retries(lake, RUNS, lambda t: t.delete(delete_filter=LessThan("last_event_time", before.isoformat())))
    return {"before": before.date().isoformat()}
