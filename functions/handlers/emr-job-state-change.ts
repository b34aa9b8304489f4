/**
 * @module emr-job-state-change
 * Target of the EventBridge rule "EMR Serverless Job Run State Change" (not an HTTP route): when
 * a job run of lakeline's application starts, its run moves from QUEUED to RUNNING; when it ends,
 * the run ends with it (COMPLETE, FAIL or ABORT, as the Glue catalog has it: a run whose commit
 * is there is COMPLETE), is metered with EMR's billed vCPU-hours, and gets its lineage event. An
 * error is thrown back to EventBridge, which retries the delivery; ending a run twice changes nothing.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { runDeps, spark } from '#composition/index';
import { finishRun } from '#domain/runs/finish';
import { startRun } from '#domain/runs/start';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const report = await spark().stateReports?.read(event);
  if (!report) {
    logger.warn('event ignored: not about a run of this deployment', { id: event.id, detailType: event['detail-type'] });
    return;
  }
  if (!report.outcome) {
    if (report.running) await startRun(runDeps(), report.runId);
    return;
  }
  const run = await finishRun(runDeps(), report.runId, report.outcome);
  logger.info('run ended', { runId: report.runId, state: run?.state ?? 'unknown run' });
};
