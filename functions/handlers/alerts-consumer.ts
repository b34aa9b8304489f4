/**
 * @module alerts-consumer
 * Alert evaluation's subscriber Lambda (not an HTTP route; ADR 0045, ADR 0052): evaluates each
 * batch of an org's new events from its feed queue (`domain/alerts/evaluate.ts`). A batch that
 * fails is retried for this subscriber alone (`adapters/aws/feed-subscriber-lambda.ts`);
 * evaluation skips events it has seen, so a retry raises nothing twice.
 */
import { subscriberLambda } from '#adapters/aws/feed-subscriber-lambda';
import { feed, lineageGraph } from '#composition/index';
import { ALERTS_SUBSCRIBER } from '#domain/alerts/feed-subscriber';
import { subscriberNamed } from '#domain/feed/replay';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = subscriberLambda(() => {
  const ports = feed();
  return {
    subscriber: subscriberNamed(ports.directory, ALERTS_SUBSCRIBER),
    applied: ports.directory.applied(ALERTS_SUBSCRIBER),
    byKeys: ports.byKeys,
    blobs: () => lineageGraph().blobs,
    log: logger,
  };
});
