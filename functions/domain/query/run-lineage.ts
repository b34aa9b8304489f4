/**
 * @module query/run-lineage
 * The lineage of a query run within its request — the routed endpoint's interactive runs and the
 * legacy endpoint — in one place: START alongside the run, then COMPLETE (with the table the run
 * wrote, if any, and its column lineage) or FAIL with the message the caller sees. Runs that outlive their request (Spark,
 * bloom) record the same events through `runs/lineage.ts`, at submission and at their end.
 */
import { DomainError } from '../errors.ts';
import { withColumnLineage } from '../lineage-capture/column-lineage.ts';
import { recordEvent, type RecordDeps } from '../lineage-capture/record.ts';
import { completeEvent, failEvent, startEvent, type QueryOutput, type QueryRun } from '../lineage-capture/run-events.ts';

/** What recording needs, and the clock of the events (the wall clock by default). */
export interface RunLineageDeps extends RecordDeps {
  readonly now?: () => Date;
}

/** How a run's outcome becomes its events. */
export interface RunLineageOptions<T> {
  /**
   * The error to throw for what the run threw (FAIL records its message; anything but a
   * {@link DomainError} is recorded as `internal error`). By default the thrown error itself.
   */
  readonly failure?: (err: unknown) => unknown;
  /** The table the run wrote, for COMPLETE. */
  readonly output?: (result: T) => QueryOutput | undefined;
}

/**
 * Runs `work` as the run `run` of `orgId`, with its lineage around it. Events that cannot be
 * recorded are logged and never fail the run.
 * @throws what `work` threw, or its `failure` mapping
 */
export async function withRunLineage<T>(deps: RunLineageDeps, orgId: string, run: QueryRun, work: () => Promise<T>, options: RunLineageOptions<T> = {}): Promise<T> {
  const now = deps.now ?? (() => new Date());
  // START is recorded alongside the run rather than before it: the run does not wait on the store.
  const started = recordEvent(deps, orgId, run.runId, startEvent(run, now()));
  let result: T;
  try {
    result = await work();
  } catch (err) {
    const failure = options.failure ? options.failure(err) : err;
    await started;
    await recordEvent(deps, orgId, run.runId, failEvent(run, now(), failure instanceof DomainError ? failure.message : 'internal error'));
    throw failure;
  }
  await started;
  const output = options.output?.(result);
  await recordEvent(deps, orgId, run.runId, completeEvent(run, now(), output && withColumnLineage(run, output)));
  return result;
}
