/**
 * @module core/machine-types
 * The Spark machine-type table: `spark.<n>.<c|b|m>` is n vCPUs with 2n (compute), 4n (balanced)
 * or 8n (memory) GB, n ∈ {1, 2, 4, 8, 16}. Every engine maps a request through this one table;
 * what each platform then actually runs (scaled down locally, capped by EMR Serverless's worker
 * sizes in AWS) is decided by the engine adapter and recorded on the run.
 */

/** vCPU sizes of the table. */
export const MACHINE_VCPUS = [1, 2, 4, 8, 16] as const;

/** Memory families and their GB per vCPU. */
export const MACHINE_FAMILIES = { c: 2, b: 4, m: 8 } as const;

/** One machine: its name and size. */
export interface MachineType {
  readonly name: string;
  readonly vcpus: number;
  readonly memoryGb: number;
}

/** Every machine type, smallest first. */
export const MACHINE_TYPES: readonly MachineType[] = MACHINE_VCPUS.flatMap((vcpus) =>
  Object.entries(MACHINE_FAMILIES).map(([family, perVcpu]) => ({ name: `spark.${vcpus}.${family}`, vcpus, memoryGb: vcpus * perVcpu })),
);

/** Names of every machine type (`spark.1.c` …). */
export const MACHINE_TYPE_NAMES: readonly string[] = MACHINE_TYPES.map((m) => m.name);

/** The contract's default for driver and executors. */
export const DEFAULT_MACHINE_TYPE = 'spark.1.b';

/** `executor_numbers`: default and accepted range. */
export const EXECUTORS = { default: 1, min: 1, max: 20 } as const;

/** A machine type by name, or undefined for a name outside the table. */
export const machineType = (name: string): MachineType | undefined => MACHINE_TYPES.find((m) => m.name === name);

/** What a caller asked for. */
export interface SparkResourceRequest {
  readonly driver: MachineType;
  readonly executor: MachineType;
  readonly executors: number;
}

/** vCPUs of the request when every machine runs at once (what the plan caps look at). */
export const requestedVcpus = (request: SparkResourceRequest): number => request.driver.vcpus + request.executor.vcpus * request.executors;

/** The largest single machine of the request. */
export const largestMachineVcpus = (request: SparkResourceRequest): number => Math.max(request.driver.vcpus, request.executor.vcpus);
