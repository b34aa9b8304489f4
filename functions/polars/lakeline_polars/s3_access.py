"""S3 access of one run in the AWS sandboxes, with the run's own scoped credentials only.

The Node function issues each run short-lived credentials (STS ``AssumeRole`` of the sandbox data
role with a session policy naming the run's table directories and, for a destination, its staging
prefix) and sends them with the event. The forked child passes them explicitly to every S3 client
it uses (pyiceberg's FileIO properties, which polars also translates for its native reader, and
pyarrow's S3 file system for the result file), and removes the function's own credentials from its
environment before any caller code runs, so no client falls back to them.

Removing them from ``os.environ`` is not enough on its own: ``/proc/self/environ`` still shows the
environment the process started with. That is why the function's execution role has no data access
at all (logs only; ``lib/polars.ts``): what a script can find there opens nothing of the lake.
"""
from __future__ import annotations

import os
import shutil
from collections.abc import MutableMapping
from typing import Any

#: What stays of ``AWS_*``: the region, which S3 clients need and which is no secret.
KEPT = frozenset({"AWS_REGION", "AWS_DEFAULT_REGION"})
#: Prefixes of the variables removed: credentials (``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``,
#: ``AWS_SESSION_TOKEN``), the container credential endpoint (``AWS_CONTAINER_*``), the runtime API
#: (``AWS_LAMBDA_RUNTIME_API``) and whatever else the platform sets; an allow-list, not a deny-list.
REMOVED_PREFIXES = ("AWS_", "_AWS_", "_X_AMZN_")


def scrub_own_credentials(environ: MutableMapping[str, str]) -> list[str]:
    """Removes the function's own credentials and endpoints; returns the names removed."""
    removed = sorted(name for name in environ if name.startswith(REMOVED_PREFIXES) and name not in KEPT)
    for name in removed:
        del environ[name]
    # Without credentials in the environment an SDK would ask the instance metadata service next.
    environ["AWS_EC2_METADATA_DISABLED"] = "true"
    return removed


def storage_options(credentials: Any, region: str, endpoint: str | None = None) -> dict[str, str]:
    """pyiceberg FileIO properties for the run's credentials (polars maps them for its own reader);
    ``endpoint`` is an S3 endpoint other than the region's (an emulator), unset in AWS."""
    if not isinstance(credentials, dict):
        raise ValueError("credentials: must be an object")
    keys = ("access_key_id", "secret_access_key", "session_token")
    values = {k: credentials.get(k) for k in keys}
    missing = [k for k, v in values.items() if not isinstance(v, str) or not v]
    if missing:
        raise ValueError(f"credentials: {', '.join(missing)} missing")
    if not region:
        raise ValueError("region: unknown (AWS_REGION is not set)")
    return {
        "s3.access-key-id": values["access_key_id"],
        "s3.secret-access-key": values["secret_access_key"],
        "s3.session-token": values["session_token"],
        "s3.region": region,
        **({"s3.endpoint": endpoint} if endpoint else {}),
    }


def _split(uri: str) -> str:
    if not uri.startswith("s3://") or "/" not in uri[5:]:
        raise ValueError(f"output_uri: must be s3://bucket/key, not {uri!r}")
    return uri[5:]


def put_file(local: str, uri: str, options: dict[str, str]) -> None:
    """Uploads a local file to ``s3://bucket/key`` with the run's credentials (never the function's)."""
    from pyarrow import fs

    s3 = fs.S3FileSystem(
        access_key=options["s3.access-key-id"],
        secret_key=options["s3.secret-access-key"],
        session_token=options["s3.session-token"],
        region=options["s3.region"],
        endpoint_override=options.get("s3.endpoint"),
    )
    with open(local, "rb") as source, s3.open_output_stream(_split(uri)) as target:
        shutil.copyfileobj(source, target, 8 * 1024 * 1024)


def region_of_function() -> str:
    """The function's region (read by the parent; the bucket is in the stack's region)."""
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or ""


def s3_endpoint_of_function() -> str | None:
    """An S3 endpoint other than the region's, set by the AWS SDKs' standard variables
    (``AWS_ENDPOINT_URL_S3``, else ``AWS_ENDPOINT_URL``): an emulator in the tests, unset in AWS.
    Read by the parent, like the region: the child's scrub removes every ``AWS_`` variable."""
    return os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL") or None
