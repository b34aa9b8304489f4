/**
 * @module post-query
 * The routed query engine (POST /api/v1/query): answers 501 until that capability is built (see docs/decisions.md, "Unbuilt routes").
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('PostQuery', 'The routed query engine');
