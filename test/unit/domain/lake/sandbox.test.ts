/**
 * Sandbox sizing: a sandbox becomes DuckDB's threads and memory limit, capped by what the host has.
 */
import { describe, expect, it } from 'vitest';
import { engineSizing, MEMORY_GB_PER_VCPU, sandboxOf } from '#domain/lake/sandbox';

describe('sandbox sizing', () => {
  it(`Should give a sandbox ${MEMORY_GB_PER_VCPU} GB per vCPU`, () => {
    // Assess
    expect(sandboxOf(2)).toEqual({ vcpus: 2, memoryGb: 4 });
    expect(() => sandboxOf(0)).toThrow(RangeError);
  });

  it('Should run one thread per vCPU and the sandbox memory when the host has room', () => {
    // Act
    const sizing = engineSizing(sandboxOf(2), { cpus: 8, memoryBytes: 64 * 1024 ** 3 });
    // Assess
    expect(sizing).toEqual({ threads: 2, memoryLimitMb: 4096 });
  });

  it("Should cap threads at the host's cores and memory at its share of the host's memory", () => {
    // Act: a 3008 MB Lambda has ~2 vCPUs
    const sizing = engineSizing(sandboxOf(4), { cpus: 2, memoryBytes: 3008 * 1024 * 1024 });
    // Assess
    expect(sizing).toEqual({ threads: 2, memoryLimitMb: Math.floor(3008 * 0.6) });
  });
});
