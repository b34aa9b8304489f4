/**
 * @module expire-results
 * Scheduled (not an HTTP route): drops the results tables of routed batch reads once they are
 * older than the retention (`LAKELINE_RESULTS_TTL_DAYS`, default 7). An hourly EventBridge
 * schedule runs it in AWS (`lib/lake.ts`); the local stack runs the same function on a timer.
 * A table that fails is logged and tried again by the next run.
 */
import { config, lineageTablesMaintenanceDeps, resultsExpiryDeps } from '#composition/index';
import { maintainLineageTables } from '#domain/lineage-tables/maintenance';
import { expireResultTables, retentionMs, type ExpiryReport } from '#domain/runs/results-expiry';
import { logger } from '#shared/observability';

/** Lambda entry point (EventBridge schedule); also called by the local stack's timer. */
export const handler = async (): Promise<ExpiryReport> => {
  const report = await expireResultTables(resultsExpiryDeps(), new Date(), retentionMs(config().resultsTtlDays));
  if (report.dropped.length > 0 || report.failed.length > 0) logger.info('results tables expired', { ...report });
  if (report.failed.length > 0) logger.warn('some results tables could not be expired; the next run tries again', { failed: report.failed });
  // The lineage tables' upkeep (ADR 0056) shares the schedule: compaction, snapshot expiry, retention.
  const lineage = await maintainLineageTables(lineageTablesMaintenanceDeps(), new Date(), config().lineageRetentionDays);
  if (lineage.compacted.length > 0) logger.info('lineage tables compacted', { compacted: lineage.compacted });
  if (lineage.failed.length > 0) logger.warn('some lineage tables could not be compacted; the next run tries again', { failed: lineage.failed });
  return report;
};
