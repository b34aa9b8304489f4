/**
 * @module runs/lineage
 * The OpenLineage events of a run, built with lineage capture (`domain/lineage-capture`), the
 * same builders the routed and legacy endpoints use: START when the run is submitted, then
 * COMPLETE (with the output table, its statistics and the column lineage built at submission), FAIL (with the error) or ABORT. The job is
 * the caller's `{namespace, name}`, so every run of one job is one job in the events listing.
 * Lineage never decides a run's fate: an event that cannot be recorded is logged and skipped.
 */
import type { Catalog, LakeStorage } from '../lake/ports.ts';
import { completeEvent, failEvent, startEvent, type QueryOutput, type QueryRun } from '../lineage-capture/run-events.ts';
import type { LineageSink } from '../lineage-capture/ports.ts';
import { recordEvent } from '../lineage-capture/record.ts';
import { loadTable } from '../lake/query-tables.ts';
import type { Run } from './run.ts';

/** What recording a run's lineage needs. */
export interface RunLineageDeps {
  readonly lineage: LineageSink;
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

/** The run as lineage capture describes it. */
export const queryRunOf = (run: Run, engineVersion = run.lineage.engineVersion): QueryRun => ({
  runId: run.runId,
  job: run.job,
  sql: run.sql,
  dialect: run.lineage.dialect,
  engine: { name: run.engine, version: engineVersion },
  inputs: run.lineage.inputs,
  catalogKind: run.lineage.catalogKind,
});

const record = (deps: RunLineageDeps, run: Run, event: object): Promise<void> => recordEvent(deps, run.orgId, run.runId, event);

/** Records START. */
export const recordStart = (deps: RunLineageDeps, run: Run, at: Date): Promise<void> => record(deps, run, startEvent(queryRunOf(run), at));

/**
 * The output table as written, for COMPLETE: its location and schema come from the catalog after
 * the write. A table that cannot be read back is left out rather than described wrongly.
 */
const outputOf = async (deps: RunLineageDeps, run: Run): Promise<QueryOutput | undefined> => {
  if (!run.outputTable) return undefined;
  try {
    const table = await deps.catalog.loadTable(run.orgId, run.outputTable);
    if (!table) return undefined;
    const loaded = await loadTable(deps.storage, table);
    return { dataset: loaded.dataset, rowCount: run.rowsWritten ?? 0, bytes: run.bytesWritten ?? 0, fileCount: run.filesWritten ?? 0 };
  } catch (err) {
    deps.warn('output table not described in lineage', { runId: run.runId, error: err });
    return undefined;
  }
};

/** Records the event that ends a run: COMPLETE, FAIL or ABORT, per its state. */
export const recordEnd = async (deps: RunLineageDeps, run: Run, at: Date, engineVersion?: string): Promise<void> => {
  const query = queryRunOf(run, engineVersion);
  if (run.state === 'COMPLETE') {
    const output = await outputOf(deps, run);
    const columnLineage = run.lineage.columnLineageJson === undefined ? undefined : (JSON.parse(run.lineage.columnLineageJson) as QueryOutput['columnLineage']);
    return record(deps, run, completeEvent(query, at, output && columnLineage ? { ...output, columnLineage } : output));
  }
  if (run.state === 'FAIL') return record(deps, run, failEvent(query, at, run.error ?? 'the run failed'));
  // Lineage capture builds START/COMPLETE/FAIL; ABORT is START's shape with its own event type.
  if (run.state === 'ABORT') return record(deps, run, { ...startEvent(query, at), eventType: 'ABORT' });
};
