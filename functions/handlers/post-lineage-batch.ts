/**
 * @module post-lineage-batch
 * `POST /api/v1/lineage/batch` (OpenLineage.yml): a JSON array of at most 1,000 events (413
 * above). Valid events are stored even when others are refused. 200 with `status` `success` or
 * `partial_success`; 400 when no element is valid; 503 when the store could not take some of them
 * (resending the whole batch is safe: stored events are not stored twice). Every answer carries
 * `summary` (all counts) and `failed_events` (the first 100 refused elements).
 */
import { ingestBatch, type BatchOutcome } from '#domain/lineage/ingest';
import { platform } from '#composition/index';
import { PostLineageBatch } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** The HTTP status of a batch outcome: 5xx whenever retrying could help, so plain HTTP clients retry. */
const statusOf = (outcome: BatchOutcome): 200 | 400 | 503 => {
  if (outcome.summary.retriable > 0) return 503;
  return outcome.status === 'failure' ? 400 : 200;
};

/** Lambda entry point. */
export const handler = httpHandler(PostLineageBatch, async ({ body, principal }) => {
  const receivedAt = new Date();
  const outcome = await ingestBatch(platform().events, principal.orgId, body, receivedAt);
  const statusCode = statusOf(outcome);
  if (statusCode === 200) return { statusCode, body: outcome };
  const error =
    statusCode === 503
      ? `${outcome.summary.retriable} of ${outcome.summary.received} events could not be stored now; retry them (see failed_events)`
      : `none of the ${outcome.summary.received} events is valid (see failed_events)`;
  return { statusCode, body: { error, ...outcome } };
});
