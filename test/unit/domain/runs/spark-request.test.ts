/** The values of a Spark request: machine types, executors, and an output table of the caller's lake. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { checkSparkRequest, parseOutputTable, type SparkRequest } from '#domain/runs/spark-request';

const base: SparkRequest = {
  namespace: 'etl',
  name: 'daily',
  query: 'select 1',
  outputTable: 'lakeline.out.daily',
  driverMachineType: 'spark.1.b',
  executorMachineType: 'spark.2.m',
  executorNumbers: 4,
};

describe('checkSparkRequest', () => {
  it('Should map the machines through the table and default the write mode to overwrite', () => {
    // Act
    const checked = checkSparkRequest(base);

    // Assess
    expect(checked.resources).toEqual({ driver: { name: 'spark.1.b', vcpus: 1, memoryGb: 4 }, executor: { name: 'spark.2.m', vcpus: 2, memoryGb: 16 }, executors: 4 });
    expect(checked.writeMode).toBe('overwrite');
    expect(checked.output).toEqual({ namespace: 'out', table: 'daily' });
  });

  it.each([
    [{ driverMachineType: 'spark.3.b' }, /^driver_machine_type: unknown machine type 'spark.3.b'/],
    [{ executorMachineType: 'm5.xlarge' }, /^executor_machine_type: unknown machine type/],
    [{ executorNumbers: 0 }, /^executor_numbers: must be a whole number from 1 to 20, got 0/],
    [{ executorNumbers: 21 }, /^executor_numbers: must be a whole number from 1 to 20/],
    [{ executorNumbers: 1.5 }, /^executor_numbers:/],
    [{ namespace: ' ' }, /^namespace: must not be empty/],
    [{ name: 'x'.repeat(257) }, /^name: longer than 256 characters/],
    [{ query: 'x'.repeat(100_001) }, /^query: longer than 100000 characters/],
  ])('Should refuse %o naming the field', (changes, message) => {
    // Act / Assess
    expect(() => checkSparkRequest({ ...base, ...changes })).toThrow(ValidationError);
    expect(() => checkSparkRequest({ ...base, ...changes })).toThrow(message);
  });
});

describe('parseOutputTable', () => {
  it('Should fold names to lower case and accept the catalog in any case', () => {
    // Act / Assess
    expect(parseOutputTable('LakeLine.Sales.Daily_Totals')).toEqual({ namespace: 'sales', table: 'daily_totals' });
  });

  it.each([
    ['out.daily', /three parts/],
    ['lakeline.a.b.c', /three parts/],
    ['spark_catalog.out.daily', /catalog 'spark_catalog' is not available/],
    ['lakeline.bad-ns.daily', /^output_table: 'bad-ns' must be letters/],
    ['lakeline.out.', /^output_table:/],
  ])('Should refuse %s', (value, message) => {
    // Act / Assess
    expect(() => parseOutputTable(value)).toThrow(message);
  });
});
