/**
 * @module lineage-capture/ports
 * The port lineage capture writes to: somewhere an org's OpenLineage events are recorded. The
 * service's own event store is the one implementation (`event-store-sink.ts`); capture does not
 * care how events are stored.
 */

/** Port: records one OpenLineage event for an org. */
export interface LineageSink {
  /** Records the event durably; rejects when it could not (the caller decides whether that matters). */
  emit(orgId: string, event: object): Promise<void>;
}
