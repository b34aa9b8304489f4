"""The lake writer's commands against a real SQL catalog in SQLite in a temporary home."""
import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lakewriter.catalogs import OrgLake, catalog_name_for_org
from lakewriter.commands import run

ORG_A = "aaaaaaaa-0000-0000-0000-000000000001"
ORG_B = "bbbbbbbb-0000-0000-0000-000000000002"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("LAKELINE_PROFILE", "local")
    monkeypatch.setenv("LAKELINE_HOME", str(tmp_path))
    return tmp_path


def parquet(tmp_path: Path, name: str, rows: dict) -> str:
    path = tmp_path / f"{name}.parquet"
    pq.write_table(pa.table(rows), path)
    return str(path)


def test_write_creates_table_then_overwrite_replaces_and_append_adds(tmp_path):
    first = parquet(tmp_path, "a", {"id": [1, 2, 3]})
    second = parquet(tmp_path, "b", {"id": [10, 20]})

    created = run({"command": "write", "org_id": ORG_A, "namespace": "sales", "table": "t", "parquet": [first], "mode": "overwrite"})
    appended = run({"command": "write", "org_id": ORG_A, "namespace": "sales", "table": "t", "parquet": [second], "mode": "append"})
    overwritten = run({"command": "write", "org_id": ORG_A, "namespace": "sales", "table": "t", "parquet": [second], "mode": "overwrite"})

    assert created["ok"] and created["result"]["rows_written"] == 3
    assert appended["ok"] and appended["result"]["rows_written"] == 2
    assert overwritten["ok"]
    table = OrgLake(ORG_A).load("sales", "t")
    assert sorted(table.scan().to_arrow()["id"].to_pylist()) == [10, 20]
    assert len(table.metadata.snapshots) >= 3


@pytest.mark.parametrize("mode", ["append", "overwrite"])
def test_write_into_a_table_partitioned_by_a_time_transform_is_refused_naming_it(tmp_path, mode):
    """A table Spark made with PARTITIONED BY (days(ts)): the lake writer cannot compute the day of
    new rows without pyiceberg-core, so it refuses, naming the partitioning, and writes nothing."""
    import datetime as dt

    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import DayTransform
    from pyiceberg.types import LongType, NestedField, TimestamptzType

    lake = OrgLake(ORG_A)
    lake.ensure_namespace("events")
    schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "ts", TimestamptzType(), required=False))
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=DayTransform(), name="ts_day"))
    lake.catalog.create_table(lake.identifier("events", "by_day"), schema=schema, partition_spec=spec)
    start = dt.datetime(2024, 3, 1, tzinfo=dt.timezone.utc)
    rows = pa.table({"id": pa.array([1, 2], pa.int64()), "ts": pa.array([start, start + dt.timedelta(days=1)], pa.timestamp("us", tz="UTC"))})
    path = tmp_path / "rows.parquet"
    pq.write_table(rows, path)

    out = run({"command": "write", "org_id": ORG_A, "namespace": "events", "table": "by_day", "parquet": [str(path)], "mode": mode})

    assert out == {
        "ok": False,
        "kind": "invalid",
        "error": "events.by_day: is partitioned by day(ts); the lake writer cannot partition new rows that way, "
        "so it writes only into unpartitioned or identity-partitioned tables",
    }
    assert OrgLake(ORG_A).load("events", "by_day").metadata.snapshots == []


def _data_files(table) -> list[str]:
    return [task.file.file_path.removeprefix("file://") for task in table.scan().plan_files()]


def test_drop_forgets_a_table_and_purge_also_deletes_its_files(tmp_path):
    source = parquet(tmp_path, "r", {"id": [1, 2]})
    for name in ("kept_files", "purged"):
        assert run({"command": "write", "org_id": ORG_A, "namespace": "lakeline_results", "table": name, "parquet": [source], "mode": "overwrite"})["ok"]
    kept = _data_files(OrgLake(ORG_A).load("lakeline_results", "kept_files"))
    purged_table = OrgLake(ORG_A).load("lakeline_results", "purged")
    purged = _data_files(purged_table) + [purged_table.metadata_location.removeprefix("file://")]

    dropped = run({"command": "drop", "org_id": ORG_A, "namespace": "lakeline_results", "table": "kept_files"})
    purged_answer = run({"command": "drop", "org_id": ORG_A, "namespace": "lakeline_results", "table": "purged", "purge": True})
    again = run({"command": "drop", "org_id": ORG_A, "namespace": "lakeline_results", "table": "purged", "purge": True})

    assert dropped["result"] == {"dropped": True} and purged_answer["result"] == {"dropped": True}
    assert again["result"] == {"dropped": False}
    assert not OrgLake(ORG_A).catalog.table_exists(OrgLake(ORG_A).identifier("lakeline_results", "purged"))
    assert kept and all(Path(f).exists() for f in kept)
    assert purged and not any(Path(f).exists() for f in purged)


def test_orgs_are_separate_catalogs_with_separate_warehouses(tmp_path):
    run({"command": "write", "org_id": ORG_A, "namespace": "sales", "table": "t", "parquet": [parquet(tmp_path, "a", {"x": [1]})]})

    assert OrgLake(ORG_A).exists("sales", "t")
    assert not OrgLake(ORG_B).exists("sales", "t")
    location = OrgLake(ORG_A).load("sales", "t").location()
    assert f"/warehouse/{catalog_name_for_org(ORG_A)}/" in location


@pytest.mark.parametrize(
    "request_, message",
    [
        ({"command": "nope"}, "command: must be one of"),
        ({"command": "write", "org_id": ORG_A, "namespace": "bad-ns", "table": "t", "parquet": ["/x.parquet"]}, "file not found"),
        ({"command": "write", "org_id": ORG_A, "namespace": "../etc", "table": "t", "parquet": []}, "parquet: at least one file"),
        ({"command": "write", "org_id": "../../x", "namespace": "n", "table": "t", "parquet": ["/x"]}, "file not found"),
        ({"command": "demo_load", "org_id": ORG_A, "scale": 0}, "scale: must be greater than 0"),
    ],
)
def test_bad_requests_are_refused_with_a_message(request_, message):
    answer = run(request_)

    assert answer["ok"] is False and answer["kind"] == "invalid"
    assert message in answer["error"]


def test_identifiers_must_be_plain_names(tmp_path):
    source = parquet(tmp_path, "a", {"x": [1]})

    answer = run({"command": "write", "org_id": ORG_A, "namespace": "../../etc", "table": "t", "parquet": [source]})

    assert answer["ok"] is False and "namespace" in answer["error"]


def test_demo_load_writes_the_eight_tpch_tables():
    answer = run({"command": "demo_load", "org_id": ORG_A, "scale": 0.001})

    assert answer["ok"], answer
    assert set(answer["result"]["tables"]) == {"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}
    assert answer["result"]["tables"]["nation"] == 25
    assert OrgLake(ORG_A).load("tpch", "nation").scan().to_arrow().num_rows == 25


def test_module_entry_point_speaks_json_over_stdio(tmp_path, home):
    source = parquet(tmp_path, "a", {"x": [1, 2]})
    request = {"command": "write", "org_id": ORG_A, "namespace": "n", "table": "t", "parquet": [source]}

    done = subprocess.run([sys.executable, "-m", "lakewriter"], input=json.dumps(request), capture_output=True, text=True, cwd=Path(__file__).parents[1], check=False)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["rows_written"] == 2


STAGING = "s3://lake-bucket/polars-staging"


def test_write_reads_a_staged_s3_result_below_the_staging_prefix(tmp_path, monkeypatch):
    # S3 itself is not reached: the reader is replaced by one that maps the key to a local file.
    from lakewriter import commands

    monkeypatch.setenv(commands.STAGING_URI_ENV, STAGING)
    local = parquet(tmp_path, "staged", {"id": [7, 8]})
    read = []
    monkeypatch.setattr(commands, "_read_s3", lambda path: read.append(path) or pq.read_table(local))
    key = f"{STAGING}/req-1/result.parquet"

    answer = run({"command": "write", "org_id": ORG_A, "namespace": "sales", "table": "staged", "parquet": [key]})

    assert answer["ok"], answer
    assert answer["result"]["rows_written"] == 2
    assert read == [key]


@pytest.mark.parametrize(
    "source, message",
    [
        ("s3://lake-bucket/warehouse/org_x/t/data/a.parquet", "must be below"),
        ("s3://other-bucket/polars-staging/req/result.parquet", "must be below"),
        (f"{STAGING}/req-*/result.parquet", "one object"),
        (f"{STAGING}/req/../../warehouse/a.parquet", "one object"),
        (f"{STAGING}/", "must be below"),
        (f"{STAGING}-evil/req/result.parquet", "must be below"),
    ],
)
def test_write_refuses_s3_sources_outside_the_staging_prefix(monkeypatch, source, message):
    from lakewriter import commands

    monkeypatch.setenv(commands.STAGING_URI_ENV, STAGING)
    monkeypatch.setattr(commands, "_read_s3", lambda path: pytest.fail(f"read {path}"))

    answer = run({"command": "write", "org_id": ORG_A, "namespace": "sales", "table": "t", "parquet": [source]})

    assert answer["ok"] is False and answer["kind"] == "invalid"
    assert message in answer["error"]


def test_write_refuses_s3_sources_where_no_staging_prefix_is_configured(monkeypatch):
    monkeypatch.delenv("LAKELINE_POLARS_STAGING_URI", raising=False)
    answer = run({"command": "write", "org_id": ORG_A, "namespace": "sales", "table": "t", "parquet": [f"{STAGING}/r/result.parquet"]})
    assert answer["ok"] is False and "not configured" in answer["error"]
