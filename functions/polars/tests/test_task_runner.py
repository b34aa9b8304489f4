"""The Fargate task runner (``lakeline_polars.task_runner``) with fake SQS and S3 clients: one
message is run, answered under its request id and deleted; a payload behind an S3 pointer is read;
malformed and expired messages are deleted (with an internal answer when the request id is known);
SIGTERM lets the current run finish and stops the loop. The last tests run the real worker
process, which calls the Lambda handler itself, in a fresh interpreter (without the uid drop, which
needs root: test/aws/polars-fargate.test.ts runs the whole runner, uid drop included, against the
AWS emulator)."""
import io
import json
import os
import signal
import sys

import pytest

from lakeline_polars import task_runner as tr

CONFIG = tr.Config(queue_url="https://sqs/q8", bucket="lake", prefix="polars-fargate", max_run_s=600, memory_mb=16384, sandbox_uid=None)
NOW = 1_000_000.0
PAYLOAD = {"op": "run", "request": {"mode": "query", "query": "SELECT 1", "tables": {}}, "timeout_s": 20}


class FakeSqs:
    """Hands out the given batches, then asks the loop to stop."""

    def __init__(self, batches, stop):
        self.batches = list(batches)
        self.stop = stop
        self.receives, self.deleted, self.released = [], [], []

    def receive_message(self, **kwargs):
        self.receives.append(kwargs)
        if not self.batches:
            self.stop.request()
            return {}
        return {"Messages": self.batches.pop(0)}

    def delete_message(self, **kwargs):
        self.deleted.append(kwargs)

    def change_message_visibility(self, **kwargs):
        self.released.append(kwargs)


class FakeS3:
    def __init__(self, objects=None):
        self.objects = dict(objects or {})

    def get_object(self, Bucket, Key):
        return {"Body": io.BytesIO(self.objects[(Bucket, Key)])}

    def put_object(self, Bucket, Key, Body, ContentType):
        assert ContentType == "application/json"
        self.objects[(Bucket, Key)] = Body

    def answer(self, request_id):
        return json.loads(self.objects[("lake", f"polars-fargate/{request_id}/answer.json")])


def message(body, n=1):
    return {"MessageId": f"m{n}", "ReceiptHandle": f"r{n}", "Body": body if isinstance(body, str) else json.dumps(body)}


def envelope(request_id="req-1", deadline_s=NOW + 25, **rest):
    return {"v": 1, "request_id": request_id, "deadline_ms": int(deadline_s * 1000), **rest}


def serve(batches, run, s3=None, stop=None):
    stop = stop or tr.Stop()
    sqs = FakeSqs(batches, stop)
    s3 = s3 or FakeS3()
    tr.serve(sqs=sqs, s3=s3, config=CONFIG, run=run, stop=stop, now=lambda: NOW, pause=lambda _s: None)
    return sqs, s3


def test_should_run_one_message_write_its_answer_and_delete_it():
    # Arrange
    seen = []

    def run(payload):
        seen.append(payload)
        return {"ok": True, "results": {"columns": ["a"], "column_types": ["Int32"], "rows": [[1]]}}

    # Act
    sqs, s3 = serve([[message(envelope(payload=PAYLOAD))]], run)

    # Assess
    assert seen == [PAYLOAD]
    assert s3.answer("req-1")["results"]["rows"] == [[1]]
    assert sqs.deleted == [{"QueueUrl": "https://sqs/q8", "ReceiptHandle": "r1"}]
    assert sqs.receives[0] == {"QueueUrl": "https://sqs/q8", "MaxNumberOfMessages": 1, "WaitTimeSeconds": 20, "VisibilityTimeout": 660}


def test_should_limit_the_run_to_the_task_maximum_and_the_time_left_before_the_deadline():
    # Arrange
    limits = []
    run = lambda payload: limits.append(payload["timeout_s"]) or {"ok": True}  # noqa: E731

    # Act
    serve([[message(envelope(deadline_s=NOW + 7.5, payload=PAYLOAD))], [message(envelope("req-2", NOW + 5000, payload={**PAYLOAD, "timeout_s": 9000}), 2)]], run)

    # Assess
    assert limits == [7.5, 600]


def test_should_read_a_payload_the_caller_put_in_s3():
    # Arrange
    key = "polars-fargate/req-1/request.json"
    s3 = FakeS3({("lake", key): json.dumps(PAYLOAD).encode()})
    seen = []

    # Act
    sqs, _ = serve([[message(envelope(payload_key=key))]], lambda p: seen.append(p) or {"ok": True}, s3=s3)

    # Assess
    assert seen == [PAYLOAD]
    assert s3.answer("req-1") == {"ok": True}
    assert len(sqs.deleted) == 1


def test_should_refuse_a_pointer_outside_the_request_prefix():
    # Arrange
    s3 = FakeS3({("lake", "warehouse/org_x/t/data.json"): b"{}"})

    # Act
    sqs, _ = serve([[message(envelope(payload_key="warehouse/org_x/t/data.json"))]], lambda p: pytest.fail("ran"), s3=s3)

    # Assess
    assert s3.answer("req-1")["kind"] == "internal"
    assert "not this request's" in s3.answer("req-1")["error"]
    assert len(sqs.deleted) == 1


def test_should_answer_internal_to_a_malformed_message_with_a_request_id_and_delete_it():
    # Act
    sqs, s3 = serve([[message(envelope())]], lambda p: pytest.fail("ran"))

    # Assess
    answer = s3.answer("req-1")
    assert answer["ok"] is False and answer["kind"] == "internal"
    assert "neither payload nor payload_key" in answer["error"]
    assert sqs.deleted == [{"QueueUrl": "https://sqs/q8", "ReceiptHandle": "r1"}]


@pytest.mark.parametrize("body", ["not json", "[1]", json.dumps({"request_id": "../x", "deadline_ms": 1, "payload": {}}), json.dumps({"payload": PAYLOAD})])
def test_should_delete_a_malformed_message_without_a_request_id_and_answer_nothing(body):
    # Act
    sqs, s3 = serve([[message(body)]], lambda p: pytest.fail("ran"))

    # Assess
    assert s3.objects == {}
    assert len(sqs.deleted) == 1


def test_should_drop_an_expired_message_unrun():
    # Act
    sqs, s3 = serve([[message(envelope(deadline_s=NOW - 1, payload=PAYLOAD))]], lambda p: pytest.fail("ran"))

    # Assess
    assert s3.objects == {}
    assert len(sqs.deleted) == 1


def test_should_answer_internal_when_the_run_itself_fails():
    # Arrange
    def run(_payload):
        raise RuntimeError("worker exploded")

    # Act
    sqs, s3 = serve([[message(envelope(payload=PAYLOAD))]], run)

    # Assess
    assert s3.answer("req-1")["kind"] == "internal"
    assert "RuntimeError: worker exploded" in s3.answer("req-1")["error"]
    assert len(sqs.deleted) == 1


def test_should_keep_serving_after_a_receive_failure():
    # Arrange
    stop = tr.Stop()
    sqs = FakeSqs([[message(envelope(payload=PAYLOAD))]], stop)
    real = sqs.receive_message
    failures = iter([RuntimeError("connection reset")])

    def flaky(**kwargs):
        for err in failures:
            raise err
        return real(**kwargs)

    sqs.receive_message = flaky
    s3 = FakeS3()

    # Act
    tr.serve(sqs=sqs, s3=s3, config=CONFIG, run=lambda p: {"ok": True}, stop=stop, now=lambda: NOW, pause=lambda _s: None)

    # Assess
    assert s3.answer("req-1") == {"ok": True}


def test_should_finish_the_current_run_on_sigterm_then_stop():
    # Arrange
    stop = tr.Stop()
    previous = stop.install()
    sqs = FakeSqs([[message(envelope(payload=PAYLOAD))], [message(envelope("req-2", payload=PAYLOAD), 2)]], stop)
    s3 = FakeS3()

    def run(_payload):
        os.kill(os.getpid(), signal.SIGTERM)  # Fargate stops the task mid-run
        return {"ok": True, "row_count": 1}

    # Act
    try:
        tr.serve(sqs=sqs, s3=s3, config=CONFIG, run=run, stop=stop, now=lambda: NOW, pause=lambda _s: None)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    # Assess
    assert stop.requested is True
    assert s3.answer("req-1") == {"ok": True, "row_count": 1}
    assert sqs.deleted == [{"QueueUrl": "https://sqs/q8", "ReceiptHandle": "r1"}]
    assert len(sqs.receives) == 1


def test_should_hand_back_a_message_received_while_stopping():
    # Arrange
    stop = tr.Stop()
    sqs = FakeSqs([], stop)
    s3 = FakeS3()
    stop.request()

    # Act
    tr.handle(message(envelope(payload=PAYLOAD)), sqs=sqs, s3=s3, config=CONFIG, run=lambda p: pytest.fail("ran"), stop=stop, now=lambda: NOW)

    # Assess
    assert sqs.released == [{"QueueUrl": "https://sqs/q8", "ReceiptHandle": "r1", "VisibilityTimeout": 0}]
    assert sqs.deleted == [] and s3.objects == {}


def test_should_read_its_configuration_and_refuse_a_missing_queue():
    # Act
    config = tr.Config.from_env({"LAKELINE_POLARS_QUEUE_URL": "q", "LAKELINE_POLARS_RESULTS_BUCKET": "b", "LAKELINE_POLARS_RESULTS_PREFIX": "p/", "LAKELINE_POLARS_MAX_RUN_S": "300", "LAKELINE_POLARS_MEMORY_MB": "32768", "LAKELINE_SANDBOX_UID": "1000"})

    # Assess
    assert config == tr.Config(queue_url="q", bucket="b", prefix="p", max_run_s=300, memory_mb=32768, sandbox_uid=1000)
    with pytest.raises(SystemExit, match="LAKELINE_POLARS_QUEUE_URL"):
        tr.Config.from_env({"LAKELINE_POLARS_RESULTS_BUCKET": "b", "LAKELINE_POLARS_RESULTS_PREFIX": "p"})


def test_should_build_the_worker_environment_from_scratch(monkeypatch):
    # Arrange
    monkeypatch.setenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/secret")
    monkeypatch.setenv("ECS_CONTAINER_METADATA_URI_V4", "http://169.254.170.2/v4/x")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:5000")
    monkeypatch.setenv("POLARS_MAX_THREADS", "16")

    # Act
    env = tr.IsolatedRunner(CONFIG).worker_env()

    # Assess
    assert not any(name.startswith(("AWS_CONTAINER", "ECS_", "LAKELINE_", "AWS_ACCESS", "AWS_SECRET")) for name in env)
    assert env["AWS_REGION"] == "eu-west-1" and env["POLARS_MAX_THREADS"] == "16"
    # Where S3 is (an emulator in the tests) is kept: the run's reads must go where the task's go.
    assert env["AWS_ENDPOINT_URL"] == "http://127.0.0.1:5000"
    assert env["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"] == str(16384 - 256)


def test_should_run_payloads_in_fresh_workers_with_the_lambda_handler(tmp_path, monkeypatch):
    # Arrange: the real worker (no uid drop: that needs root); the handler imports polars itself.
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    runner = tr.IsolatedRunner(CONFIG, python=sys.executable, root=str(tmp_path))
    script = {"op": "run", "request": {"mode": "script", "script": 'result = pl.DataFrame({"a": [1, 2]}).lazy().select(pl.col("a").sum())', "tables": {}}, "timeout_s": 30}

    # Act
    try:
        runner.start()
        first = runner.worker.pid
        version = runner({"op": "version"})
        second = runner.worker.pid
        answer = runner(script)
        failing = runner({**script, "request": {**script["request"], "script": "result = 1 / 0"}})
    finally:
        runner.retire()

    # Assess
    assert version["ok"] is True and version["polars"]
    assert answer["results"] == {"columns": ["a"], "column_types": ["Int64"], "rows": [[3]]}
    assert failing["ok"] is False and failing["kind"] == "user"
    assert first != second


def test_should_answer_internal_when_the_worker_dies(tmp_path):
    # Arrange: a "python" that exits at once stands in for a worker killed mid-run.
    runner = tr.IsolatedRunner(CONFIG, python="/bin/true", root=str(tmp_path))

    # Act
    answer = runner(PAYLOAD)
    runner.retire()

    # Assess
    assert answer["ok"] is False and answer["kind"] == "internal"
    assert "died or did not answer" in answer["error"]
