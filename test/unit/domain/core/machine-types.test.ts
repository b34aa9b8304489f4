/** The machine-type table of the issue: spark.<n>.<c|b|m> = n vCPU with 2n, 4n or 8n GB. */
import { describe, expect, it } from 'vitest';
import { largestMachineVcpus, MACHINE_TYPES, machineType, requestedVcpus } from '#domain/core/machine-types';

describe('the machine-type table', () => {
  it('Should hold every size and family, sized as the table says', () => {
    // Assess
    expect(MACHINE_TYPES).toHaveLength(15);
    for (const n of [1, 2, 4, 8, 16]) {
      expect(machineType(`spark.${n}.c`)).toEqual({ name: `spark.${n}.c`, vcpus: n, memoryGb: 2 * n });
      expect(machineType(`spark.${n}.b`)).toEqual({ name: `spark.${n}.b`, vcpus: n, memoryGb: 4 * n });
      expect(machineType(`spark.${n}.m`)).toEqual({ name: `spark.${n}.m`, vcpus: n, memoryGb: 8 * n });
    }
    expect(machineType('spark.32.b')).toBeUndefined();
  });

  it('Should count the vCPUs of a request for the plan checks', () => {
    // Prepare
    const request = { driver: machineType('spark.2.b')!, executor: machineType('spark.4.c')!, executors: 3 };

    // Act / Assess
    expect(requestedVcpus(request)).toBe(14);
    expect(largestMachineVcpus(request)).toBe(4);
  });
});
