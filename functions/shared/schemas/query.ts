/**
 * @module schemas/query
 * The query endpoints: routed (`/api/v1/query`), legacy DuckDB (`/api/v1/warehouse/query`),
 * polars (`/api/v1/warehouse/polars`) and managed Spark (`/api/v2/spark/query`).
 */
import { boundedText, JobIdentity, QualifiedTableName, TableRef, TabularResult, WriteMode } from './common.ts';
import { MAX_SCRIPT_CHARS, MAX_SHORT_TEXT_CHARS, MAX_SQL_LENGTH } from '#domain/input-limits';
import { MAX_JOB_PART_CHARS, MAX_RUN_SQL_CHARS } from '#domain/runs/spark-request';
import { ValidationError } from '#domain/errors';
import { ENGINES } from '#domain/core/plans';
import { DEFAULT_MACHINE_TYPE, EXECUTORS, MACHINE_TYPE_NAMES } from '#domain/core/machine-types';
import { RESULTS_PAGE } from '#domain/runs/results';
import { z } from './zod.ts';

/** Engines the routed endpoint can name. */
export const RoutedEngine = z.enum(['auto', 'duckdb', 'polars', 'bloom', 'spark']);

/**
 * `POST /api/v1/query` body. The rules across fields (exactly one of query and script, tables only
 * with a script) are checked by the use case (`domain/routing/request.ts`) and stated to the
 * document as JSON Schema: one of two shapes.
 */
export const RoutedQueryRequest = z
  .object({
    query: boundedText(MAX_SQL_LENGTH).min(1).optional(),
    script: boundedText(MAX_SCRIPT_CHARS).min(1).optional(),
    tables: z.array(TableRef).default([]),
    engine: RoutedEngine.default('auto'),
    destination: QualifiedTableName.optional(),
    write_mode: WriteMode.default('overwrite'),
    explain: z.boolean().default(false),
  })
  .strict()
  .openapi('RoutedQueryRequest', {
    oneOf: [
      { title: 'query', required: ['query'], properties: { tables: { maxItems: 0 } } },
      // A script's output is written through the polars endpoint, not this one (`domain/routing/decide.ts`).
      { title: 'script', required: ['script'], not: { required: ['destination'] } },
    ],
  } as object);

/** The routing decision. */
export const EngineDecision = z
  .object({
    engine: z.enum(ENGINES),
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
    success: z.literal(true),
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
  .object({
    query: boundedText(MAX_SQL_LENGTH).min(1),
    autoSaveByHash: z.boolean().default(false),
    // Not in the contract's table: the contract lists `explainResult` as optional without saying
    // when it is present, so callers ask for it (docs/adr/0014-legacy-endpoint-and-autosave.md).
    explain: z.boolean().default(false).openapi({ description: 'Also return DuckDB\'s plan of the query as `explainResult`; the query still runs.' }),
  })
  .strict()
  .openapi('LegacyQueryRequest');

/** A valid legacy query request. */
export type LegacyQueryRequestBody = z.infer<typeof LegacyQueryRequest>;

const issueText = (issue: z.core.$ZodIssue): string => {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  if (issue.code === 'unrecognized_keys') return `${issue.keys.join(', ')}: ${issue.keys.length > 1 ? 'are not fields' : 'is not a field'} of this request`;
  if (issue.code === 'invalid_type') return issue.input === undefined ? `${field}: is required` : `${field}: must be ${issue.expected === 'object' ? 'a JSON object' : `a ${issue.expected}`}`;
  if (issue.code === 'too_small') return `${field}: must not be empty`;
  return `${field}: ${issue.message}`;
};

/**
 * Validates a legacy query body; the error message names the field (`query: is required`).
 *
 * @throws {ValidationError} naming the first offending field
 */
export const parseLegacyQueryRequest = (value: unknown): LegacyQueryRequestBody => {
  const parsed = LegacyQueryRequest.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new ValidationError(parsed.error.issues.map(issueText).join('; '));
};

/** A routed query body as the schema parsed it. */
export type RoutedQueryRequestBody = z.infer<typeof RoutedQueryRequest>;

/**
 * Validates a routed query body's shape; the message names the field (`engine: …`). The rules
 * across fields (query xor script, tables only with a script) are the use case's.
 *
 * @throws {ValidationError} naming the offending fields
 */
export const parseRoutedQueryRequest = (value: unknown): RoutedQueryRequestBody => {
  const parsed = RoutedQueryRequest.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new ValidationError(parsed.error.issues.map(issueText).join('; '));
};

const ExecutionSummary = z.object({
  success: z.literal(true),
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
/**
 * `POST /api/v1/warehouse/polars` body. The rules across fields (what each mode takes; instanceType
 * and clusterSize only when distributed) are the use case's (`domain/polars`), stated to the
 * document as JSON Schema.
 */
export const PolarsRequest = z
  .object({
    mode: z.enum(['query', 'script']),
    query: boundedText(MAX_SQL_LENGTH).min(1).optional(),
    tables: z.array(TableRef).optional(),
    script: boundedText(MAX_SCRIPT_CHARS).min(1).optional(),
    params: z.record(boundedText(MAX_SHORT_TEXT_CHARS), boundedText(MAX_SHORT_TEXT_CHARS)).optional(),
    distributed: z.boolean().default(false),
    instanceType: boundedText(MAX_SHORT_TEXT_CHARS).optional(),
    clusterSize: z.number().int().positive().optional(),
    vcpus: PolarsVcpus.default(2),
    // Only the caller's own catalog, `lakeline` in any case (the use case names it in its 400).
    catalog: z
      .string()
      .regex(/^[Ll][Aa][Kk][Ee][Ll][Ii][Nn][Ee]$/, { error: (issue) => `'${String(issue.input).slice(0, 64)}' is not available; use lakeline (your organization's catalog)` })
      .optional()
      .openapi({ description: 'lakeline (any case): your organization\'s catalog, the default' }),
    destination: QualifiedTableName.optional(),
    saveMode: WriteMode.default('overwrite'),
  })
  .strict()
  .openapi('PolarsRequest', {
    allOf: [
      {
        oneOf: [
          { title: 'query mode', properties: { mode: { const: 'query' }, tables: { minItems: 1 } }, required: ['query', 'tables'], not: { anyOf: [{ required: ['script'] }, { required: ['params'] }] } },
          { title: 'script mode', properties: { mode: { const: 'script' } }, required: ['script'], not: { required: ['query'] } },
        ],
      },
      {
        anyOf: [
          { title: 'distributed', properties: { distributed: { const: true } }, required: ['distributed'] },
          { title: 'local', not: { anyOf: [{ required: ['instanceType'] }, { required: ['clusterSize'] }] } },
        ],
      },
    ],
  } as object);

/** `PolarsResponse`. */
export const PolarsResponse = z
  .object({
    success: z.literal(true),
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

/** Spark machine types: `spark.<n>.<c|b|m>` (the table in `domain/core/machine-types.ts`). */
export const SparkMachineType = z
  .enum(MACHINE_TYPE_NAMES as [string, ...string[]], { error: `unknown machine type; use one of ${MACHINE_TYPE_NAMES.join(', ')}` })
  .openapi({ description: 'spark.<n>.<c|b|m>: n vCPUs (1, 2, 4, 8, 16) with 2n (c), 4n (b) or 8n (m) GB' });

const executorRange = `must be a whole number from ${EXECUTORS.min} to ${EXECUTORS.max}`;

/** `POST /api/v2/spark/query` body. */
export const SparkQueryRequest = z
  .object({
    namespace: boundedText(MAX_JOB_PART_CHARS).min(1, 'must not be empty').openapi({ description: 'Job namespace in lineage and run history' }),
    name: boundedText(MAX_JOB_PART_CHARS).min(1, 'must not be empty').openapi({ description: 'Job name; namespace plus name is the job identity' }),
    query: boundedText(MAX_RUN_SQL_CHARS).min(1, 'must not be empty').openapi({ description: 'A Spark SQL query (SELECT); tables are lakeline.<namespace>.<table> or <namespace>.<table>' }),
    output_table: z
      .string()
      // The catalog is lakeline's, in any case (a pattern has no flags, so the letters say it).
      .regex(/^[Ll][Aa][Kk][Ee][Ll][Ii][Nn][Ee]\.[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/, {
        error: (issue) => {
          const parts = String(issue.input).split('.');
          return parts.length === 3 && parts.every((p) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(p))
            ? `catalog '${parts[0]}' is not available; write to lakeline.<namespace>.<table>`
            : 'must be catalog.namespace.table, e.g. lakeline.analytics.daily';
        },
      })
      .openapi({ description: 'lakeline.<namespace>.<table>; created if absent, overwritten otherwise' }),
    driver_machine_type: SparkMachineType.default(DEFAULT_MACHINE_TYPE),
    executor_machine_type: SparkMachineType.default(DEFAULT_MACHINE_TYPE),
    executor_numbers: z.number().int(executorRange).min(EXECUTORS.min, executorRange).max(EXECUTORS.max, executorRange).default(EXECUTORS.default),
  })
  .strict()
  .openapi('SparkQueryRequest');

/** A valid Spark request body. */
export type SparkQueryRequestBody = z.infer<typeof SparkQueryRequest>;

const sparkIssueText = (issue: z.core.$ZodIssue): string => {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  if (issue.code === 'unrecognized_keys') return `${issue.keys.join(', ')}: ${issue.keys.length > 1 ? 'are not fields' : 'is not a field'} of this request`;
  if (issue.code === 'invalid_type' && (issue.input === undefined || field === 'body')) {
    return field === 'body' ? 'body: must be a JSON object' : `${field}: is required`;
  }
  if (issue.code === 'invalid_type') return `${field}: must be a ${issue.expected}`;
  return `${field}: ${issue.message}`;
};

/**
 * Validates a Spark request body; the message names every offending field
 * (`output_table: is required`).
 *
 * @throws {ValidationError} naming the offending fields
 */
export const parseSparkQueryRequest = (value: unknown): SparkQueryRequestBody => {
  const parsed = SparkQueryRequest.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new ValidationError(parsed.error.issues.map(sparkIssueText).join('; '));
};

/** Spark answer. */
export const SparkQueryResponse = z
  .object({
    run_id: z.string().uuid(),
    job: JobIdentity,
    output_table: z.string(),
    status: z.enum(['RUNNING', 'QUEUED']).openapi({ description: 'the run\'s initial status: RUNNING when it started, QUEUED while it waits for a Spark slot (poll `GET /api/v1/runs/{run_id}`)' }),
  })
  .openapi('SparkQueryResponse');

const MachineSize = z.object({ vcpus: z.number(), memory_gb: z.number() });

/** The compute a run asked for and the compute that served it (and is billed). */
export const RunCompute = z
  .object({
    platform: z.string().openapi({ description: '`local` (spark-submit on the service\'s machine) or `emr-serverless`' }),
    requested: z.object({ driver_machine_type: z.string(), executor_machine_type: z.string(), executor_numbers: z.number().int() }),
    driver: MachineSize,
    executor: MachineSize,
    executors: z.number().int(),
    billed_vcpus: z.number().openapi({ description: 'vCPUs metered per second of the run' }),
    scaled_down: z.boolean().openapi({ description: 'the platform ran less than the request (the local machine, EMR worker limits)' }),
    spark_conf: z.record(z.string(), z.string()),
    note: z.string().optional(),
  })
  .openapi('RunCompute');

/** A run as `GET /api/v1/runs/{run_id}` returns it. */
export const Run = z
  .object({
    run_id: z.string().uuid(),
    engine: z.enum(ENGINES),
    state: z.enum(['QUEUED', 'RUNNING', 'COMPLETE', 'FAIL', 'ABORT']).openapi({
      description: 'QUEUED: waiting for capacity (the machine\'s Spark slots locally, EMR Serverless capacity in AWS); RUNNING; then one of COMPLETE (for a write: its commit is in the catalog), FAIL, ABORT',
    }),
    job: JobIdentity,
    created_at: z.string(),
    updated_at: z.string(),
    ended_at: z.string().optional(),
    error: z.string().optional().openapi({ description: 'why the run failed (Spark\'s own message) or was aborted' }),
    output_table: z.string().optional(),
    write_mode: WriteMode.optional(),
    input_tables: z.array(z.string()),
    rows_written: z.number().int().optional(),
    bytes_written: z.number().int().optional(),
    compute: RunCompute,
    vcpu_seconds: z.number().optional().openapi({ description: 'metered vCPU-seconds, once the run has ended' }),
    timings: z
      .object({ startup_ms: z.number().optional(), query_ms: z.number().optional(), total_ms: z.number().optional() })
      .openapi({ description: 'submit to Spark ready (startup), Spark ready to written (query), submit to end (total)' }),
    row_count: z.number().int().optional().openapi({ description: 'a batch read of POST /api/v1/query: the number of rows it produced' }),
    results: TabularResult.optional().openapi({ description: 'a completed batch read of POST /api/v1/query: one page of its rows (offset, limit)' }),
    results_page: z
      .object({ offset: z.number().int(), limit: z.number().int(), next_offset: z.number().int().optional() })
      .optional()
      .openapi({ description: 'where this page of results starts, its size, and where the next page starts (absent on the last page)' }),
  })
  .openapi('Run');

/** Query parameters of `GET /api/v1/runs/{run_id}`: the page of a batch read's rows. */
export const RunResultsQuery = z.object({
  offset: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional().openapi({ description: 'first row of the page of results (default 0)' }),
  limit: z.int().min(1).max(RESULTS_PAGE.maxLimit).optional().openapi({ description: `rows per page of results (default ${RESULTS_PAGE.defaultLimit})` }),
});

/** A lake table's summary. */
export const TableSummary = z
  .object({
    namespace: z.string().openapi({ description: 'the `{namespace}` of `GET /api/v1/tables/{namespace}/{table}`' }),
    name: z.string().openapi({ description: 'the table\'s name in its namespace (the same as `table`)' }),
    table: z.string().openapi({ description: 'the table\'s name in its namespace: the `{table}` of `GET /api/v1/tables/{namespace}/{table}`' }),
    qualified_name: z.string().openapi({ description: 'the name SQL addresses it by: `lakeline.<namespace>.<table>`', example: 'lakeline.analytics.daily_orders' }),
  })
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
