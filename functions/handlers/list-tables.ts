/**
 * @module list-tables
 * The lake catalog (GET /api/v1/tables): answers 501 until that capability is built (see docs/decisions.md, "Unbuilt routes").
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('ListTables', 'The lake catalog');
