/**
 * @module alerts-consumer
 * Alert evaluation's subscriber Lambda (not an HTTP route; ADR 0045, ADR 0052): evaluates each
 * batch of an org's new events from its feed queue (`domain/alerts/evaluate.ts`). A batch that
 * fails is retried for this subscriber alone (`adapters/aws/feed-subscriber-lambda.ts`);
 * evaluation skips events it has seen, so a retry raises nothing twice. The same function runs
 * the late-table check when EventBridge Scheduler invokes it (its payload has no `Records`): one
 * function fewer in a stack near CloudFormation's 500 resources.
 */
import { subscriberLambda } from '#adapters/aws/feed-subscriber-lambda';
import { handler as checkFreshness } from '#handlers/check-freshness';
import { feed, lineageGraph } from '#composition/index';
import { ALERTS_SUBSCRIBER } from '#domain/alerts/feed-subscriber';
import { subscriberNamed } from '#domain/feed/replay';
import { logger } from '#shared/observability';

const onFeed = subscriberLambda(() => {
  const ports = feed();
  return {
    subscriber: subscriberNamed(ports.directory, ALERTS_SUBSCRIBER),
    applied: ports.directory.applied(ALERTS_SUBSCRIBER),
    byKeys: ports.byKeys,
    blobs: () => lineageGraph().blobs,
    log: logger,
  };
});

/** Lambda entry point: a feed queue's batch, or the scheduler's tick (the late-table check). */
export const handler = (event: Parameters<typeof onFeed>[0] | { readonly lakeline?: 'check-freshness' }) =>
  'Records' in event ? onFeed(event as Parameters<typeof onFeed>[0]) : checkFreshness();
