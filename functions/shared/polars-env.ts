/**
 * @module polars-env
 * Environment variable names of the polars sandbox, shared by the composition root and the CDK
 * construct that sets them (kept apart from env-names.ts so the polars pieces stay together).
 */

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
