/**
 * @module post-lineage
 * `POST /api/v1/lineage`: records one OpenLineage event (RunEvent, DatasetEvent or JobEvent; JSON
 * or `Content-Encoding: gzip`). Answers `{status: 200}` only once the store has acknowledged the
 * write; an invalid event is a 400 naming the field, a store outage a 503 (clients retry 5xx).
 */
import { ingestEvent } from '#domain/lineage/ingest';
import { platform } from '#composition/index';
import { PostLineage } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostLineage, async ({ body, principal }) => {
  const receivedAt = new Date();
  await ingestEvent(platform().events, principal.orgId, body, receivedAt);
  return { statusCode: 200, body: { status: 200 } };
});
