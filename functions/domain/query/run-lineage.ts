/**
 * @module query/run-lineage
 * The lineage of a query run within its request — the routed endpoint's interactive runs and the
 * legacy endpoint — in one place: START, then COMPLETE (with the table the run wrote, if any, and
 * its column lineage) or FAIL with the message the caller sees. Runs that outlive their request (Spark,
 * bloom) record the same events through `runs/lineage.ts`, at submission and at their end.
 *
 * Both events are recorded before the answer goes out (ADR 0058). START carries the time the run
 * began, but is written only once the run has lasted {@link START_WRITE_AFTER_MS}: a run that ends
 * sooner has its START and its end written together, at once, which takes one store round trip
 * off the answer and keeps the store's work off the run's event loop.
 */
import { DomainError } from '../errors.ts';
import { withColumnLineage } from '../lineage-capture/column-lineage.ts';
import { recordEvent, type RecordDeps } from '../lineage-capture/record.ts';
import { completeEvent, failEvent, startEvent, type QueryOutput, type QueryRun } from '../lineage-capture/run-events.ts';

/**
 * How long a run goes before its START is written on its own: a longer run is seen as running in
 * the lineage while it runs; a shorter one (most interactive queries) writes START with its end.
 */
export const START_WRITE_AFTER_MS = 250;

/** What recording needs, and the clock of the events (the wall clock by default). */
export interface RunLineageDeps extends RecordDeps {
  readonly now?: () => Date;
  /** @default START_WRITE_AFTER_MS */
  readonly startWriteAfterMs?: number;
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
 * recorded are logged and never fail the run; those that can are stored before this resolves.
 * @throws what `work` threw, or its `failure` mapping
 */
export async function withRunLineage<T>(deps: RunLineageDeps, orgId: string, run: QueryRun, work: () => Promise<T>, options: RunLineageOptions<T> = {}): Promise<T> {
  const now = deps.now ?? (() => new Date());
  const start = startEvent(run, now());
  let started: Promise<void> | undefined;
  const writeStart = (): Promise<void> => (started ??= recordEvent(deps, orgId, run.runId, start));
  const timer = setTimeout(writeStart, deps.startWriteAfterMs ?? START_WRITE_AFTER_MS);
  // Both events at once: START first, so a sink that keeps order sees them in the run's order.
  const end = async (event: object): Promise<void> => {
    clearTimeout(timer);
    await Promise.all([writeStart(), recordEvent(deps, orgId, run.runId, event)]);
  };
  let result: T;
  try {
    result = await work();
  } catch (err) {
    const failure = options.failure ? options.failure(err) : err;
    await end(failEvent(run, now(), failure instanceof DomainError ? failure.message : 'internal error'));
    throw failure;
  }
  const output = options.output?.(result);
  await end(completeEvent(run, now(), output && withColumnLineage(run, output)));
  return result;
}
