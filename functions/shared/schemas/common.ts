/**
 * @module schemas/common
 * Shapes shared by several endpoints: error bodies, the tabular result, job identity, table refs.
 */
import { MAX_TABLE_REF_CHARS, tooLongMessage } from '#domain/input-limits';
import { z } from './zod.ts';

/** A string of at most `max` characters; a longer one is refused naming the limit. */
export const boundedText = (max: number) => z.string().max(max, tooLongMessage(max));

/** `{error}`: most 4xx bodies. */
export const ErrorBody = z.object({ error: z.string() }).openapi('Error');
/** `{status: 500}`: unexpected errors outside the routed endpoint. */
export const StatusBody = z.object({ status: z.number().int() }).openapi('Status');
/** `{message}`: an answer of the gateway itself (431: the request line and headers are too large). */
export const GatewayMessageBody = z.object({ message: z.string() }).openapi('GatewayMessage');
/** `{success: false, error}`: every error of the routed endpoint. */
export const RoutedErrorBody = z.object({ success: z.literal(false), error: z.string() }).openapi('RoutedError');
/** `{error, details}`: polars 400s. */
export const PolarsErrorBody = z.object({ error: z.string(), details: z.string() }).openapi('PolarsError');

/** Rows with their column names and engine type names. */
export const TabularResult = z
  .object({
    columns: z.array(z.string()),
    column_types: z.array(z.string()),
    rows: z.array(z.array(z.unknown())),
  })
  .openapi('TabularResult');

/** A lineage job identity. */
export const JobIdentity = z.object({ namespace: z.string(), name: z.string() }).openapi('Job');

// At most 128 characters, as lake names are (`domain/core/names.ts`).
const IDENT = '[A-Za-z_][A-Za-z0-9_]{0,127}';
/** `namespace.table`. */
export const QualifiedTableName = boundedText(257)
  .regex(new RegExp(`^${IDENT}\\.${IDENT}$`), 'must be namespace.table (letters, digits, underscores)')
  .openapi({ example: 'analytics.daily_orders' });

/** `alias=namespace.table` or `{alias, table}`: a table registered for a script or polars query. */
export const TableRef = z
  .union([
    boundedText(MAX_TABLE_REF_CHARS).regex(new RegExp(`^${IDENT}=(${IDENT}\\.)?${IDENT}\\.${IDENT}$`), 'must be alias=namespace.table'),
    z.object({ alias: boundedText(128).regex(new RegExp(`^${IDENT}$`), 'must be an identifier'), table: boundedText(MAX_TABLE_REF_CHARS).min(1) }).strict(),
  ])
  .openapi('TableRef');

/** `overwrite` or `append`. */
export const WriteMode = z.enum(['overwrite', 'append']);
