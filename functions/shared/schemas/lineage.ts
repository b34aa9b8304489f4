/**
 * @module schemas/lineage
 * Lineage endpoints: the batch answer of OpenLineage.yml, the events query and the stored event.
 * The event itself is described by the OpenLineage schema the validator uses
 * (`openlineage-openapi.ts`), not by a second description here.
 */
import { MAX_LIST_CHARS, MAX_NAME_CHARS, MAX_TIME_CHARS } from '#domain/input-limits';
import { MAX_LIMIT, MAX_OFFSET } from '#domain/lineage/list-query';
import { MARQUEZ_EVENTS_MAX_LIMIT } from '#domain/lineage/marquez-events';
import { EVENT_TIME_PATTERN } from './event-time-pattern.ts';
import { z } from './zod.ts';

const RUN_STATES = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] as const;

/**
 * A UUID as the OpenLineage schema accepts it (ajv-formats' `uuid`): any version and variant,
 * either case, optionally as a `urn:uuid:` URN. zod's own `.uuid()` demands RFC 9562 version and
 * variant bits and would refuse run ids the schema (and the service) accept.
 */
export const LINEAGE_UUID = z
  .string()
  .regex(/^(?:urn:uuid:)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID')
  .openapi({ example: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });

/** `{status: 200}`. */
export const LineageAccepted = z.object({ status: z.number().int() }).openapi('LineageAccepted');

/**
 * Batch answer (OpenLineage.yml's 200 body). `failure` (nothing stored) is lakeline's addition: it
 * comes with a 400 (no valid event) or a 503 (the store could not take them), with `error` too.
 */
export const BatchResponse = z
  .object({
    status: z.enum(['success', 'partial_success', 'failure']),
    summary: z.object({
      received: z.number().int(),
      successful: z.number().int(),
      failed: z.number().int(),
      retriable: z.number().int(),
      non_retriable: z.number().int(),
    }),
    failed_events: z.array(z.object({ index: z.number().int(), reason: z.string(), retriable: z.boolean() })),
  })
  .openapi('BatchResponse');

/** A batch nothing of which was stored: the summary, the refused elements and why (400 or 503). */
export const BatchFailure = BatchResponse.extend({ error: z.string() }).openapi('BatchFailure');

// The largest double below 2^63: the document must not call 2^63 (out of int64) valid.
const INT64 = { minimum: -(2 ** 63), maximum: 2 ** 63 - 1024 } as const;

/** Query parameters of `GET /api/v1/events` (the handler reads them with `domain/lineage/list-query.ts`). */
export const EventsQuery = z
  .object({
    start: z.int().openapi({ description: 'UNIX epoch seconds; event_time >= start', format: 'int64', ...INT64, example: 1700000000 }),
    end: z.int().openapi({ description: 'UNIX epoch seconds; event_time < end (an end at or before start is an empty window)', format: 'int64', ...INT64, example: 1800000000 }),
    sort_by: z.enum(['EVENT_TIME', 'EVENT_SIZE_IN_BYTES']).optional(),
    order: z.enum(['ASC', 'DESC']).optional(),
    run: LINEAGE_UUID.optional(),
    states: z
      .string()
      .max(MAX_LIST_CHARS)
      .regex(new RegExp(`^\\s*(${RUN_STATES.join('|')})\\s*(,\\s*(${RUN_STATES.join('|')})\\s*)*$`))
      .optional()
      .openapi({ description: `comma-separated subset of ${RUN_STATES.join(', ')} (any case)` }),
    namespace: z.string().max(MAX_NAME_CHARS).optional().openapi({ description: 'case-insensitive substring of the job namespace' }),
    job: z.string().max(MAX_NAME_CHARS).optional().openapi({ description: 'case-insensitive substring of the job name' }),
    integrations: z
      .string()
      .max(MAX_LIST_CHARS)
      .regex(/[^,\s]/)
      .optional()
      .openapi({ description: 'comma-separated integration names (at least one; case-insensitive)' }),
    limit: z.int().min(1).max(MAX_LIMIT).optional().openapi({ description: 'page size, default 30; a page holds `limit` events unless the listing ends' }),
    offset: z
      .int()
      .min(0)
      .max(MAX_OFFSET)
      .optional()
      .openapi({ description: 'events to skip, default 0; a client paging with offset += limit sees every event once' }),
  })
  .openapi('EventsQuery');

const DatasetId = z.object({ namespace: z.string(), name: z.string() });

/** A stored lineage event. */
export const StoredLineageEvent = z
  .object({
    id: z.string().uuid(),
    run_id: z.string().nullable(),
    run_state: z.enum(RUN_STATES),
    received_at: z.string(),
    job_name: z.string().nullable(),
    job_namespace: z.string().nullable(),
    event_time: z.string(),
    event_schema: z.string(),
    event_schema_version: z.string(),
    event_size_in_bytes: z.number().int(),
    event_raw: z.record(z.string(), z.unknown()),
    produced_by: z.string(),
    integration: z.string(),
    integration_version: z.string(),
    parent_run_id: z.string().nullable().optional(),
    parent_job_namespace: z.string().nullable().optional(),
    parent_job_name: z.string().nullable().optional(),
    inputs: z.array(DatasetId),
    outputs: z.array(DatasetId),
    warnings: z
      .array(z.string())
      .optional()
      .openapi({ description: "Problems tolerated in the event's facets (e.g. a facet without `_producer`), each naming the facet; the facets are stored as sent. Absent when there were none." }),
  })
  .openapi('StoredLineageEvent');

/** Query parameters of Marquez's events path, `GET /api/v1/events/lineage`. */
export const MarquezEventsQuery = z
  .object({
    // The event time's pattern: a strict subset of what is read (as for `asOf` of the lineage graph).
    after: z
      .string()
      .max(MAX_TIME_CHARS)
      .regex(new RegExp(EVENT_TIME_PATTERN))
      .optional()
      .openapi({ description: 'ISO-8601 date-time (no zone: UTC); event time >= after (default: no bound)', example: '2024-01-01T00:00:00Z' }),
    before: z
      .string()
      .max(MAX_TIME_CHARS)
      .regex(new RegExp(EVENT_TIME_PATTERN))
      .optional()
      .openapi({ description: 'ISO-8601 date-time (no zone: UTC); event time < before (default: no bound)', example: '2030-01-01T00:00:00Z' }),
    sortDirection: z.enum(['asc', 'desc']).optional().openapi({ description: 'by event time; default desc (any case)' }),
    limit: z.int().min(1).max(MARQUEZ_EVENTS_MAX_LIMIT).optional().openapi({ description: `1..${MARQUEZ_EVENTS_MAX_LIMIT}, default 100` }),
    offset: z.int().min(0).max(MAX_OFFSET).optional().openapi({ description: 'default 0' }),
  })
  .openapi('MarquezEventsQuery');

/** Marquez's `Events`: one page of the OpenLineage events as sent, and how many the window holds. */
export const MarquezEvents = z
  .strictObject({
    events: z.array(z.record(z.string(), z.unknown())),
    totalCount: z.int().min(0).openapi({ description: 'events in the window (after, before), whatever the page' }),
  })
  .openapi('MarquezEvents');
