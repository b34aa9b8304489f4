/**
 * @module get-events
 * The events API (GET /api/v1/events): answers 501 until that capability is built.
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('GetEvents', 'The events API');
