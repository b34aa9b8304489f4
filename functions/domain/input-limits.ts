/**
 * @module input-limits
 * The longest text each kind of request input may hold. Every query, path and body text the API
 * takes has a bound far above what a real caller sends, so that no request makes the service read,
 * fold, match or echo an unbounded string; the zod schemas carry these as `maxLength` (so the
 * OpenAPI document says them) and a longer value is a 400 naming the field and the limit
 * (docs/reference/errors.md, "Input limits").
 */

/**
 * A lineage namespace or name, or a filter on one (`namespace`, `job` of the events listing,
 * `namespace` of search, the names in lineage paths). DynamoDB keys hold at most 2,048 bytes, and
 * OpenLineage names (URIs, dotted paths) are far shorter.
 */
export const MAX_NAME_CHARS = 2_048;

/** A node id (`datasetField:<namespace>:<dataset>:<field>`): a type and up to three names. */
export const MAX_NODE_ID_CHARS = 4 * MAX_NAME_CHARS;

/** The search text of `GET /api/v1/search`. */
export const MAX_SEARCH_CHARS = 1_000;

/** A comma-separated list parameter (`states`, `integrations`). */
export const MAX_LIST_CHARS = 4_096;

/** A date-time parameter (`asOf`). */
export const MAX_TIME_CHARS = 64;

/**
 * Longest SQL statement the firewall reads (characters, 256 Ki); longer ones are a 400 before any
 * parsing. The firewall also bounds a statement's tokens (`MAX_SQL_TOKENS` in sql/analyze.ts).
 */
export const MAX_SQL_LENGTH = 262_144;

/** A polars script (the sandbox refuses longer ones again: `MAX_SCRIPT_CHARS` in policy.py). */
export const MAX_SCRIPT_CHARS = 200_000;

/** A short free-text body field (`catalog`, `instanceType`, a script parameter's value or name). */
export const MAX_SHORT_TEXT_CHARS = 256;

/** A table name in a registration (`alias=namespace.table`): an alias, a namespace and a table. */
export const MAX_TABLE_REF_CHARS = 400;

/** The message of a value longer than its bound: `<field>: must be at most <n> characters`. */
export const tooLongMessage = (max: number): string => `must be at most ${max.toLocaleString('en-US')} characters`;
