/**
 * @module emr-serverless-sizing
 * How a machine-type request becomes EMR Serverless workers. Worker memory is capped by what EMR
 * Serverless supports for the worker's vCPUs (1 vCPU: 2–8 GB, 2: 4–16, 4: 8–30, 8: 16–60 in 4 GB
 * steps, 16: 32–120 in 8 GB steps), so `spark.4.m` (32 GB) runs as a 30 GB worker, and the
 * record says so. Spark's heap is set so heap plus its default memory overhead (10 %, at least
 * 384 MB) fits the worker.
 */
import { requestedVcpus, type MachineType, type SparkResourceRequest } from '#domain/core/machine-types';
import type { ComputeUsed, MachineSize } from '#domain/runs/run';

/** Largest worker memory (GB) EMR Serverless supports per vCPU count. */
export const EMR_MAX_MEMORY_GB: Readonly<Record<number, number>> = { 1: 8, 2: 16, 4: 30, 8: 60, 16: 120 };

/** The worker a machine type becomes. */
export const emrWorker = (machine: MachineType): MachineSize => ({
  vcpus: machine.vcpus,
  memoryGb: Math.min(machine.memoryGb, EMR_MAX_MEMORY_GB[machine.vcpus] ?? machine.memoryGb),
});

/** Spark heap (MB) for a worker: heap + max(384 MB, 10 % of heap) ≤ worker memory. */
export const heapMb = (workerGb: number): number => {
  const total = workerGb * 1024;
  return Math.floor(Math.min(total / 1.1, total - 384));
};

/** Sizes a request for EMR Serverless: fixed executors (no dynamic allocation), as asked. */
export const emrCompute = (request: SparkResourceRequest): ComputeUsed => {
  const driver = emrWorker(request.driver);
  const executor = emrWorker(request.executor);
  const capped = driver.memoryGb < request.driver.memoryGb || executor.memoryGb < request.executor.memoryGb;
  return {
    requested: { driverMachineType: request.driver.name, executorMachineType: request.executor.name, executors: request.executors },
    platform: 'emr-serverless',
    driver,
    executor,
    executors: request.executors,
    billedVcpus: requestedVcpus(request),
    scaledDown: capped,
    sparkConf: {
      'spark.driver.cores': String(driver.vcpus),
      'spark.driver.memory': `${heapMb(driver.memoryGb)}m`,
      'spark.executor.cores': String(executor.vcpus),
      'spark.executor.memory': `${heapMb(executor.memoryGb)}m`,
      'spark.executor.instances': String(request.executors),
      // The caller chose the executor count; EMR must not scale it up on its own (and bill for it).
      'spark.dynamicAllocation.enabled': 'false',
    },
    ...(capped ? { note: 'EMR Serverless caps worker memory per vCPU count (4 vCPU: 30 GB, 8: 60 GB, 16: 120 GB); the memory-family request was capped to that.' } : {}),
  };
};
