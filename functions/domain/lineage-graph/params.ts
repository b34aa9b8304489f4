/**
 * @module lineage-graph/params
 * Reads the query and path parameters of the lineage read model's endpoints. Every parameter is
 * checked; a bad one is refused with a 400 whose message starts with its name
 * (`depth: must be an integer between 0 and 100`), and unknown parameters are refused so that a
 * typo cannot silently change an answer.
 */
import { ValidationError } from '../errors.ts';
import { MAX_SEARCH_CHARS, tooLongMessage } from '../input-limits.ts';
import { parseEventTime } from '../lineage/event-time.ts';
import type { ColumnLineageQuery } from './column-lineage.ts';
import type { Direction, LineageGraphQuery } from './graph.ts';
import { MAX_NODE_ID_COLONS, nodeIdReadings, nodeIdRestPattern, type NodeId, type QualifiedName } from './ids.ts';
import type { Page } from './ports.ts';
import type { SearchQuery } from './search.ts';

type Params = Readonly<Record<string, string | undefined>>;

/** Depth when `depth` is absent (Marquez's default). */
export const DEFAULT_DEPTH = 20;
/** Deepest graph served: each level costs about two store round trips. */
export const MAX_DEPTH = 100;
/** Page size of object lists when `limit` is absent (Marquez's default). */
export const DEFAULT_LIMIT = 100;
/** Largest page of object lists. */
export const MAX_LIMIT = 1_000;
/** Largest `offset`: offset paging reads every skipped entry again. */
export const MAX_OFFSET = 100_000;
/** Results of a search when `limit` is absent (Marquez's default). */
export const DEFAULT_SEARCH_LIMIT = 10;

const NAME_REST = nodeIdRestPattern(2, MAX_NODE_ID_COLONS.DATASET);
const FIELD_REST = nodeIdRestPattern(3, MAX_NODE_ID_COLONS.DATASET_FIELD);

/**
 * The shapes of the node ids each endpoint takes, as the OpenAPI document states them: a type, then
 * names that may hold `:` themselves (`file:/tmp/x`, `hdfs://host:8020`, `arn:aws:…`), with at
 * least one way to read them as non-empty names and at most `MAX_NODE_ID_COLONS` colons. Exactly
 * the ids `nodeIdReadings` reads; the endpoints resolve the readings by what exists (ADR 0043).
 * (`[^:]`, not `.`: JavaScript's `.` and other engines' disagree on `\r` and U+2028.)
 */
export const NODE_ID_PATTERNS = {
  lineage: new RegExp(`^(job|dataset):(?:${NAME_REST})$`),
  columnLineage: new RegExp(`^(datasetField:(?:${FIELD_REST})|(dataset|job):(?:${NAME_REST}))$`),
} as const;

const UUID = /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Caller-supplied text echoed in a message, cut so an error body stays small. */
const shorten = (text: string): string => (text.length > 64 ? `${text.slice(0, 64)}…` : text);

const refuseUnknown = (params: Params, known: readonly string[]): void => {
  const unknown = Object.keys(params).find((name) => !known.includes(name));
  if (unknown !== undefined) throw new ValidationError(`${shorten(unknown)}: is not a parameter of this endpoint (expected ${known.join(', ')})`);
};

const integerIn = (params: Params, name: string, min: number, max: number, fallback: number): number => {
  const text = params[name];
  if (text === undefined) return fallback;
  const message = `${name}: must be an integer between ${min} and ${max}`;
  if (!/^\s*-?\d+\s*$/.test(text)) throw new ValidationError(message);
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new ValidationError(message);
  return value;
};

const oneOf = <T extends string>(params: Params, name: string, allowed: readonly T[], fallback: T): T => {
  const text = params[name];
  if (text === undefined) return fallback;
  const found = allowed.find((value) => value.toUpperCase() === text.trim().toUpperCase());
  if (found === undefined) throw new ValidationError(`${name}: must be one of ${allowed.join(', ')}`);
  return found;
};

const required = (params: Params, name: string): string => {
  const text = params[name];
  if (text === undefined || text.trim() === '') throw new ValidationError(`${name}: is required`);
  return text;
};

/**
 * A run id as OpenLineage accepts it (any UUID version, either case, optional `urn:uuid:`), in the
 * form the model stores (lower case, bare).
 * @throws {ValidationError} naming `parameter`
 */
export function parseRunId(value: string | undefined, parameter = 'runId'): string {
  const match = value === undefined ? null : UUID.exec(value.trim());
  if (!match?.[1]) throw new ValidationError(`${parameter}: must be a UUID`);
  return match[1].toLowerCase();
}

/** An ISO-8601 date-time (a zone-less one is UTC), in the model's fixed-width UTC form. @throws {ValidationError} */
export function parseAsOf(value: string, parameter = 'asOf'): string {
  try {
    return parseEventTime(value.trim(), parameter).iso;
  } catch {
    throw new ValidationError(`${parameter}: must be an ISO-8601 date-time (2024-01-31T12:00:00Z)`);
  }
}

const checkShape = (nodeText: string, pattern: RegExp, shape: string): void => {
  if (!pattern.test(nodeText)) throw new ValidationError(`nodeId: must be ${shape}`);
};

const booleanParam = (params: Params, name: string, fallback: boolean): boolean => {
  const text = params[name];
  if (text === undefined) return fallback;
  const value = text.trim().toLowerCase();
  if (value !== 'true' && value !== 'false') throw new ValidationError(`${name}: must be true or false`);
  return value === 'true';
};

/** `{otherReadings}` when a node id reads more than one way (absent otherwise, as most ids). */
const otherReadings = (readings: readonly NodeId[] | undefined): { otherReadings?: readonly NodeId[] } =>
  readings !== undefined && readings.length > 1 ? { otherReadings: readings.slice(1) } : {};

/** The query parameters of `GET /api/v1/lineage`. */
export const LINEAGE_PARAMETERS = ['nodeId', 'depth', 'direction', 'asOf', 'runId'] as const;

/**
 * `GET /api/v1/lineage?nodeId=…&depth=…&direction=…&asOf=…&runId=…`: `nodeId` is a `job:` or
 * `dataset:` node (required unless `runId` is given), `depth` 0–100 (default 20), `direction`
 * `both` (default), `upstream` or `downstream`, `asOf` an ISO-8601 time, `runId` a UUID.
 * `asOf` and `runId` do not combine (a run is already one moment).
 * @throws {ValidationError} naming the first bad parameter
 */
export function parseLineageQuery(params: Params): LineageGraphQuery {
  refuseUnknown(params, LINEAGE_PARAMETERS);
  const runId = params.runId === undefined ? undefined : parseRunId(params.runId);
  const nodeText = params.nodeId;
  if (runId === undefined && (nodeText === undefined || nodeText.trim() === '')) throw new ValidationError('nodeId: is required (job:<namespace>:<name> or dataset:<namespace>:<name>)');
  const readings = nodeText === undefined || nodeText.trim() === '' ? undefined : nodeIdReadings(nodeText, 'nodeId', ['JOB', 'DATASET']);
  if (nodeText !== undefined && readings !== undefined) checkShape(nodeText, NODE_ID_PATTERNS.lineage, 'job:<namespace>:<name> or dataset:<namespace>:<name>');
  const nodeId = readings?.[0];
  if (nodeId?.version !== undefined) throw new ValidationError('nodeId: versioned node ids are not supported here; use runId for the versions of one run');
  if (runId !== undefined && params.asOf !== undefined) throw new ValidationError('asOf: cannot be combined with runId');
  const direction = oneOf<Direction>(params, 'direction', ['both', 'upstream', 'downstream'], 'both');
  return {
    ...(nodeId === undefined ? {} : { nodeId }),
    ...otherReadings(readings),
    depth: integerIn(params, 'depth', 0, MAX_DEPTH, DEFAULT_DEPTH),
    direction,
    ...(params.asOf === undefined ? {} : { asOf: parseAsOf(params.asOf) }),
    ...(runId === undefined ? {} : { runId }),
  };
}

/** The query parameters of `GET /api/v1/column-lineage`. */
export const COLUMN_LINEAGE_PARAMETERS = ['nodeId', 'depth', 'withDownstream'] as const;

/**
 * `GET /api/v1/column-lineage?nodeId=…&depth=…&withDownstream=…`: `nodeId` a
 * `datasetField:ns:dataset:field`, `dataset:ns:name` or `job:ns:name` node (Marquez's three), `depth` 0–100 (default 20),
 * `withDownstream` true or false (default false).
 * @throws {ValidationError} naming the first bad parameter
 */
export function parseColumnLineageQuery(params: Params): ColumnLineageQuery {
  refuseUnknown(params, COLUMN_LINEAGE_PARAMETERS);
  const nodeText = required(params, 'nodeId');
  const readings = nodeIdReadings(nodeText, 'nodeId', ['DATASET_FIELD', 'DATASET', 'JOB']);
  const nodeId = readings[0] as NodeId;
  checkShape(nodeText, NODE_ID_PATTERNS.columnLineage, 'datasetField:<namespace>:<dataset>:<field>, dataset:<namespace>:<name> or job:<namespace>:<name>');
  if (nodeId.version !== undefined) throw new ValidationError('nodeId: versioned node ids are not supported');
  return { nodeId, ...otherReadings(readings), depth: integerIn(params, 'depth', 0, MAX_DEPTH, DEFAULT_DEPTH), withDownstream: booleanParam(params, 'withDownstream', false) };
}

/** The query parameters of every paged object list. */
export const PAGE_PARAMETERS = ['limit', 'offset'] as const;

/**
 * `limit` (1–1000, default 100) and `offset` (0–100000, default 0) of an object list.
 * @throws {ValidationError} naming the first bad parameter
 */
export function parsePage(params: Params, defaultLimit = DEFAULT_LIMIT): Page {
  refuseUnknown(params, PAGE_PARAMETERS);
  return { limit: integerIn(params, 'limit', 1, MAX_LIMIT, defaultLimit), offset: integerIn(params, 'offset', 0, MAX_OFFSET, 0) };
}

/** The query parameters of `GET /api/v1/search`. */
export const SEARCH_PARAMETERS = ['q', 'filter', 'sort', 'namespace', 'limit', 'offset'] as const;

/**
 * `GET /api/v1/search?q=…&filter=DATASET|JOB&sort=NAME|UPDATED_AT&namespace=…&limit=…&offset=…`:
 * `q` required, at most 1,000 characters; `limit` 1–1000, default 10.
 * @throws {ValidationError} naming the first bad parameter
 */
export function parseSearchQuery(params: Params): SearchQuery {
  refuseUnknown(params, SEARCH_PARAMETERS);
  const q = required(params, 'q');
  if (q.length > MAX_SEARCH_CHARS) throw new ValidationError(`q: ${tooLongMessage(MAX_SEARCH_CHARS)}`);
  const filter = params.filter === undefined ? undefined : oneOf<'DATASET' | 'JOB'>(params, 'filter', ['DATASET', 'JOB'], 'DATASET');
  return {
    q,
    ...(filter === undefined ? {} : { filter }),
    sort: oneOf<'NAME' | 'UPDATED_AT'>(params, 'sort', ['NAME', 'UPDATED_AT'], 'NAME'),
    ...(params.namespace === undefined || params.namespace === '' ? {} : { namespace: params.namespace }),
    limit: integerIn(params, 'limit', 1, MAX_LIMIT, DEFAULT_SEARCH_LIMIT),
    offset: integerIn(params, 'offset', 0, MAX_OFFSET, 0),
  };
}

/**
 * A name from a path (`/namespaces/{namespace}/jobs/{job}`), already URL-decoded by the caller.
 * @throws {ValidationError} naming the path parameter when it is empty
 */
export function parsePathName(value: string | undefined, parameter: string): string {
  if (value === undefined || value === '') throw new ValidationError(`${parameter}: is required`);
  return value;
}

/** `{namespace, name}` from two path parameters. @throws {ValidationError} */
export function parsePathQualifiedName(namespace: string | undefined, name: string | undefined, nameParameter: 'job' | 'dataset'): QualifiedName {
  return { namespace: parsePathName(namespace, 'namespace'), name: parsePathName(name, nameParameter) };
}
