"""The lineage lake tables' export: exactly once, partitioned by day, runs merged (a real SQLite catalog)."""
import pytest

from lakewriter.catalogs import OrgLake
from lakewriter.commands import run
from lakewriter.lineage_tables import MARK_PROPERTY

ORG_A = "aaaaaaaa-0000-0000-0000-000000000001"
ORG_B = "bbbbbbbb-0000-0000-0000-000000000002"
RUN = "0190f1a2-0000-7000-8000-000000000001"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("LAKELINE_PROFILE", "local")
    monkeypatch.setenv("LAKELINE_HOME", str(tmp_path))
    return tmp_path


def row(n: int, event_type: str = "START", day: int = 1, run_id: str = RUN, **extra) -> dict:
    received = f"2026-03-0{day}T10:00:{n:02d}.000000+00:00"
    return {
        "event_id": f"e{n:04d}",
        "mark": f"{received}#e{n:04d}",
        "event_type": event_type,
        "event_time": f"2026-03-0{day}T09:00:{n:02d}.000000+00:00",
        "received_at": received,
        "event_kind": "RunEvent",
        "run_id": run_id,
        "job_namespace": "ns",
        "job_name": "daily_orders",
        "parent_run_id": None,
        "parent_job_namespace": None,
        "parent_job_name": None,
        "inputs": [{"namespace": "pg", "name": "public.orders", "row_count": None, "bytes": None, "file_count": None}],
        "outputs": [{"namespace": "s3", "name": "lake.orders", "row_count": 10 * n, "bytes": 100 * n, "file_count": 1}],
        "error_message": None,
        "producer": "https://github.com/OpenLineage/OpenLineage/tree/1.0.0/integration/spark",
        "integration": "spark",
        "integration_version": "1.0.0",
        "schema_url": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "event_size_bytes": 321,
        "event": '{"eventType":"START"}',
        **extra,
    }


def export(rows, org=ORG_A):
    answer = run({"command": "lineage_export", "org_id": org, "rows": rows, "mark": max(r["mark"] for r in rows)})
    assert answer["ok"], answer
    return answer["result"]


def run_events(org=ORG_A):
    return OrgLake(org).load("lineage", "run_events")


def test_a_batch_lands_partitioned_by_day_with_its_mark_in_the_snapshot_summary():
    rows = [row(1, day=1), row(2, "COMPLETE", day=2)]

    result = export(rows)

    table = run_events()
    assert result["appended"] == 2
    assert table.current_snapshot().summary[MARK_PROPERTY] == rows[1]["mark"]
    assert sorted(str(f.file.partition[0]) for f in table.scan().plan_files()) == sorted(str(d) for d in {20513, 20514})
    data = table.scan().to_arrow().to_pylist()
    assert {r["event_id"] for r in data} == {"e0001", "e0002"}
    assert data[0]["outputs"][0]["row_count"] in (10, 20)


def test_a_redelivered_batch_a_replay_and_a_late_event_below_the_mark_add_each_row_once():
    first = [row(1), row(2, "RUNNING"), row(3, "COMPLETE")]
    export(first)

    again = export(first)
    replay = export(first[1:])
    late = row(0, "OTHER")  # stored under an earlier receipt time, delivered after the mark passed it
    with_late = export([late, first[2]])

    ids = sorted(run_events().scan().to_arrow().column("event_id").to_pylist())
    assert (again["appended"], replay["appended"], with_late["appended"]) == (0, 0, 1)
    assert ids == ["e0000", "e0001", "e0002", "e0003"]
    assert with_late["mark"] == first[2]["mark"]


def test_runs_merge_state_times_and_datasets_whatever_the_order_and_repetition():
    export([row(3, "COMPLETE", outputs=[{"namespace": "s3", "name": "lake.orders", "row_count": 42, "bytes": 420, "file_count": 2}])])
    export([row(1, "START"), row(2, "RUNNING")])
    export([row(2, "RUNNING")])

    [r] = OrgLake(ORG_A).load("lineage", "runs").scan().to_arrow().to_pylist()
    assert r["state"] == "COMPLETE"
    assert r["started_at"].isoformat() == "2026-03-01T09:00:01+00:00"
    assert r["ended_at"].isoformat() == "2026-03-01T09:00:03+00:00"
    assert r["duration_ms"] == 2000
    assert r["outputs"] == [{"namespace": "s3", "name": "lake.orders", "row_count": 42, "bytes": 420, "file_count": 2}]
    assert r["inputs"] == [{"namespace": "pg", "name": "public.orders"}]


def test_each_org_has_its_own_tables():
    export([row(1)], org=ORG_A)
    export([row(2)], org=ORG_B)

    assert run_events(ORG_A).scan().to_arrow().column("event_id").to_pylist() == ["e0001"]
    assert run_events(ORG_B).scan().to_arrow().column("event_id").to_pylist() == ["e0002"]


def test_drop_removes_both_tables_and_the_mark_starts_over():
    export([row(1)])

    dropped = run({"command": "lineage_drop", "org_id": ORG_A})
    mark = run({"command": "lineage_mark", "org_id": ORG_A})

    assert dropped["result"]["dropped"] == ["run_events", "runs"]
    assert mark["result"]["mark"] == ""
    assert not OrgLake(ORG_A).exists("lineage", "run_events")


def test_a_writer_killed_at_any_moment_leaves_each_row_once_after_the_batches_are_delivered_again(home):
    """kill -9 of the writer process at staggered moments of its commits, each batch delivered again
    after the kill (as the feed does): every row ends up in run_events exactly once."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    batches = [[row(n, day=1 + n % 3, run_id=f"r{n % 7}", event_id=f"k{b}_{n}", mark=f"2026-03-01T11:{b:02d}:{n:02d}.000000+00:00#k{b}_{n}") for n in range(40)] for b in range(6)]
    env = {**os.environ, "LAKELINE_PROFILE": "local", "LAKELINE_HOME": str(home)}
    cwd = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def send(rows, kill_after):
        request = json.dumps({"command": "lineage_export", "org_id": ORG_A, "rows": rows, "mark": max(r["mark"] for r in rows)})
        child = subprocess.Popen([sys.executable, "-m", "lakewriter"], cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        child.stdin.write(request.encode())
        child.stdin.close()
        if kill_after is not None:
            time.sleep(kill_after)
            child.send_signal(signal.SIGKILL)
        child.wait()

    started = time.monotonic()
    send(batches[0], kill_after=None)
    whole = time.monotonic() - started  # one full request on this machine now
    for b, rows in enumerate(batches[1:]):
        # From mid-way (pyiceberg loaded, files being written) to past the end (committed, answer lost).
        send(rows, kill_after=whole * (0.6 + 0.12 * b))
        send(rows, kill_after=None)  # the feed delivers the batch again

    ids = run_events().scan().to_arrow().column("event_id").to_pylist()
    assert len(ids) == len(set(ids)) == 240


def test_compaction_makes_one_file_per_day_keeps_every_row_and_the_mark_and_a_later_export_still_dedupes():
    for n in range(1, 7):
        export([row(n, day=1 + n % 2, event_id=f"c{n}", mark=f"2026-03-01T10:00:{n:02d}.000000+00:00#c{n}")])
    before = sorted(map(str, run_events().scan().to_arrow().sort_by("event_id").to_pylist()))
    mark = run_events().current_snapshot().summary[MARK_PROPERTY]

    compacted = run({"command": "lineage_compact", "org_id": ORG_A, "snapshot_age_hours": 0})
    again = export([row(3, day=2, event_id="c3", mark="2026-03-01T10:00:03.000000+00:00#c3")])

    table = run_events()
    assert compacted["ok"], compacted
    assert compacted["result"]["days"] == 2 and compacted["result"]["files_rewritten"] == 6
    assert compacted["result"]["snapshots_expired"] > 0
    assert len(list(table.scan().plan_files())) == 2
    assert sorted(map(str, table.scan().to_arrow().sort_by("event_id").to_pylist())) == before
    assert table.current_snapshot().summary[MARK_PROPERTY] == mark
    assert again["appended"] == 0


def test_retention_deletes_the_days_before_the_cutoff_and_their_runs():
    export([row(1, day=1, run_id="old"), row(2, day=3, run_id="new")])

    expired = run({"command": "lineage_expire", "org_id": ORG_A, "before": "2026-03-02"})

    assert expired["ok"], expired
    assert run_events().scan().to_arrow().column("event_id").to_pylist() == ["e0002"]
    assert OrgLake(ORG_A).load("lineage", "runs").scan().to_arrow().column("run_id").to_pylist() == ["new"]
