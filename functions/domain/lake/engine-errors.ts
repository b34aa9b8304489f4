/**
 * @module lake/engine-errors
 * Errors a SQL engine over lake tables raises (`ports.ts` `QueryEngine`). The engine's own rejection of a statement (a syntax, binder or
 * conversion error) and a statement over the endpoint's limits are the caller's to fix, so both
 * are 400s carrying a message the caller can act on; an engine's internal failure is not one of
 * them and stays a bare 500.
 */
import { ValidationError } from '../errors.ts';

/** The engine refused or failed the statement; the message is the engine's own (400). */
export class QuerySqlError extends ValidationError {}

/** The statement exceeded a limit of the endpoint: run time or inline result size (400). */
export class QueryLimitError extends ValidationError {}
