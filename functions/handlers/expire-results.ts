/**
 * @module expire-results
 * Scheduled (not an HTTP route): drops the results tables of routed batch reads once they are
 * older than the retention (`LAKELINE_RESULTS_TTL_DAYS`, default 7). An hourly EventBridge
 * schedule runs it in AWS (`lib/lake.ts`); the local stack runs the same function on a timer.
 * A table that fails is logged and tried again by the next run.
 */
import { DEFAULT_RESULTS_TTL_DAYS, expireResultTables, retentionMs, type ExpiryReport } from '#domain/runs/results-expiry';
import { RESULTS_TTL_DAYS_ENV } from '#shared/env-names';
import { catalog, lakeStorage, lakeWriter } from '#shared/container-lake';
import { orgStore } from '#shared/container';
import { logger } from '#shared/observability';

/** The configured retention in days (a bad value fails loudly rather than dropping early). */
const retentionDays = (): number => {
  const text = process.env[RESULTS_TTL_DAYS_ENV];
  if (text === undefined || text === '') return DEFAULT_RESULTS_TTL_DAYS;
  const days = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(days > 0)) throw new Error(`configuration: ${RESULTS_TTL_DAYS_ENV} must be a positive number of days, not ${text}`);
  return days;
};

/** Lambda entry point (EventBridge Scheduler); also called by the local stack's timer. */
export const handler = async (): Promise<ExpiryReport> => {
  const report = await expireResultTables({ orgs: orgStore(), catalog: catalog(), storage: lakeStorage(), writer: lakeWriter() }, new Date(), retentionMs(retentionDays()));
  if (report.dropped.length > 0 || report.failed.length > 0) logger.info('results tables expired', { ...report });
  if (report.failed.length > 0) logger.warn('some results tables could not be expired; the next run tries again', { failed: report.failed });
  return report;
};
