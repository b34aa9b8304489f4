/**
 * @module get-run
 * The runs API (GET /api/v1/runs/{run_id}): answers 501 until that capability is built (see docs/decisions.md, "Unbuilt routes").
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('GetRun', 'The runs API');
