/**
 * @module lake/sandbox
 * Sandbox sizes: how many vCPUs and how much memory a query may use, and how that maps onto an
 * engine's settings. One table of numbers, so the legacy endpoint, the router and the benchmarks
 * size engines the same way.
 */
import type { SandboxSize } from './engine.ts';

/**
 * Memory per vCPU of a sandbox, in GB. Lambda allots one vCPU per 1,769 MB, so a function with 2 GB
 * per vCPU keeps the engine's buffer manager, the Node heap and the result in memory together.
 */
export const MEMORY_GB_PER_VCPU = 2;

/** The sandbox of a vCPU count. */
export const sandboxOf = (vcpus: number): SandboxSize => {
  if (!Number.isInteger(vcpus) || vcpus < 1) throw new RangeError(`vcpus must be a positive integer, got ${vcpus}`);
  return { vcpus, memoryGb: vcpus * MEMORY_GB_PER_VCPU };
};

/** What a process can actually give a sandbox: its cores and the memory it may use. */
export interface HostCapacity {
  readonly cpus: number;
  readonly memoryBytes: number;
}

/** Engine settings derived from a sandbox on a host. */
export interface EngineSizing {
  /** Worker threads: one per vCPU, never more than the host has cores (extra threads only contend). */
  readonly threads: number;
  /** The engine's memory limit in MiB. */
  readonly memoryLimitMb: number;
}

/**
 * Share of the host's memory an engine may take. The rest holds the Node heap, the materialized
 * result and its JSON, which for a large result are about as big again as the engine's own use.
 */
export const HOST_MEMORY_SHARE = 0.6;

/** Sizes an engine for a sandbox on a host: the sandbox's size, capped by what the host has. */
export const engineSizing = (sandbox: SandboxSize, host: HostCapacity): EngineSizing => ({
  threads: Math.max(1, Math.min(sandbox.vcpus, host.cpus)),
  memoryLimitMb: Math.max(256, Math.floor(Math.min(sandbox.memoryGb * 1024, (host.memoryBytes * HOST_MEMORY_SHARE) / (1024 * 1024)))),
});
