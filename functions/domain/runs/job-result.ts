/**
 * @module runs/job-result
 * Reads the result document the Spark job script writes when it finishes (`result.json`): what it
 * wrote, or Spark's error, and when Spark was ready and done. A killed job writes none.
 */
import type { RunOutcome } from './run.ts';

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * The outcome a result document reports, or undefined when the text is not one (absent, torn,
 * or not the script's format).
 */
export const outcomeFromResult = (text: string | undefined): RunOutcome | undefined => {
  if (text === undefined) return undefined;
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || typeof doc.ok !== 'boolean') return undefined;
  const timings = {
    ...(num(doc.session_ready_at) !== undefined ? { sessionReadyAt: num(doc.session_ready_at) } : {}),
    ...(num(doc.finished_at) !== undefined ? { finishedAt: num(doc.finished_at) } : {}),
  };
  const engineVersion = typeof doc.spark_version === 'string' ? { engineVersion: doc.spark_version } : {};
  if (!doc.ok) {
    return { state: 'FAIL', error: typeof doc.error === 'string' && doc.error !== '' ? doc.error : 'the Spark job failed', timings, ...engineVersion };
  }
  return {
    state: 'COMPLETE',
    rowsWritten: num(doc.rows_written) ?? 0,
    bytesWritten: num(doc.bytes_written) ?? 0,
    filesWritten: num(doc.files_written) ?? 0,
    timings,
    ...engineVersion,
  };
};
