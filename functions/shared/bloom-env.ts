/**
 * @module bloom-env
 * Environment variable names of the bloom engine, shared by its composition root
 * (`container-bloom.ts`) and the CDK construct that sets them (`lib/bloom.ts`).
 */

/** `0` turns bloom off in the local profile; anything else (or unset) leaves it on when installed. */
export const BLOOM_ENV = 'LAKELINE_BLOOM';
/** The Athena workgroup of bloom (AWS; set by `lib/bloom.ts`). */
export const BLOOM_WORKGROUP_ENV = 'LAKELINE_BLOOM_WORKGROUP';
/** The local Trino install (default `.lakeline/trino/trino-server-476`). */
export const TRINO_HOME_ENV = 'LAKELINE_TRINO_HOME';
/** Heap of the local Trino server in MB (default 2048). */
export const TRINO_HEAP_ENV = 'LAKELINE_TRINO_HEAP_MB';
