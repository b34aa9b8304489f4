/**
 * @module emr-job-state-change
 * Target of the EventBridge rule "EMR Serverless Job Run State Change" (not an HTTP route): when
 * a job run of lakeline's application starts, its run moves from QUEUED to RUNNING; when it ends,
 * the run ends with it (COMPLETE, FAIL or ABORT, as the Glue catalog has it: a run whose commit
 * is there is COMPLETE), is metered with EMR's billed vCPU-hours, and gets its lineage event. An
 * error is thrown back to EventBridge, which retries the delivery; ending a run twice changes nothing.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { parseStateChange } from '#adapters/aws/emr-serverless-events';
import { finishRun } from '#domain/runs/finish';
import { startRun } from '#domain/runs/start';
import { getConfig } from '#shared/config';
import { emrRunObserver, runDeps } from '#shared/container-runs';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const change = parseStateChange(event);
  if (!change || change.applicationId !== getConfig().spark.applicationId) {
    logger.warn('event ignored: not a job run of this application', { id: event.id, detailType: event['detail-type'] });
    return;
  }
  const observed = await emrRunObserver().observe(change);
  if (!observed) return;
  if (!observed.outcome) {
    if (change.state === 'RUNNING') await startRun(runDeps(), observed.runId);
    return;
  }
  const run = await finishRun(runDeps(), observed.runId, observed.outcome);
  logger.info('run ended', { runId: observed.runId, jobRunId: change.jobRunId, state: run?.state ?? 'unknown run' });
};
