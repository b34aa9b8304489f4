/**
 * @module lineage-tables-consumer
 * The lineage lake tables' subscriber Lambda (not an HTTP route; ADR 0045, ADR 0056): exports each
 * batch of new events, org by org, from its feed queue into the org's `lineage.run_events` and
 * `lineage.runs` through the lake writer Lambda. A batch that fails is delivered again; the export
 * adds nothing twice (the mark in the table's snapshot summary and the event ids).
 */
import { subscriberLambda } from '#adapters/aws/feed-subscriber-lambda';
import { feed, lineageGraph } from '#composition/index';
import { subscriberNamed } from '#domain/feed/replay';
import { LINEAGE_TABLES_SUBSCRIBER } from '#domain/lineage-tables/feed-subscriber';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = subscriberLambda(() => {
  const ports = feed();
  return {
    subscriber: subscriberNamed(ports.directory, LINEAGE_TABLES_SUBSCRIBER),
    applied: ports.directory.applied(LINEAGE_TABLES_SUBSCRIBER),
    byKeys: ports.byKeys,
    blobs: () => lineageGraph().blobs,
    log: logger,
  };
});
