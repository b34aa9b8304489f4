/**
 * @module env-names
 * Environment variable names shared by the CDK constructs (`lib/`) and the runtime config
 * (`functions/shared/config.ts`), so the two can never drift apart.
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
/** Local: most cores one Spark run may use (default: every core of the machine). */
export const SPARK_MAX_CORES_ENV = 'LAKELINE_SPARK_MAX_CORES';
/** Local: memory all Spark runs at once may take together, in MB (default: half the machine's memory). */
export const SPARK_MAX_MEMORY_MB_ENV = 'LAKELINE_SPARK_MAX_MEMORY_MB';
/** Local: most Spark runs with a JVM at once; more are QUEUED (default: what the memory holds at 2 GB each, at most one per core). */
export const SPARK_MAX_CONCURRENT_ENV = 'LAKELINE_SPARK_MAX_CONCURRENT';
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
/** Days a routed read's results table (`lakeline_results.r_<run>`) is kept; default 7. */
export const RESULTS_TTL_DAYS_ENV = 'LAKELINE_RESULTS_TTL_DAYS';
/**
 * The AWS SDKs' standard endpoint variables (the AWS SDK for JavaScript v3, boto3 and the AWS SDK
 * for Java v2 read them themselves): every service's endpoint, and S3's own. Unset in a deployment;
 * the tests set them to point the AWS profile at an emulator. lakeline reads them only for the
 * libraries that do not (DuckDB's S3 secret; pyarrow's S3 file system in the Python parts).
 */
export const AWS_ENDPOINT_URL_ENV = 'AWS_ENDPOINT_URL';
export const AWS_ENDPOINT_URL_S3_ENV = 'AWS_ENDPOINT_URL_S3';
