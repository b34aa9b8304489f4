/**
 * @module check-freshness
 * Scheduled (not an HTTP route): the late-table check of every org (ADR 0052). In AWS the alerts
 * Lambda runs it when EventBridge Scheduler invokes it, every five minutes (`lib/alerts.ts`,
 * `alerts-consumer.ts`); the local stack runs it on a timer (`LAKELINE_FRESHNESS_CHECK_MS`). An org whose check fails is logged and
 * checked again next time.
 */
import { alertDeps, platform } from '#composition/index';
import { checkFreshness } from '#domain/alerts/freshness';
import { logger } from '#shared/observability';

/** What one run checked. */
export interface FreshnessReport {
  readonly orgs: number;
  readonly late: number;
  readonly failed: number;
}

/** The check (the alerts Lambda's scheduled branch; the local stack's timer). */
export const handler = async (): Promise<FreshnessReport> => {
  const orgs = await platform().orgs.list();
  let late = 0;
  let failed = 0;
  for (const org of orgs) {
    try {
      late += (await checkFreshness(alertDeps(), org.orgId)).late;
    } catch (error) {
      failed++;
      logger.warn('late-table check failed for an org; the next run tries again', { orgId: org.orgId, error });
    }
  }
  if (late > 0) logger.info('late tables', { late });
  return { orgs: orgs.length, late, failed };
};
