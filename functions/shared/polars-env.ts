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
