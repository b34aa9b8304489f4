/**
 * @module get-table
 * The lake catalog (GET /api/v1/tables/{namespace}/{table}): answers 501 until that capability is built (see docs/decisions.md, "Unbuilt routes").
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('GetTable', 'The lake catalog');
