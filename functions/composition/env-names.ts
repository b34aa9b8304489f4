/**
 * @module env-names
 * Every environment variable of the service, by name: read in one place (`config.ts`), set by the
 * CDK constructs (`lib/`) and the local stack, so the readers and the writers cannot drift apart.
 * Grouped by what they configure; each says which profile reads it.
 */

/** `aws` or `local`: which adapters the composition root builds. */
export const PROFILE_ENV = 'LAKELINE_PROFILE';
/** Directory holding local state (`.lakeline/` by default). Local profile only. */
export const HOME_ENV = 'LAKELINE_HOME';
/** Endpoint of the local DynamoDB API (dynalite). Local profile only. */
export const DYNAMODB_ENDPOINT_ENV = 'LAKELINE_DYNAMODB_ENDPOINT';
/** Bucket holding raw bodies of events above the DynamoDB item limit. AWS profile only. */
export const BLOB_BUCKET_ENV = 'LAKELINE_BLOB_BUCKET';
/** Secrets Manager secret (AWS) whose value signs session cookies. */
export const SESSION_SECRET_ARN_ENV = 'LAKELINE_SESSION_SECRET_ARN';
/** Local profile: the session signing secret itself (read from `.lakeline/session-secret`). */
export const SESSION_SECRET_ENV = 'LAKELINE_SESSION_SECRET';
/**
 * Milliseconds the authorizer trusts a fetched API key record (default 30000). It bounds how long a
 * revoked key keeps working in a warm container; tests set 0 to see revocations at once.
 */
export const AUTH_CACHE_TTL_ENV = 'LAKELINE_AUTH_CACHE_TTL_MS';
/**
 * The public API's own base URL, which the MCP server's tools call as the caller (ADR 0048): set by
 * the CDK to the HTTP API's endpoint, and by the local stack to its gateway's address.
 */
export const API_URL_ENV = 'LAKELINE_API_URL';
/** Log level for the structured logger. */
export const LOG_LEVEL_ENV = 'LAKELINE_LOG_LEVEL';
/** Directory holding the DuckDB extension files (`iceberg.duckdb_extension`, ...). */
export const DUCKDB_EXTENSION_DIR_ENV = 'LAKELINE_DUCKDB_EXTENSION_DIR';
/** AWS: the warehouse root (`s3://bucket/warehouse`). */
export const WAREHOUSE_URI_ENV = 'LAKELINE_WAREHOUSE_URI';
/** AWS: the lake writer Lambda's name. */
export const LAKE_WRITER_FUNCTION_ENV = 'LAKELINE_LAKE_WRITER_FUNCTION';
/** Local: the Python interpreter of the lake writer (the project venv by default). */
export const PYTHON_ENV = 'LAKELINE_PYTHON_BIN';
/** Local: set to `0` to skip loading the TPC-H demo data on first start. */
export const DEMO_DATA_ENV = 'LAKELINE_DEMO_DATA';
/** Local: set to `0` to skip seeding the demo lineage history on first start (ADR 0044). */
export const DEMO_LINEAGE_ENV = 'LAKELINE_DEMO_LINEAGE';
/** Local: most cores one Spark run may use (default: every core of the machine). */
export const SPARK_MAX_CORES_ENV = 'LAKELINE_SPARK_MAX_CORES';
/** Local: memory all Spark runs at once may take together, in MB (default: half the machine's memory). */
export const SPARK_MAX_MEMORY_MB_ENV = 'LAKELINE_SPARK_MAX_MEMORY_MB';
/** Local: most Spark runs with a JVM at once; more are QUEUED (default: what the memory holds at 2 GB each, at most one per core). */
export const SPARK_MAX_CONCURRENT_ENV = 'LAKELINE_SPARK_MAX_CONCURRENT';
/** Local: largest input (bytes) of a Spark job the warm driver runs (ADR 0059); `0` turns it off. */
export const SPARK_WARM_MAX_INPUT_BYTES_ENV = 'LAKELINE_SPARK_WARM_MAX_INPUT_BYTES';
/** AWS: the EMR Serverless application that runs Spark jobs. */
export const EMR_APPLICATION_ID_ENV = 'LAKELINE_EMR_APPLICATION_ID';
/** AWS: the execution role EMR Serverless job runs assume. */
export const EMR_EXECUTION_ROLE_ARN_ENV = 'LAKELINE_EMR_EXECUTION_ROLE_ARN';
/** AWS: the EMR release label of the application (named in lineage until a run reports its Spark version). */
export const EMR_RELEASE_LABEL_ENV = 'LAKELINE_EMR_RELEASE_LABEL';
/** AWS: S3 URI of the Spark job entry script (`run_job.py`). */
export const SPARK_JOB_SCRIPT_URI_ENV = 'LAKELINE_SPARK_JOB_SCRIPT_URI';
/** AWS: S3 URI of the zipped `lakeline_spark` package the entry script imports. */
export const SPARK_JOB_PACKAGE_URI_ENV = 'LAKELINE_SPARK_JOB_PACKAGE_URI';
/** AWS: S3 prefix where runs' job specs and result documents live (`s3://bucket/runs`). */
export const SPARK_RUNS_URI_ENV = 'LAKELINE_SPARK_RUNS_URI';
/**
 * Bytes of estimated input up to which `POST /api/v1/query` answers a read in the request; above
 * it a read runs on Spark. Unset: the routing table's measured limit (`functions/domain/routing/table.ts`).
 */
export const ROUTING_INTERACTIVE_LIMIT_ENV = 'LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES';
/**
 * Bytes of estimated input up to which a batch read of `POST /api/v1/query` runs on bloom (where it
 * is configured); above it on Spark. Unset: the routing table's 64 GiB.
 */
export const ROUTING_BLOOM_LIMIT_ENV = 'LAKELINE_ROUTING_BLOOM_LIMIT_BYTES';
/** Days a routed read's results table (`lakeline_results.r_<run>`) is kept; default 7. */
export const RESULTS_TTL_DAYS_ENV = 'LAKELINE_RESULTS_TTL_DAYS';
/** Days of events the lineage tables keep (unset: all, as the event store keeps every event; ADR 0056). */
export const LINEAGE_RETENTION_DAYS_ENV = 'LAKELINE_LINEAGE_RETENTION_DAYS';
/**
 * The AWS SDKs' standard endpoint variables (the AWS SDK for JavaScript v3, boto3 and the AWS SDK
 * for Java v2 read them themselves): every service's endpoint, and S3's own. Unset in a deployment;
 * the tests set them to point the AWS profile at an emulator. lakeline reads them only for the
 * libraries that do not (DuckDB's S3 secret; pyarrow's S3 file system in the Python parts).
 */
export const AWS_ENDPOINT_URL_ENV = 'AWS_ENDPOINT_URL';
export const AWS_ENDPOINT_URL_S3_ENV = 'AWS_ENDPOINT_URL_S3';
/** AWS: the function's memory in MB, set by Lambda itself; it bounds DuckDB's memory. */
export const LAMBDA_MEMORY_ENV = 'AWS_LAMBDA_FUNCTION_MEMORY_SIZE';

// Bloom (distributed SQL: Athena in AWS, Trino locally).

/** Local: `0` turns bloom off; `eager` starts its Trino server with the stack; unset: started on the first bloom statement. */
export const BLOOM_ENV = 'LAKELINE_BLOOM';
/** The Athena workgroup of bloom (AWS; set by `lib/bloom.ts`). */
export const BLOOM_WORKGROUP_ENV = 'LAKELINE_BLOOM_WORKGROUP';
/** The local Trino install (default `.lakeline/trino/trino-server-<TRINO_VERSION>`). */
export const TRINO_HOME_ENV = 'LAKELINE_TRINO_HOME';
/** Heap of the local Trino server in MB (default 2048). */
export const TRINO_HEAP_ENV = 'LAKELINE_TRINO_HEAP_MB';
/** Local: the JDK (24+) the Trino server runs on (default: JAVA_HOME when recent enough, else the newest under `/usr/lib/jvm`). */
export const TRINO_JAVA_HOME_ENV = 'LAKELINE_TRINO_JAVA_HOME';

// polars sandboxes (Lambda tiers 2 and 4 vCPUs, Fargate tiers 8 and 16; bubblewrap workers locally).

/** Local: wall-clock limit of one polars run, in seconds (default 1700). */
export const POLARS_TIMEOUT_ENV = 'LAKELINE_POLARS_TIMEOUT_S';
/** Local: most warm sandbox workers at once (default: the host's cores, 1 to 4). */
export const POLARS_WORKERS_ENV = 'LAKELINE_POLARS_WORKERS';
/** AWS: name of the sandbox Lambda of a tier: `LAKELINE_POLARS_FUNCTION_2`, `_4`. */
export const polarsFunctionEnv = (vcpus: number): string => `LAKELINE_POLARS_FUNCTION_${vcpus}`;
/** AWS: ARN of the sandbox data role the polars routes assume per run (scoped by a session policy). */
export const POLARS_DATA_ROLE_ENV = 'LAKELINE_POLARS_DATA_ROLE_ARN';
/**
 * AWS: `s3://<warehouse bucket>/polars-staging`, where destination runs stage their result; set on
 * the polars routes and on the lake writer, which reads staged results only below it.
 */
export const POLARS_STAGING_URI_ENV = 'LAKELINE_POLARS_STAGING_URI';

/** The polars tiers that run on ECS Fargate when provisioned (Fargate's largest task has 16 vCPUs). */
export const POLARS_FARGATE_TIERS = [8, 16] as const;

/** Caller: URL of the queue of a Fargate tier: `LAKELINE_POLARS_QUEUE_8`, `_16`. Unset: tier not offered. */
export const polarsQueueEnv = (vcpus: number): string => `LAKELINE_POLARS_QUEUE_${vcpus}`;
/** Caller and task: the bucket holding requests too large for a message and every answer. */
export const POLARS_RESULTS_BUCKET_ENV = 'LAKELINE_POLARS_RESULTS_BUCKET';
/** Caller and task: the key prefix (no trailing slash) of those objects: `<prefix>/<request id>/…`. */
export const POLARS_RESULTS_PREFIX_ENV = 'LAKELINE_POLARS_RESULTS_PREFIX';

/** Task: the URL of the one queue the task serves. */
export const POLARS_TASK_QUEUE_URL_ENV = 'LAKELINE_POLARS_QUEUE_URL';
/** Task: longest run it accepts, in seconds (the queue's visibility timeout covers it). */
export const POLARS_TASK_MAX_RUN_ENV = 'LAKELINE_POLARS_MAX_RUN_S';
/** Task: memory of the task in MB; the runner hands it to the Lambda handler's memory limit. */
export const POLARS_TASK_MEMORY_ENV = 'LAKELINE_POLARS_MEMORY_MB';
/** Task: the unprivileged uid the sandbox worker runs as (the runner keeps the task role to itself). */
export const POLARS_TASK_SANDBOX_UID_ENV = 'LAKELINE_SANDBOX_UID';

/**
 * The stream's fan-out (AWS): URL of a feed subscriber's queue, `LAKELINE_FEED_QUEUE_<NAME>` with the
 * subscriber's name in capitals and `-` as `_` (`LAKELINE_FEED_QUEUE_LINEAGE_MODEL`). Unset: the
 * fan-out does not send to that subscriber.
 */
export const feedQueueEnv = (subscriber: string): string => `LAKELINE_FEED_QUEUE_${subscriber.toUpperCase().replace(/-/g, '_')}`;
/** The prefix of {@link feedQueueEnv}. */
export const FEED_QUEUE_ENV_PREFIX = 'LAKELINE_FEED_QUEUE_';

/**
 * Local: a file holding an ISO 8601 instant that the alerts' clock reads as "now" (tests of a late
 * table move it); unset, absent or unreadable: the machine's clock.
 */
export const CLOCK_FILE_ENV = 'LAKELINE_CLOCK_FILE';
/** Local: milliseconds between the late-table checks of the local stack's timer (default 60 000). */
export const FRESHNESS_CHECK_MS_ENV = 'LAKELINE_FRESHNESS_CHECK_MS';
/** The alert notifications' SQS FIFO delivery queue (AWS; ADR 0054), for the functions that queue deliveries. */
export const NOTIFICATIONS_QUEUE_URL_ENV = 'LAKELINE_NOTIFICATIONS_QUEUE_URL';
