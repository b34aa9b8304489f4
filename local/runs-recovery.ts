/**
 * @module runs-recovery
 * Restart safety of the local stack: before the gateway serves, every Spark run a previous stack
 * process left RUNNING is re-attached to its still-running `spark-submit` (whose end is then
 * reported as usual) or ended with what happened to it (see `domain/runs/recover.ts`).
 */
import { recoverRuns, type RecoveryReport } from '#domain/runs/recover';
import { logger } from '#shared/observability';

/** Recovers the local profile's runs; logs what it did. */
export const recoverLocalRuns = async (): Promise<RecoveryReport> => {
  const { runDeps } = await import('#composition/index');
  const report = await recoverRuns(runDeps(), 'local');
  if (report.reattached.length || report.ended.length) logger.info('runs recovered after restart', { ...report });
  return report;
};
