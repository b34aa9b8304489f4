/**
 * @module lineage
 * Public surface of the lineage domain: validating incoming OpenLineage events and deriving the
 * stored lineage event of the contract. Pure: no AWS, no HTTP.
 */
export { validateEvent, MAX_NESTING_DEPTH } from './validate.ts';
export type { ValidationResult } from './validate.ts';
export { deriveStoredEvent, prepareEvent, toPublicEvent } from './derive.ts';
export type { PreparedEvent } from './derive.ts';
export {
  parseEventTime,
  eventTimeProblem,
  formatUtcMicros,
  sortableTime,
  epochMicrosOfDate,
  MIN_EPOCH_MICROS,
  MAX_EPOCH_MICROS,
  SORTABLE_TIME_WIDTH,
} from './event-time.ts';
export type { EventTime } from './event-time.ts';
export { eventId, canonicalJson } from './event-id.ts';
export { deriveIntegration, producerInfo, UNKNOWN_INTEGRATION } from './integration.ts';
export type { Integration, ProducerInfo } from './integration.ts';
export { schemaVersion } from './schema-url.ts';
export { foldForSearch } from './search-fold.ts';
export { InvalidEventError } from './errors.ts';
export { RUN_STATES } from './types.ts';
export type {
  DatasetRef,
  DerivedLineageEvent,
  EventKind,
  LineageEventIndexFields,
  RunState,
  StoredLineageEvent,
} from './types.ts';
