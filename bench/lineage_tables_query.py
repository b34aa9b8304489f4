"""Helper of bench/lineage-tables.ts: fills an org's lineage.run_events with N events over 30 days
(through the lake writer's own export, in commits of --chunk rows, so the files are as many and as
small as a busy export leaves them), then times a 30-day DuckDB query (p50 of --repeat) before and
after the scheduled compaction. Prints one JSON line."""
import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "functions", "lakewriter"))

from lakewriter.catalogs import OrgLake  # noqa: E402
from lakewriter.lineage_tables import NAMESPACE, RUN_EVENTS, lineage_compact, lineage_export  # noqa: E402

ORG = "bench0000-0000-0000-0000-000000000029"
QUERY = """SELECT job_name, count(*) FILTER (WHERE event_type = 'FAIL') / count(*) FILTER (WHERE event_type IN ('COMPLETE', 'FAIL')) AS failure_rate
FROM iceberg_scan('{metadata}') WHERE event_time >= TIMESTAMPTZ '{start}' GROUP BY job_name ORDER BY failure_rate DESC LIMIT 10"""


def rows(first: int, count: int, start: dt.datetime, span_s: float):
    for i in range(first, first + count):
        t = start + dt.timedelta(seconds=span_s * i)
        run = i // 2
        kind = "START" if i % 2 == 0 else ("FAIL" if run % 17 == 0 else "COMPLETE")
        stamp = t.isoformat(timespec="microseconds")
        yield {
            "event_id": f"{i:012d}", "mark": f"{stamp}#{i:012d}", "event_type": kind, "event_time": stamp, "received_at": stamp,
            "event_kind": "RunEvent", "run_id": f"run-{run}", "job_namespace": "bench", "job_name": f"job_{run % 200}",
            "parent_run_id": None, "parent_job_namespace": None, "parent_job_name": None,
            "inputs": [{"namespace": "pg", "name": f"src_{run % 50}", "row_count": None, "bytes": None, "file_count": None}],
            "outputs": [{"namespace": "s3://lake", "name": f"t_{run % 200}", "row_count": 1000 + i % 100, "bytes": 64000, "file_count": 1}],
            "error_message": "boom" if kind == "FAIL" else None, "producer": "https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/spark",
            "integration": "spark", "integration_version": "1.23.0", "schema_url": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
            "event_size_bytes": 900, "event": '{"eventType":"%s"}' % kind,
        }


def p50(metadata: str, start: dt.datetime, repeat: int) -> tuple[float, int]:
    import duckdb

    ext = os.path.join(os.path.dirname(__file__), "..", ".lakeline", "duckdb-extensions")
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False, "allow_unsigned_extensions": True})
    for name in ("avro", "iceberg"):
        con.execute(f"LOAD '{os.path.join(ext, name + '.duckdb_extension')}'")
    sql = QUERY.format(metadata=metadata, start=start.isoformat())
    times, n = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        n = len(con.execute(sql).fetchall())
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    end = dt.datetime(2026, 3, 31, tzinfo=dt.timezone.utc)
    start = end - dt.timedelta(days=30)
    span = 30 * 86400 / args.events
    lake = OrgLake(ORG)
    t0 = time.perf_counter()
    timings = []
    for first in range(0, args.events, args.chunk):
        batch = list(rows(first, min(args.chunk, args.events - first), start, span))
        timings.append(lineage_export({"org_id": ORG, "rows": batch, "mark": batch[-1]["mark"]})["timings_ms"])
    load_s = time.perf_counter() - t0
    # The cost of each table's commit at the start and at the end of the load (the runs rewrite grows with the table).
    ends = {f"{side}_{name}_ms": round(statistics.median(t[name] for t in part)) for side, part in (("first", timings[:5]), ("last", timings[-5:])) for name in ("run_events", "runs")}
    table = lake.load(NAMESPACE, RUN_EVENTS)
    files_before = len(list(table.scan().plan_files()))
    before_ms, answered = p50(table.metadata_location, start, args.repeat)
    t1 = time.perf_counter()
    compacted = lineage_compact({"org_id": ORG, "snapshot_age_hours": 0})
    compact_s = time.perf_counter() - t1
    table = lake.load(NAMESPACE, RUN_EVENTS)
    after_ms, _ = p50(table.metadata_location, start, args.repeat)
    print(json.dumps({
        "events": args.events, "chunk": args.chunk, "load_s": round(load_s, 1), "load_events_per_s": round(args.events / load_s), **ends,
        "files_before": files_before, "files_after": len(list(table.scan().plan_files())), "rows_answered": answered,
        "p50_before_ms": round(before_ms, 1), "p50_after_ms": round(after_ms, 1), "compaction_s": round(compact_s, 1), "compacted": compacted,
    }))


if __name__ == "__main__":
    main()
