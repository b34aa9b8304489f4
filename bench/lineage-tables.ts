/**
 * Lineage tables benchmark (`npm run bench -- lineage-tables [--export-events N] [--events N]`;
 * ADR 0056, docs/benchmarks.md#lineage-tables):
 *
 * 1. Export throughput: N stored events (default 20,000, derived by ingestion's own code) handed to
 *    the `lineage-tables` feed subscriber in the local feed's batches (5,000) and in the small
 *    batches a trickle makes (500), through the real lake writer subprocess into a fresh home's
 *    SQLite catalog; events/s per batch size, to set beside the ingest benchmark's rates.
 * 2. A 30-day query over `--events` events (default 1,000,000) on DuckDB, p50 of 5, before and after
 *    the scheduled compaction (`bench/lineage_tables_query.py`: the table is filled by the writer's
 *    own export in commits of 10,000, and the `runs` rewrite's cost is printed at the load's start
 *    and end). `--events 50000` while developing.
 *
 * Not measured here: the ingest benchmark's ratios with the export on (run `bench/lineage-ingest.ts`
 * on a stack, which now exports in the background).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import { REPO_ROOT } from '#composition/config';
import { prepareEvent } from '#domain/lineage/derive';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { LINEAGE_TABLES_BATCHING, lineageTablesSubscriber } from '#domain/lineage-tables/feed-subscriber';
import { LakeWriterLineageTables } from '#domain/lineage-tables/lake-writer-store';
import { machine } from './bench-util.ts';

const { values } = parseArgs({ options: { 'export-events': { type: 'string', default: '20000' }, events: { type: 'string', default: '1000000' } } });
const exportEvents = Number(values['export-events']);
const queryEvents = Number(values.events);
const PYTHON = process.env.LAKELINE_PYTHON_BIN ?? path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python');
const ORG = 'bench0000-0000-0000-0000-000000000029';

/** Stored events as ingestion derives them: a Spark-shaped START/COMPLETE pair per run. */
const storedEvents = (count: number): StoredLineageEvent[] => {
  const start = Date.now() - 3_600_000;
  return Array.from({ length: count }, (_, i) => {
    const run = Math.floor(i / 2);
    const raw = {
      eventType: i % 2 === 0 ? 'START' : 'COMPLETE',
      eventTime: new Date(start + i * 100).toISOString(),
      producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/spark',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: { runId: `00000000-0000-4000-8000-${String(run).padStart(12, '0')}` },
      job: { namespace: 'bench', name: `job_${run % 200}` },
      inputs: [{ namespace: 'pg', name: `src_${run % 50}` }],
      outputs: [{ namespace: 's3://lake', name: `t_${run % 200}`, outputFacets: { outputStatistics: { _producer: 'p', _schemaURL: 's', rowCount: 1000, size: 64000 } } }],
    };
    const text = JSON.stringify(raw);
    const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date(start + i * 100 + 50));
    if (!prepared.ok) throw new Error(prepared.error);
    return prepared.event;
  });
};

const exportRate = async (batchSize: number): Promise<{ batchSize: number; eventsPerS: number; msPerBatch: number }> => {
  const home = mkdtempSync(path.join(tmpdir(), 'lakeline-bench-lt-'));
  try {
    const store = new LakeWriterLineageTables(new SubprocessLakeWriter(PYTHON, REPO_ROOT, home));
    const subscriber = lineageTablesSubscriber(() => store);
    const events = storedEvents(exportEvents);
    const started = performance.now();
    for (let i = 0; i < events.length; i += batchSize) await subscriber.handle(ORG, events.slice(i, i + batchSize));
    const seconds = (performance.now() - started) / 1000;
    return { batchSize, eventsPerS: Math.round(events.length / seconds), msPerBatch: Math.round((seconds * 1000) / Math.ceil(events.length / batchSize)) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

console.log(`lineage tables benchmark — ${machine()}`);
for (const batchSize of [LINEAGE_TABLES_BATCHING.batchSize, 500]) {
  const r = await exportRate(batchSize);
  console.log(`export of ${exportEvents} events in batches of ${r.batchSize}: ${r.eventsPerS} events/s (${r.msPerBatch} ms per batch, a lake writer process each) — ${machine()}`);
}
const home = mkdtempSync(path.join(tmpdir(), 'lakeline-bench-lt-q-'));
try {
  if (queryEvents === 0) throw new Error('--events 0: the query part is skipped');
  const query = spawnSync(PYTHON, ['-W', 'ignore', path.join(REPO_ROOT, 'bench', 'lineage_tables_query.py'), '--events', String(queryEvents), '--chunk', '10000'], {
    env: { ...process.env, LAKELINE_PROFILE: 'local', LAKELINE_HOME: home },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (query.status !== 0) throw new Error(`the query benchmark failed: ${query.stderr}`);
  console.log(`30-day query over ${queryEvents} events (DuckDB, p50 of 5, before/after compaction): ${query.stdout.trim()} — ${machine()}`);
} catch (error) {
  console.log((error as Error).message);
} finally {
  rmSync(home, { recursive: true, force: true });
}
