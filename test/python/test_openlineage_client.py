"""The OpenLineage Python client (openlineage-python, HTTP transport, api_key auth) against lakeline.

Sends a run's START and COMPLETE events through the client's own HttpTransport, with and without
gzip compression, then reads them back from GET /api/v1/events and checks the derived fields.
Needs a running stack: LAKELINE_BASE_URL and LAKELINE_API_KEY (test/http/lineage-python-client.test.ts
sets both; by hand, take them from .lakeline/local.json while `npm run local` runs).
"""

from __future__ import annotations

import gzip
import json
import os
import uuid
from datetime import datetime, timezone

import pytest
import requests
from openlineage.client import OpenLineageClient
from openlineage.client.constants import DEFAULT_PRODUCER
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import parent_run, sql_job
from openlineage.client.serde import Serde
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpCompression, HttpConfig, HttpTransport
from openlineage.client import __version__ as CLIENT_VERSION

BASE_URL = os.environ.get("LAKELINE_BASE_URL", "")
API_KEY = os.environ.get("LAKELINE_API_KEY", "")

pytestmark = pytest.mark.skipif(not BASE_URL or not API_KEY, reason="LAKELINE_BASE_URL and LAKELINE_API_KEY name the stack under test")


def client_for(compression: HttpCompression | None) -> OpenLineageClient:
    """A client configured the way a user would: HTTP transport, API key, optional gzip."""
    config = HttpConfig(
        url=BASE_URL,
        endpoint="api/v1/lineage",
        auth=ApiKeyTokenProvider({"apiKey": API_KEY}),
        compression=compression,
        timeout=10.0,
    )
    return OpenLineageClient(transport=HttpTransport(config))


def run_events(namespace: str, name: str, run_id: str) -> list[RunEvent]:
    """START and COMPLETE of one run, with a parent, an SQL facet, one input and one output."""
    parent = parent_run.ParentRunFacet(
        run=parent_run.Run(runId="3f5e83fa-3480-44ff-99c5-ff943904e5e8"),
        job=parent_run.Job(namespace="airflow-prod", name="daily_dag"),
    )
    job = Job(namespace=namespace, name=name, facets={"sql": sql_job.SQLJobFacet(query="INSERT INTO out SELECT * FROM src")})
    inputs = [InputDataset(namespace="postgres://db:5432", name="public.src")]
    outputs = [OutputDataset(namespace="s3://lake", name="warehouse/out")]
    start = datetime(2024, 3, 1, 12, 0, 0, 123456, tzinfo=timezone.utc)
    end = datetime(2024, 3, 1, 12, 5, 30, 654321, tzinfo=timezone.utc)
    return [
        RunEvent(eventType=state, eventTime=when.isoformat(), run=Run(runId=run_id, facets={"parent": parent}), job=job, inputs=inputs, outputs=outputs)
        for state, when in ((RunState.START, start), (RunState.COMPLETE, end))
    ]


def stored_events(run_id: str) -> list[dict]:
    response = requests.get(
        f"{BASE_URL}/api/v1/events",
        params={"start": "1709251200", "end": "1709337600", "run": run_id, "order": "ASC"},
        headers={"Authorization": f"Bearer {API_KEY}"},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("compression", [None, HttpCompression.GZIP], ids=["plain", "gzip"])
def test_client_events_come_back_with_derived_fields(compression: HttpCompression | None) -> None:
    # Prepare
    run_id = str(uuid.uuid4())
    namespace, name = f"py-client-{compression}", "etl.load_orders"
    events = run_events(namespace, name, run_id)
    client = client_for(compression)

    # Act
    for event in events:
        client.emit(event)

    # Assess
    stored = stored_events(run_id)
    assert [e["run_state"] for e in stored] == ["START", "COMPLETE"]
    for sent, got in zip(events, stored):
        raw = Serde.to_json(sent)
        assert got["event_raw"] == json.loads(raw)
        assert got["event_size_in_bytes"] == len(raw.encode("utf-8"))
        assert got["run_id"] == run_id
        assert got["job_namespace"] == namespace
        assert got["job_name"] == name
        assert got["event_schema"] == "RunEvent"
        assert got["event_schema_version"] == "2-0-2"
        assert got["produced_by"] == DEFAULT_PRODUCER
        assert got["integration"] == "python"
        assert got["integration_version"] == CLIENT_VERSION
        assert got["parent_run_id"] == "3f5e83fa-3480-44ff-99c5-ff943904e5e8"
        assert got["parent_job_namespace"] == "airflow-prod"
        assert got["parent_job_name"] == "daily_dag"
        assert got["inputs"] == [{"namespace": "postgres://db:5432", "name": "public.src"}]
        assert got["outputs"] == [{"namespace": "s3://lake", "name": "warehouse/out"}]
    assert stored[0]["event_time"] == "2024-03-01T12:00:00.123456+00:00"
    assert stored[1]["event_time"] == "2024-03-01T12:05:30.654321+00:00"


def test_resending_an_event_stores_it_once() -> None:
    # Prepare
    run_id = str(uuid.uuid4())
    start, _ = run_events("py-client-resend", "job", run_id)
    client = client_for(None)

    # Act
    client.emit(start)
    client.emit(start)

    # Assess
    assert len(stored_events(run_id)) == 1


def test_invalid_event_is_refused_with_a_4xx_the_client_does_not_retry() -> None:
    # Prepare: the client validates little itself; a run id that is not a UUID reaches the server.
    body = json.dumps({"eventTime": "2024-03-01T12:00:00Z", "producer": DEFAULT_PRODUCER, "run": {"runId": "nope"}, "job": {"namespace": "n", "name": "j"}})
    transport = client_for(HttpCompression.GZIP).transport

    # Act
    response = requests.post(
        f"{BASE_URL}/api/v1/lineage",
        data=gzip.compress(body.encode()),
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip", **transport._auth_headers(transport.config.auth)},
        timeout=10,
    )

    # Assess
    assert response.status_code == 400
    assert response.json() == {"error": "run.runId: must be a UUID"}
