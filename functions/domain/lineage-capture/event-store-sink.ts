/**
 * @module lineage-capture/event-store-sink
 * A {@link LineageSink} over the org's event store: a captured event is ingested exactly as if a
 * producer had sent it to `POST /api/v1/lineage` (validated, derived, stored), so it shows up in
 * `GET /api/v1/events` like any other event.
 */
import { ingestEvent } from '../lineage/ingest.ts';
import type { EventStore } from '../lineage/ports.ts';
import type { LineageSink } from './ports.ts';

/** Stores captured events in the {@link EventStore}. */
export class EventStoreLineageSink implements LineageSink {
  constructor(private readonly store: EventStore) {}

  async emit(orgId: string, event: object): Promise<void> {
    const text = JSON.stringify(event);
    await ingestEvent(this.store, orgId, { value: JSON.parse(text) as unknown, text, bytes: Buffer.byteLength(text, 'utf8') }, new Date());
  }
}
