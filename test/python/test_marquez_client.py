"""Marquez's own Python client (marquez-python, as a Marquez user's script uses it) against lakeline.

Records runs shaped as the Spark, Airflow and dbt integrations send them, through the OpenLineage
endpoint, then calls every read method of `MarquezClient` unchanged over HTTP: namespaces, jobs,
runs, datasets, dataset versions, column lineage (by dataset, field and job) and Marquez's events
path. Also checks what those answers must make sense of: a namespace's `updatedAt` is never before
its `createdAt`, the OpenLineage `tags` facets are Marquez's `tags`, and a number is kept as sent
(`0.0` stays `0.0`). Marquez's write APIs that predate OpenLineage are refused, naming OpenLineage.
Needs a running stack: LAKELINE_BASE_URL and LAKELINE_API_KEY (test/http/lineage-marquez-client.test.ts
sets both; by hand, take them from .lakeline/local.json while `npm run local` runs).
"""

from __future__ import annotations

import json
import os
import time
import uuid

import pytest
import requests
from marquez_client import MarquezClient
from marquez_client.errors import APIError
from marquez_client.models import JobType

BASE_URL = os.environ.get("LAKELINE_BASE_URL", "")
API_KEY = os.environ.get("LAKELINE_API_KEY", "")

pytestmark = pytest.mark.skipif(not BASE_URL or not API_KEY, reason="LAKELINE_BASE_URL and LAKELINE_API_KEY name the stack under test")

SCHEMA_URL = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"
SPARK = "https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark"
AIRFLOW = "https://github.com/apache/airflow/tree/providers-openlineage/1.10.0"
DBT = "https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/dbt"
SUFFIX = uuid.uuid4().hex[:8]
# Namespaces as the integrations name them: a Spark app's, a warehouse URI, a Postgres URI.
SPARK_NS = f"spark-prod-{SUFFIX}"
AIRFLOW_NS = f"airflow-prod-{SUFFIX}"
DBT_NS = f"dbt-{SUFFIX}"
LAKE_NS = f"s3://lake-{SUFFIX}"
PG_NS = f"postgres://orders-db-{SUFFIX}:5432"
ORDERS = "shop.public.orders"
CLEAN = "warehouse/orders_clean"
# Spark names the table it wrote by its catalog name too (a TABLE symlink): lakeline, like Marquez's
# web UI, shows the dataset under that name, and finds it by either.
HIVE_NS = f"hive://metastore-{SUFFIX}:9083"
TABLE = "warehouse.orders_clean"
CUSTOMERS = "analytics.public.customers"
SPARK_JOB = "orders_etl.execute_insert_into_hadoop_fs_relation_command.warehouse_orders_clean"
AIRFLOW_JOB = "orders_dag.run_spark"
DBT_JOB = "jaffle_shop.model.jaffle_shop.customers"


def facet(name: str) -> dict:
    return {"_producer": SPARK, "_schemaURL": f"https://openlineage.io/spec/facets/1-0-1/{name}.json"}


def schema(*fields: str) -> dict:
    return {**facet("SchemaDatasetFacet"), "fields": [{"name": f, "type": "string"} for f in fields]}


def tags(*entries: dict) -> dict:
    return {**facet("TagsJobFacet"), "tags": list(entries)}


def event(state: str, at: str, run_id: str, namespace: str, name: str, producer: str, **parts: object) -> dict:
    return {"eventType": state, "eventTime": at, "producer": producer, "schemaURL": SCHEMA_URL, "run": {"runId": run_id, "facets": parts.get("run_facets", {})},
            "job": {"namespace": namespace, "name": name, "facets": parts.get("job_facets", {})}, "inputs": parts.get("inputs", []), "outputs": parts.get("outputs", [])}


AIRFLOW_RUN, SPARK_RUN, DBT_RUN = (str(uuid.uuid4()) for _ in range(3))
T0 = "2024-06-03T10:15:00.250Z"


def producers_events() -> list[dict]:
    """An Airflow task starting a Spark job that cleans the orders, then a dbt model building customers from them."""
    parent = {**facet("ParentRunFacet"), "run": {"runId": AIRFLOW_RUN}, "job": {"namespace": AIRFLOW_NS, "name": AIRFLOW_JOB}}
    orders_in = {"namespace": PG_NS, "name": ORDERS, "facets": {"schema": schema("id", "amount", "email"), "dataSource": {**facet("DatasourceDatasetFacet"), "name": PG_NS, "uri": PG_NS}}}
    clean_out = {
        "namespace": LAKE_NS,
        "name": CLEAN,
        "facets": {
            "schema": schema("id", "amount"),
            "symlinks": {**facet("SymlinksDatasetFacet"), "identifiers": [{"namespace": HIVE_NS, "name": TABLE, "type": "TABLE"}]},
            "columnLineage": {**facet("ColumnLineageDatasetFacet"), "fields": {
                "id": {"inputFields": [{"namespace": PG_NS, "name": ORDERS, "field": "id", "transformations": [{"type": "DIRECT", "subtype": "IDENTITY"}]}]},
                "amount": {"inputFields": [{"namespace": PG_NS, "name": ORDERS, "field": "amount", "transformations": [{"type": "DIRECT", "subtype": "TRANSFORMATION"}]}]},
            }},
            "tags": tags({"key": "tier", "value": "gold", "source": "USER"}, {"key": "pii", "value": "true", "field": "id"}),
        },
        "outputFacets": {"outputStatistics": {**facet("OutputStatisticsOutputDatasetFacet"), "rowCount": 1200, "size": 52000}},
    }
    spark_job_facets = {"jobType": {**facet("JobTypeJobFacet"), "processingType": "BATCH", "integration": "SPARK", "jobType": "SQL_JOB"},
                        "tags": tags({"key": "team", "value": "payments", "source": "CONFIG"})}
    spark_run_facets = {"parent": parent, "processing_engine": {**facet("ProcessingEngineRunFacet"), "version": "3.5.1", "name": "spark", "openlineageAdapterVersion": "1.19.0"}}
    customers_out = {"namespace": PG_NS, "name": CUSTOMERS, "facets": {"schema": schema("customer_id", "lifetime_value")}}
    clean_in = {"namespace": LAKE_NS, "name": CLEAN}
    return [
        event("START", T0, AIRFLOW_RUN, AIRFLOW_NS, AIRFLOW_JOB, AIRFLOW),
        event("START", "2024-06-03T10:16:00Z", SPARK_RUN, SPARK_NS, SPARK_JOB, SPARK, run_facets=spark_run_facets, job_facets=spark_job_facets, inputs=[orders_in], outputs=[clean_out]),
        event("COMPLETE", "2024-06-03T10:31:12.5Z", SPARK_RUN, SPARK_NS, SPARK_JOB, SPARK, run_facets=spark_run_facets, job_facets=spark_job_facets, inputs=[orders_in], outputs=[clean_out]),
        event("COMPLETE", "2024-06-03T10:32:00Z", AIRFLOW_RUN, AIRFLOW_NS, AIRFLOW_JOB, AIRFLOW),
        event("START", "2024-06-03T10:40:00Z", DBT_RUN, DBT_NS, DBT_JOB, DBT, inputs=[clean_in], outputs=[customers_out]),
        event("COMPLETE", "2024-06-03T10:41:00Z", DBT_RUN, DBT_NS, DBT_JOB, DBT, inputs=[clean_in], outputs=[customers_out]),
    ]


def post(path: str, body: str) -> requests.Response:
    return requests.post(f"{BASE_URL}{path}", data=body.encode("utf-8"), headers={"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}, timeout=10)


@pytest.fixture(scope="module")
def client() -> MarquezClient:
    """The client, once the producers' events are in the lineage model (it is maintained asynchronously)."""
    for e in producers_events():
        response = post("/api/v1/lineage", json.dumps(e))
        assert response.status_code in (200, 201), response.text
    marquez = MarquezClient(url=BASE_URL, api_key=API_KEY)
    deadline = time.monotonic() + 30
    while True:
        try:
            if marquez.get_job(DBT_NS, DBT_JOB)["latestRun"]["state"] == "COMPLETED" and marquez.get_job(SPARK_NS, SPARK_JOB)["latestRun"]["state"] == "COMPLETED":
                return marquez
        except APIError:
            pass
        assert time.monotonic() < deadline, "the lineage model did not show the events within 30 s"
        time.sleep(0.2)


def test_namespaces_list_and_get(client: MarquezClient) -> None:
    listed = {n["name"]: n for n in client.list_namespaces(limit=1000)["namespaces"]}
    for name in (SPARK_NS, AIRFLOW_NS, DBT_NS, LAKE_NS, PG_NS):
        got = client.get_namespace(name)
        assert got == listed[name]
        assert got["name"] == name
        # Never updated before it was created (its first hour included).
        assert got["updatedAt"] >= got["createdAt"], got
    assert client.get_namespace(AIRFLOW_NS)["createdAt"] == "2024-06-03T10:15:00.250000+00:00"
    with pytest.raises(APIError):
        client.get_namespace(f"nowhere-{SUFFIX}")


def test_jobs_list_and_get_with_tags(client: MarquezClient) -> None:
    jobs = client.list_jobs(SPARK_NS)["jobs"]
    assert [j["name"] for j in jobs] == [SPARK_JOB]
    job = client.get_job(SPARK_NS, SPARK_JOB)
    assert job["id"] == {"namespace": SPARK_NS, "name": SPARK_JOB}
    assert job["inputs"] == [{"namespace": PG_NS, "name": ORDERS}]
    assert job["outputs"] == [{"namespace": HIVE_NS, "name": TABLE}]
    assert job["tags"] == ["team:payments"] == jobs[0]["tags"]
    assert job["parentJobName"] == AIRFLOW_JOB


def test_tags_list(client: MarquezClient) -> None:
    # The tags facets' names (job, dataset and column), by name, as Marquez's tag list.
    names = [t["name"] for t in client.list_tags()["tags"]]
    assert names == sorted(names)
    assert {"tier:gold", "pii", "team:payments"} <= set(names)
    page = client.list_tags(limit=1, offset=1)
    assert page["totalCount"] == len(names) and page["tags"] == [{"name": names[1], "description": None}]


def test_job_runs_list_and_get(client: MarquezClient) -> None:
    runs = client.list_job_runs(SPARK_NS, SPARK_JOB)["runs"]
    assert [r["id"] for r in runs] == [SPARK_RUN]
    run = client.get_job_run(SPARK_RUN)
    assert run["id"] == SPARK_RUN
    assert run["state"] == "COMPLETED"
    assert run["durationMs"] == 912_500
    assert run["outputDatasetVersions"] == runs[0]["outputDatasetVersions"]
    assert run["outputDatasetVersions"][0]["facets"]["outputStatistics"]["rowCount"] == 1200
    assert client.get_job_run(AIRFLOW_RUN)["state"] == "COMPLETED"
    with pytest.raises(APIError):
        client.get_job_run(str(uuid.uuid4()))


def test_datasets_list_and_get_with_tags(client: MarquezClient) -> None:
    assert [d["name"] for d in client.list_datasets(HIVE_NS)["datasets"]] == [TABLE]
    dataset = client.get_dataset(HIVE_NS, TABLE)
    assert dataset["id"] == {"namespace": HIVE_NS, "name": TABLE}
    assert dataset["physicalName"] == CLEAN
    assert dataset["tags"] == ["tier:gold"]
    assert [(f["name"], f["tags"]) for f in dataset["fields"]] == [("id", ["pii"]), ("amount", [])]
    assert dataset["producedBy"] == {"namespace": SPARK_NS, "name": SPARK_JOB}
    # The storage path finds the same dataset.
    assert client.get_dataset(LAKE_NS, CLEAN) == dataset


def test_dataset_versions_list_and_get(client: MarquezClient) -> None:
    versions = client.list_dataset_versions(HIVE_NS, TABLE)["versions"]
    assert len(versions) == 1
    version = versions[0]["version"]
    assert client.get_dataset_version(HIVE_NS, TABLE, version) == versions[0]
    assert client.get_dataset_version(LAKE_NS, CLEAN, version) == versions[0]
    assert client.get_dataset(HIVE_NS, TABLE)["currentVersion"] == version
    assert versions[0]["createdByRun"]["id"] == SPARK_RUN
    assert versions[0]["tags"] == ["tier:gold"]
    with pytest.raises(APIError):
        client.get_dataset_version(HIVE_NS, TABLE, str(uuid.uuid4()))


def column_edges(answer: dict) -> set[tuple[str, str]]:
    return {(edge["origin"], edge["destination"]) for node in answer["graph"] for edge in node["inEdges"]}


def test_column_lineage_by_dataset_field_and_job(client: MarquezClient) -> None:
    expected = {(f"datasetField:{HIVE_NS}:{TABLE}:id", f"datasetField:{PG_NS}:{ORDERS}:id"), (f"datasetField:{HIVE_NS}:{TABLE}:amount", f"datasetField:{PG_NS}:{ORDERS}:amount")}
    assert column_edges(client.get_column_lineage_by_dataset(HIVE_NS, TABLE)) == expected
    assert column_edges(client.get_column_lineage_by_dataset(LAKE_NS, CLEAN)) == expected
    by_field = client.get_column_lineage_by_dataset_field(HIVE_NS, TABLE, "amount")
    assert column_edges(by_field) == {e for e in expected if e[0].endswith(":amount")}
    assert column_edges(client.get_column_lineage_by_job(SPARK_NS, SPARK_JOB)) == expected
    downstream = client.get_column_lineage_by_dataset_field(PG_NS, ORDERS, "id", depth=5, with_downstream=True)
    assert (f"datasetField:{HIVE_NS}:{TABLE}:id", f"datasetField:{PG_NS}:{ORDERS}:id") in column_edges(downstream)


def marquez_events_page(**params: str) -> dict:
    response = requests.get(f"{BASE_URL}/api/v1/events/lineage", params=params, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def marquez_events(**params: str) -> list[dict]:
    return marquez_events_page(**params)["events"]


def test_marquez_events_path(client: MarquezClient) -> None:
    window = {"after": "2024-06-03T10:00:00Z", "before": "2024-06-03T11:00:00Z"}
    sent = producers_events()
    newest_first = marquez_events(**window)
    assert [(e["run"]["runId"], e["eventType"]) for e in newest_first] == [(e["run"]["runId"], e["eventType"]) for e in reversed(sent)]
    assert newest_first[-1] == sent[0]
    oldest_first = marquez_events(**window, sortDirection="asc", limit="2", offset="1")
    assert [e["eventTime"] for e in oldest_first] == [sent[1]["eventTime"], sent[2]["eventTime"]]
    assert marquez_events(after="2024-06-03T10:35:00Z", before="2024-06-03T10:40:00Z") == []
    # totalCount is the window's, whatever the page (Marquez's web UI pages by it).
    assert marquez_events_page(**window, limit="2", offset="1")["totalCount"] == len(sent)
    assert marquez_events_page(after="2024-06-03T10:35:00Z", before="2024-06-03T10:40:00Z")["totalCount"] == 0
    # The client's own call: list_events("lineage") is GET /api/v1/events/lineage?limit=100&offset=0.
    assert len(client.list_events("lineage")["events"]) >= len(sent)


def test_numbers_come_back_as_sent() -> None:
    run_id = str(uuid.uuid4())
    # Compact, as the answers are: the numbers' text must come back byte for byte.
    stats = '{"_producer":"%s","_schemaURL":"https://openlineage.io/spec/facets/1-0-1/OutputStatisticsOutputDatasetFacet.json","rowCount":0,"size":1e3,"ratio":0.0,"scale":1.0,"big":1.50,"neg":-0.0}' % SPARK
    body = ('{"eventType": "COMPLETE", "eventTime": "2024-06-04T08:00:00Z", "producer": "%s", "schemaURL": "%s", "run": {"runId": "%s"},'
            ' "job": {"namespace": "%s", "name": "numbers"}, "inputs": [], "outputs": [{"namespace": "%s", "name": "n", "outputFacets": {"outputStatistics": %s}}]}'
            % (SPARK, SCHEMA_URL, run_id, SPARK_NS, LAKE_NS, stats))
    assert post("/api/v1/lineage", body).status_code in (200, 201)
    for path, params in (("/api/v1/events", {"start": "1717488000", "end": "1717491600", "run": run_id}), ("/api/v1/events/lineage", {"after": "2024-06-04T08:00:00Z", "before": "2024-06-04T08:00:01Z"})):
        text = requests.get(f"{BASE_URL}{path}", params=params, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=10).text
        assert stats in text, text


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PUT", f"/api/v1/namespaces/{SPARK_NS}/jobs/created_by_hand"),
        ("POST", f"/api/v1/namespaces/{SPARK_NS}/jobs/{SPARK_JOB}/runs"),
        ("POST", f"/api/v1/jobs/runs/{uuid.uuid4()}/complete?at=2024-06-03T10:00:00Z"),
        ("PUT", "/api/v1/sources/orders_db"),
        ("PUT", "/api/v1/tags/pii"),
        ("GET", "/api/v1/sources"),
    ],
)
def test_write_apis_before_openlineage_are_refused_naming_openlineage(method: str, path: str) -> None:
    response = requests.request(method, f"{BASE_URL}{path}", json={"type": "BATCH"}, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=10)
    assert response.status_code in (405, 501), response.text
    assert "OpenLineage" in response.json()["error"]


def test_client_write_methods_raise(client: MarquezClient) -> None:
    with pytest.raises(APIError):
        client.create_job(SPARK_NS, "created_by_hand", JobType.BATCH)
    with pytest.raises(APIError):
        client.mark_job_run_as_completed(SPARK_RUN)
    with pytest.raises(APIError):
        client.create_tag("pii", "set by hand")
