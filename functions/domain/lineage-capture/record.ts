/**
 * @module lineage-capture/record
 * Recording one captured event without letting it decide anything: lineage never fails a query or
 * a run, so an event the sink could not take is logged, with the run it belongs to, and skipped.
 */
import type { LineageSink } from './ports.ts';

/** What recording needs: the sink, and the log for what it could not take. */
export interface RecordDeps {
  readonly lineage: LineageSink;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

/** Records an event of one run of an org; resolves either way. */
export const recordEvent = (deps: RecordDeps, orgId: string, runId: string, event: object): Promise<void> =>
  deps.lineage.emit(orgId, event).catch((err: unknown) => deps.warn('lineage event not recorded', { runId, error: err }));
