/**
 * @module runs/spark-request
 * Checks the values of a managed Spark request (the handler already checked its shape): machine
 * types from the table, the executor range, and an output table of the caller's own lake
 * (`lakeline.<namespace>.<table>`). Every refusal is a 400 naming the field.
 */
import { ValidationError } from '../errors.ts';
import { checkIdentifier, DEFAULT_CATALOG, refuseLineageWrite, type TableName } from '../core/names.ts';
import { EXECUTORS, MACHINE_TYPE_NAMES, machineType, type SparkResourceRequest } from '../core/machine-types.ts';
import type { WriteMode } from './run.ts';

/** Longest SQL a run accepts: it is stored on the run and in its lineage events. */
export const MAX_RUN_SQL_CHARS = 100_000;
/** Longest job namespace or name. */
export const MAX_JOB_PART_CHARS = 256;

/** A Spark request as the handler parsed it (contract field names mapped to camelCase). */
export interface SparkRequest {
  readonly namespace: string;
  readonly name: string;
  readonly query: string;
  readonly outputTable: string;
  readonly driverMachineType: string;
  readonly executorMachineType: string;
  readonly executorNumbers: number;
  /** Not on the spark endpoint (it always overwrites); the routed endpoint passes its `write_mode`. */
  readonly writeMode?: WriteMode;
}

/** A checked request. */
export interface CheckedSparkRequest {
  readonly job: { readonly namespace: string; readonly name: string };
  readonly sql: string;
  readonly output: TableName;
  readonly writeMode: WriteMode;
  readonly resources: SparkResourceRequest;
  /**
   * The routed endpoint's batch read: the output is the run's own results table, whose rows
   * `GET /api/v1/runs/{run_id}` returns, rather than a table the caller asked for.
   */
  readonly results?: true;
}

const machine = (field: string, name: string) => {
  const found = machineType(name);
  if (!found) throw new ValidationError(`${field}: unknown machine type '${name}'; use one of ${MACHINE_TYPE_NAMES.join(', ')}`);
  return found;
};

const text = (field: string, value: string, max: number): string => {
  if (value.trim() === '') throw new ValidationError(`${field}: must not be empty`);
  if (value.length > max) throw new ValidationError(`${field}: longer than ${max} characters`);
  return value;
};

/**
 * Parses `output_table`: three dot-separated parts, the catalog `lakeline`, a namespace and a
 * table that are plain identifiers. Names are folded to lower case, as Spark and Glue treat them.
 */
export const parseOutputTable = (value: string): TableName => {
  const parts = value.split('.');
  if (parts.length !== 3) throw new ValidationError(`output_table: must be catalog.namespace.table (three parts), got '${value}'`);
  const [catalog, namespace, table] = parts as [string, string, string];
  if (catalog.toLowerCase() !== DEFAULT_CATALOG) {
    throw new ValidationError(`output_table: catalog '${catalog}' is not available; write to ${DEFAULT_CATALOG}.<namespace>.<table>`);
  }
  const name = { namespace: checkIdentifier('output_table', namespace).toLowerCase(), table: checkIdentifier('output_table', table).toLowerCase() };
  refuseLineageWrite('output_table', name);
  return name;
};

/** Checks a request's values. */
export const checkSparkRequest = (request: SparkRequest): CheckedSparkRequest => {
  const namespace = text('namespace', request.namespace, MAX_JOB_PART_CHARS);
  const name = text('name', request.name, MAX_JOB_PART_CHARS);
  const sql = text('query', request.query, MAX_RUN_SQL_CHARS);
  const output = parseOutputTable(request.outputTable);
  const driver = machine('driver_machine_type', request.driverMachineType);
  const executor = machine('executor_machine_type', request.executorMachineType);
  const executors = request.executorNumbers;
  if (!Number.isInteger(executors) || executors < EXECUTORS.min || executors > EXECUTORS.max) {
    throw new ValidationError(`executor_numbers: must be a whole number from ${EXECUTORS.min} to ${EXECUTORS.max}, got ${executors}`);
  }
  return { job: { namespace, name }, sql, output, writeMode: request.writeMode ?? 'overwrite', resources: { driver, executor, executors } };
};
