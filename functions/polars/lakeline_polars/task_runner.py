"""The polars sandbox as a warm ECS Fargate task (tiers 8 and 16 vCPUs; AWS profile).

API Gateway answers within 30 s and a Fargate task takes 30–60 s to start, so these tiers are a
warm pool: each task long-polls its tier's SQS queue, runs one message at a time with the Lambda
sandbox's own handler (``lambda_handler.handler``: both computes stay identical), writes the answer
to ``<prefix>/<request id>/answer.json`` in S3 and deletes the message. The Node side
(``functions/adapters/aws/fargate-polars-transport.ts``) queued the message and polls that key.

Message body: ``{"v": 1, "request_id", "deadline_ms", "payload" | "payload_key"}``. A message past
its deadline is deleted unrun (its caller has given up). A malformed message is deleted, with an
``ok: false, kind: internal`` answer when it names its request id.

Isolation: unlike a Lambda invocation, a warm task serves many orgs one after another, and this
process holds the task role (the queue and the answers of every run). So each run goes to a
**worker** process running as an unprivileged uid (``LAKELINE_SANDBOX_UID``) with an environment
built from scratch (no container-credentials URI; the runner's ``/proc/<pid>/environ`` is root's):
a script can reach neither the role nor another run's answer. After every run all processes of that
uid are killed (a script's daemon cannot wait for the next org's payload, which carries that org's
credentials), the worker's directory is wiped and a fresh worker imports polars while the runner
waits for the next message.

SIGTERM (a Fargate stop, a scale-in) lets the current run finish, then the loop exits; a message
received after it is handed back to the queue at once. Entry point:
``python -m lakeline_polars.task_runner`` (``--worker`` is the worker's own mode).
"""
from __future__ import annotations

import json
import logging
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

log = logging.getLogger("lakeline_polars.task_runner")

#: SQS's longest long poll.
WAIT_SECONDS = 20
#: The visibility timeout exceeds the longest run by this much, so a message is never run twice at once.
VISIBILITY_MARGIN_S = 60
#: The worker's own wall-clock limit stops a run first; this is how much longer the runner waits.
WORKER_GRACE_S = 30
#: Where the Lambda handler keeps its inbox and scratch (``lambda_handler._ROOT``).
WORKER_ROOT = "/tmp/lakeline-polars"
#: The task's AWS settings the worker keeps (``s3_access.region_of_function`` and
#: ``s3_endpoint_of_function`` read them): where S3 is, never who the task is.
WORKER_AWS_SETTINGS = ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
#: The package's parent directory, put on the worker's ``PYTHONPATH``.
CODE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

Run = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Config:
    """What the task serves, from its environment (set by ``lib/polars-fargate.ts``)."""

    queue_url: str
    bucket: str
    prefix: str
    max_run_s: float
    memory_mb: int
    sandbox_uid: int | None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "Config":
        missing = [name for name in ("LAKELINE_POLARS_QUEUE_URL", "LAKELINE_POLARS_RESULTS_BUCKET", "LAKELINE_POLARS_RESULTS_PREFIX") if not env.get(name)]
        if missing:
            raise SystemExit(f"lakeline_polars.task_runner: {', '.join(missing)} not set")
        uid = env.get("LAKELINE_SANDBOX_UID")
        return cls(
            queue_url=env["LAKELINE_POLARS_QUEUE_URL"],
            bucket=env["LAKELINE_POLARS_RESULTS_BUCKET"],
            prefix=env["LAKELINE_POLARS_RESULTS_PREFIX"].rstrip("/"),
            max_run_s=float(env.get("LAKELINE_POLARS_MAX_RUN_S") or 880),
            memory_mb=int(env.get("LAKELINE_POLARS_MEMORY_MB") or 4096),
            sandbox_uid=int(uid) if uid else None,
        )

    def answer_key(self, request_id: str) -> str:
        return f"{self.prefix}/{request_id}/answer.json"


class Stop:
    """Set by SIGTERM or SIGINT: the loop finishes the current message, then exits."""

    def __init__(self) -> None:
        self.requested = False

    def request(self, *_: Any) -> None:
        self.requested = True

    def install(self) -> dict[int, Any]:
        """Installs the handler; returns the previous ones (tests restore them)."""
        return {sig: signal.signal(sig, self.request) for sig in (signal.SIGTERM, signal.SIGINT)}


class Malformed(Exception):
    """A message the runner cannot run; ``request_id`` when the caller can still be told."""

    def __init__(self, message: str, request_id: str | None = None) -> None:
        super().__init__(message)
        self.request_id = request_id


def internal(error: str) -> dict[str, Any]:
    return {"ok": False, "kind": "internal", "error": f"the sandbox task failed: {error}", "details": error}


def parse_envelope(body: str) -> dict[str, Any]:
    """The message's envelope, checked; the payload itself is the handler's to judge."""
    try:
        envelope = json.loads(body)
    except ValueError as err:
        raise Malformed(f"message body is not JSON: {err}") from None
    if not isinstance(envelope, dict):
        raise Malformed("message body is not an object")
    request_id = envelope.get("request_id")
    if not isinstance(request_id, str) or not request_id or "/" in request_id or request_id in (".", ".."):
        raise Malformed("message has no valid request_id")
    if not isinstance(envelope.get("deadline_ms"), (int, float)):
        raise Malformed("message has no deadline_ms", request_id)
    if not isinstance(envelope.get("payload"), dict) and not isinstance(envelope.get("payload_key"), str):
        raise Malformed("message has neither payload nor payload_key", request_id)
    return envelope


def load_payload(s3: Any, config: Config, envelope: dict[str, Any]) -> dict[str, Any]:
    """The inline payload, or the one the caller put in S3 because it exceeded SQS's limit."""
    if isinstance(envelope.get("payload"), dict):
        return envelope["payload"]
    key = envelope["payload_key"]
    if key != f"{config.prefix}/{envelope['request_id']}/request.json":
        raise Malformed(f"payload_key {key!r} is not this request's", envelope["request_id"])
    try:
        payload = json.loads(s3.get_object(Bucket=config.bucket, Key=key)["Body"].read())
    except ValueError as err:
        raise Malformed(f"the stored payload is not JSON: {err}", envelope["request_id"]) from None
    if not isinstance(payload, dict):
        raise Malformed("the stored payload is not an object", envelope["request_id"])
    return payload


def with_time_limit(payload: dict[str, Any], limit_s: float) -> dict[str, Any]:
    """The payload with its run limited to what the task allows and the caller still waits."""
    asked = payload.get("timeout_s")
    allowed = min(float(asked), limit_s) if isinstance(asked, (int, float)) and asked > 0 else limit_s
    return {**payload, "timeout_s": max(1.0, allowed)}


def put_answer(s3: Any, config: Config, request_id: str, answer: dict[str, Any]) -> None:
    body = json.dumps(answer, allow_nan=False, default=str).encode("utf-8")
    s3.put_object(Bucket=config.bucket, Key=config.answer_key(request_id), Body=body, ContentType="application/json")


def handle(message: dict[str, Any], *, sqs: Any, s3: Any, config: Config, run: Run, stop: Stop, now: Callable[[], float] = time.time) -> None:
    """Runs one message and answers it; never raises for the message's own faults."""
    receipt = message["ReceiptHandle"]
    if stop.requested:
        # Received while stopping: another task (or this tier's next one) takes it now.
        sqs.change_message_visibility(QueueUrl=config.queue_url, ReceiptHandle=receipt, VisibilityTimeout=0)
        return
    try:
        envelope = parse_envelope(message.get("Body", ""))
        request_id = envelope["request_id"]
        left_s = envelope["deadline_ms"] / 1000 - now()
        if left_s <= 0:
            log.warning("request %s expired %.1f s before it was received; dropped unrun", request_id, -left_s)
            answer = None
        else:
            payload = with_time_limit(load_payload(s3, config, envelope), min(config.max_run_s, left_s))
            answer = run_safely(run, payload)
    except Malformed as err:
        log.error("malformed message %s: %s", message.get("MessageId"), err)
        request_id, answer = err.request_id, internal(str(err)) if err.request_id else None
    if answer is not None and request_id is not None:
        put_answer(s3, config, request_id, answer)
    sqs.delete_message(QueueUrl=config.queue_url, ReceiptHandle=receipt)


def run_safely(run: Run, payload: dict[str, Any]) -> dict[str, Any]:
    try:
        answer = run(payload)
    except Exception as err:  # noqa: BLE001 - the caller gets an answer whatever failed
        log.exception("run failed")
        return internal(f"{type(err).__name__}: {err}"[:500])
    return answer if isinstance(answer, dict) else internal("the sandbox answered something other than an object")


def serve(*, sqs: Any, s3: Any, config: Config, run: Run, stop: Stop, now: Callable[[], float] = time.time, pause: Callable[[float], None] = time.sleep) -> None:
    """The loop: receive one message, run it, answer it; until stopped."""
    visibility = int(config.max_run_s) + VISIBILITY_MARGIN_S
    while not stop.requested:
        try:
            received = sqs.receive_message(QueueUrl=config.queue_url, MaxNumberOfMessages=1, WaitTimeSeconds=WAIT_SECONDS, VisibilityTimeout=visibility)
        except Exception:  # noqa: BLE001 - a network blip must not end the task
            log.exception("receive failed")
            pause(5)
            continue
        for message in received.get("Messages", []):
            try:
                handle(message, sqs=sqs, s3=s3, config=config, run=run, stop=stop, now=now)
            except Exception:  # noqa: BLE001 - the message comes back after its visibility timeout
                log.exception("message %s not answered", message.get("MessageId"))


class IsolatedRunner:
    """Runs each payload in a fresh worker process as the sandbox uid; one worker waits warm."""

    def __init__(self, config: Config, python: str = sys.executable, root: str = WORKER_ROOT) -> None:
        self.config = config
        self.python = python
        self.root = root
        self.worker: subprocess.Popen[bytes] | None = None

    def worker_env(self) -> dict[str, str]:
        """Built from scratch: nothing of the task's (credentials URI, metadata URI, queue) leaks in."""
        return {
            "PATH": "/var/lang/bin:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "HOME": self.root,
            "PYTHONPATH": CODE_DIR,
            "PYTHONDONTWRITEBYTECODE": "1",
            "POLARS_MAX_THREADS": os.environ.get("POLARS_MAX_THREADS", "1"),
            # The run's S3 clients need the region and, where the task has one, its S3 endpoint (an
            # emulator in the tests; unset in AWS): no secret. Its credentials come in the payload.
            **{name: os.environ[name] for name in WORKER_AWS_SETTINGS if os.environ.get(name)},
            # The handler sizes the run's memory limit from Lambda's variable; here it is the task's,
            # less what the runner holds.
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(max(1024, self.config.memory_mb - 256)),
        }

    def start(self) -> None:
        """Starts the next worker (it imports polars while the runner waits for a message)."""
        uid = self.config.sandbox_uid
        if uid is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            os.mkdir(self.root, 0o700)
            os.chown(self.root, uid, uid)
        extra: dict[str, Any] = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
        self.worker = subprocess.Popen(
            [self.python, "-m", "lakeline_polars.task_runner", "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=self.worker_env(),
            cwd=CODE_DIR,
            start_new_session=True,
            **extra,
        )

    def __call__(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.worker is None:
            self.start()
        worker = self.worker
        assert worker is not None and worker.stdin is not None and worker.stdout is not None
        try:
            worker.stdin.write(json.dumps(payload).encode("utf-8") + b"\n")
            worker.stdin.close()
            line = read_line(worker.stdout, float(payload.get("timeout_s") or self.config.max_run_s) + WORKER_GRACE_S)
        except BrokenPipeError:
            line = None
        finally:
            self.retire()
            self.start()
        if line is None:
            return internal("the sandbox worker died or did not answer in time")
        return json.loads(line)

    def retire(self) -> None:
        """Kills the worker and everything it left behind, then reaps it."""
        worker, self.worker = self.worker, None
        if worker is None:
            return
        if self.config.sandbox_uid is not None:
            kill_uid(self.config.sandbox_uid)
        else:
            try:
                os.killpg(worker.pid, signal.SIGKILL)
            except OSError:
                pass
        worker.wait()
        for stream in (worker.stdin, worker.stdout):
            if stream is not None and not stream.closed:
                stream.close()


def read_line(stream: Any, timeout_s: float) -> bytes | None:
    """One line from the worker, or None at EOF or after the timeout (a stray may hold the pipe)."""
    fd, data, end = stream.fileno(), b"", time.monotonic() + timeout_s
    while b"\n" not in data:
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return None
        data += chunk
    return data.split(b"\n", 1)[0]


def kill_uid(uid: int) -> None:
    """SIGKILLs every process of ``uid``: ``kill(-1)`` from a child that became that uid."""
    for _ in range(2):  # a second pass catches a child forked while the first was delivered
        pid = os.fork()
        if pid == 0:
            try:
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
                os.kill(-1, signal.SIGKILL)
            except OSError:
                pass
            os._exit(0)
        os.waitpid(pid, 0)


def worker_main() -> None:
    """The worker: warm polars, read one event, run it with the Lambda handler, answer, exit."""
    answer_fd = os.dup(1)
    os.dup2(2, 1)  # whatever the imports print goes to the log, not into the answer
    from . import lambda_handler

    event = json.loads(sys.stdin.readline())
    # Scripts included: this worker runs as a uid of its own (the Lambda entry point refuses them).
    answer = lambda_handler.run_event(event)
    os.write(answer_fd, json.dumps(answer, allow_nan=False, default=str).encode("utf-8") + b"\n")


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    config = Config.from_env(os.environ)
    if config.sandbox_uid is None or os.geteuid() != 0:
        # Nothing runs unconfined: without the uid drop a script could use the task role.
        raise SystemExit("lakeline_polars.task_runner: LAKELINE_SANDBOX_UID must be set and the runner must start as root")
    import boto3  # in the Lambda base image; imported here so the tests need no AWS SDK

    stop = Stop()
    stop.install()
    runner = IsolatedRunner(config)
    runner.start()
    log.info("serving %s", config.queue_url)
    try:
        serve(sqs=boto3.client("sqs"), s3=boto3.client("s3"), config=config, run=runner, stop=stop)
    finally:
        runner.retire()
    log.info("stopped")


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker_main()
    else:
        main()
