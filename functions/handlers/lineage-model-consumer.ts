/**
 * @module lineage-model-consumer
 * The lineage model's subscriber Lambda (not an HTTP route; ADR 0031, ADR 0045): applies each batch
 * of new events to the lineage read model, org by org, from its feed queue (or, as before the
 * fan-out, straight from the Events stream). A batch that fails is retried for this subscriber
 * alone (`adapters/aws/feed-subscriber-lambda.ts`); re-applying is harmless.
 */
import { subscriberLambda } from '#adapters/aws/feed-subscriber-lambda';
import { feed, lineageGraph } from '#composition/index';
import { subscriberNamed } from '#domain/feed/replay';
import { LINEAGE_MODEL_SUBSCRIBER } from '#domain/lineage-graph/feed-subscriber';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = subscriberLambda(() => {
  const ports = feed();
  return {
    subscriber: subscriberNamed(ports.directory, LINEAGE_MODEL_SUBSCRIBER),
    applied: ports.directory.applied(LINEAGE_MODEL_SUBSCRIBER),
    byKeys: ports.byKeys,
    blobs: () => lineageGraph().blobs,
    log: logger,
  };
});
