/**
 * @module schemas/query
 * The query endpoints: routed (`/api/v1/query`), legacy DuckDB (`/api/v1/warehouse/query`),
 * polars (`/api/v1/warehouse/polars`) and managed Spark (`/api/v2/spark/query`).
 */
import { JobIdentity, QualifiedTableName, TableRef, TabularResult, WriteMode } from './common.ts';
import { z } from './zod.ts';

/** Engines the routed endpoint can name. */
export const RoutedEngine = z.enum(['auto', 'duckdb', 'polars', 'bloom', 'spark']);

/** `POST /api/v1/query` body. Mutual exclusion of query/script is checked by the use case. */
export const RoutedQueryRequest = z
  .object({
    query: z.string().min(1).optional(),
    script: z.string().min(1).optional(),
    tables: z.array(TableRef).default([]),
    engine: RoutedEngine.default('auto'),
    destination: QualifiedTableName.optional(),
    write_mode: WriteMode.default('overwrite'),
    explain: z.boolean().default(false),
  })
  .strict()
  .openapi('RoutedQueryRequest');

/** The routing decision. */
export const EngineDecision = z
  .object({
    engine: z.string(),
    execution_mode: z.enum(['interactive', 'batch']),
    reasons: z.array(z.string()),
    size_band: z.string(),
    estimated_input_bytes: z.string(),
    vcpus: z.number().int(),
    sandbox: z.object({ vcpus: z.number().int(), memory_gb: z.number().int() }),
    input_tables: z.array(z.string()),
  })
  .openapi('EngineDecision');

/** `UnifiedQueryResponse`. */
export const UnifiedQueryResponse = z
  .object({
    success: z.boolean(),
    explain: z.literal(true).optional(),
    engine_decision: EngineDecision,
    results: TabularResult.optional(),
    row_count: z.number().int().optional(),
    execution_time: z.string().optional(),
    state: z.enum(['COMPLETE', 'SUBMITTED']).optional(),
    run_id: z.string().optional(),
    output_table: z.string().optional(),
    compute: z.record(z.string(), z.unknown()).optional(),
    job: JobIdentity.optional(),
  })
  .openapi('UnifiedQueryResponse');

/** `POST /api/v1/warehouse/query` body. */
export const LegacyQueryRequest = z
  .object({ query: z.string().min(1), autoSaveByHash: z.boolean().default(false) })
  .strict()
  .openapi('LegacyQueryRequest');

const ExecutionSummary = z.object({
  success: z.boolean(),
  results: TabularResult,
  row_count: z.number().int(),
  execution_time: z.string(),
});

/** `QueryResponse`. */
export const LegacyQueryResponse = ExecutionSummary.extend({
  query: z.string(),
  job: JobIdentity,
  explainResult: ExecutionSummary.optional(),
}).openapi('QueryResponse');

/** Sandbox tiers of the polars endpoint. */
export const PolarsVcpus = z.union([z.literal(2), z.literal(4), z.literal(8), z.literal(16), z.literal(32)]);

/** `POST /api/v1/warehouse/polars` body. */
export const PolarsRequest = z
  .object({
    mode: z.enum(['query', 'script']),
    query: z.string().min(1).optional(),
    tables: z.array(TableRef).optional(),
    script: z.string().min(1).optional(),
    params: z.record(z.string(), z.string()).optional(),
    distributed: z.boolean().default(false),
    instanceType: z.string().optional(),
    clusterSize: z.number().int().positive().optional(),
    vcpus: PolarsVcpus.default(2),
    catalog: z.string().optional(),
    destination: QualifiedTableName.optional(),
    saveMode: WriteMode.default('overwrite'),
  })
  .strict()
  .openapi('PolarsRequest');

/** `PolarsResponse`. */
export const PolarsResponse = z
  .object({
    success: z.boolean(),
    results: TabularResult.optional(),
    row_count: z.number().int(),
    execution_time: z.string(),
    error: z.string().optional(),
    saved: z.object({ table: z.string(), rows_written: z.number().int(), mode: WriteMode }).optional(),
    compute: z.object({
      mode: z.string(),
      distributed: z.boolean(),
      instanceType: z.string().nullable(),
      clusterSize: z.number().int().nullable(),
    }),
  })
  .openapi('PolarsResponse');

/** Spark machine types: `spark.<n>.<c|b|m>`. */
export const SparkMachineType = z.string().regex(/^spark\.(1|2|4|8|16)\.(c|b|m)$/, 'must be spark.<1|2|4|8|16>.<c|b|m>');

/** `POST /api/v2/spark/query` body. */
export const SparkQueryRequest = z
  .object({
    namespace: z.string().min(1),
    name: z.string().min(1),
    query: z.string().min(1),
    output_table: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/, 'must be catalog.namespace.table'),
    driver_machine_type: SparkMachineType.default('spark.1.b'),
    executor_machine_type: SparkMachineType.default('spark.1.b'),
    executor_numbers: z.number().int().min(1).max(20).default(1),
  })
  .strict()
  .openapi('SparkQueryRequest');

/** Spark answer. */
export const SparkQueryResponse = z
  .object({ run_id: z.string().uuid(), job: JobIdentity, output_table: z.string(), status: z.string() })
  .openapi('SparkQueryResponse');

/** A run as `GET /api/v1/runs/{run_id}` returns it. */
export const Run = z
  .object({
    run_id: z.string().uuid(),
    engine: z.string(),
    state: z.enum(['RUNNING', 'COMPLETE', 'FAIL', 'ABORT']),
    job: JobIdentity,
    created_at: z.string(),
    updated_at: z.string(),
    ended_at: z.string().optional(),
    error: z.string().optional(),
    output_table: z.string().optional(),
    rows_written: z.number().int().optional(),
    compute: z.record(z.string(), z.unknown()).optional(),
    vcpu_seconds: z.number().optional(),
    results: TabularResult.optional(),
  })
  .openapi('Run');

/** A lake table's summary. */
export const TableSummary = z
  .object({ namespace: z.string(), name: z.string(), table: z.string() })
  .openapi('TableSummary');

/** A described lake table. */
export const TableDescription = z
  .object({
    namespace: z.string(),
    name: z.string(),
    location: z.string(),
    format_version: z.number().int(),
    schema: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string(), required: z.boolean() })),
    partition_spec: z.array(
      z.object({ source_id: z.number().int(), field_id: z.number().int(), name: z.string(), transform: z.string(), source_column: z.string().nullable() }),
    ),
    current_snapshot_id: z.string().nullable(),
    current_snapshot_time: z.string().nullable(),
    size_bytes: z.string(),
    record_count: z.string(),
    data_file_count: z.number().int(),
    delete_file_count: z.number().int(),
    snapshots: z.array(
      z.object({
        snapshot_id: z.string(),
        parent_snapshot_id: z.string().nullable(),
        timestamp: z.string(),
        operation: z.string().nullable(),
        summary: z.record(z.string(), z.string()),
      }),
    ),
  })
  .openapi('TableDescription');
