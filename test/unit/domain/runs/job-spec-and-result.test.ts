/** The two documents shared with the job script: the spec it reads and the result it writes. */
import { describe, expect, it } from 'vitest';
import { outcomeFromResult } from '#domain/runs/job-result';
import { jobSpecDocument } from '#domain/runs/job-spec';
import type { SparkJob } from '#domain/runs/ports';

const job = { runId: 'r1', orgId: 'AAAA-bbbb', sql: 'select 1', output: { namespace: 'out', table: 't' }, mode: 'append' } as SparkJob;

describe('jobSpecDocument', () => {
  it('Should point a local run at the org\'s catalog name and warehouse in the SQL catalog', () => {
    // Act
    const spec = jobSpecDocument(job, { type: 'jdbc', uri: 'jdbc:sqlite:/h/catalog.db', warehouseRoot: 'file:///h/warehouse/' }, 'file:///h/runs/r1/result.json');

    // Assess
    expect(spec).toEqual({
      version: 1,
      run_id: 'r1',
      sql: 'select 1',
      output: { namespace: 'out', table: 't' },
      mode: 'append',
      catalog: { name: 'org_aaaabbbb', type: 'jdbc', uri: 'jdbc:sqlite:/h/catalog.db', warehouse: 'file:///h/warehouse/org_aaaabbbb', namespace_prefix: '' },
      result_uri: 'file:///h/runs/r1/result.json',
    });
  });

  it('Should prefix namespaces with the org in Glue', () => {
    // Act
    const spec = jobSpecDocument(job, { type: 'glue', warehouseRoot: 's3://lake/warehouse' }, 's3://lake/runs/r1/result.json');

    // Assess
    expect(spec.catalog).toEqual({ name: 'org_aaaabbbb', type: 'glue', warehouse: 's3://lake/warehouse/org_aaaabbbb', namespace_prefix: 'org_aaaabbbb__' });
  });
});

describe('outcomeFromResult', () => {
  it('Should read a success with its statistics and timings', () => {
    // Act
    const outcome = outcomeFromResult(JSON.stringify({ ok: true, rows_written: 3, bytes_written: 10, files_written: 1, session_ready_at: 5, finished_at: 9, spark_version: '3.5.7' }));

    // Assess
    expect(outcome).toEqual({ state: 'COMPLETE', rowsWritten: 3, bytesWritten: 10, filesWritten: 1, timings: { sessionReadyAt: 5, finishedAt: 9 }, engineVersion: '3.5.7' });
  });

  it('Should read a failure with Spark\'s error', () => {
    // Act / Assess
    expect(outcomeFromResult(JSON.stringify({ ok: false, error: '[PARSE_SYNTAX_ERROR] …' }))).toMatchObject({ state: 'FAIL', error: '[PARSE_SYNTAX_ERROR] …' });
  });

  it.each([undefined, '', '{"ok":', '[]', '{"rows_written": 1}'])('Should not take %j for a result', (text) => {
    // Act / Assess
    expect(outcomeFromResult(text)).toBeUndefined();
  });
});
