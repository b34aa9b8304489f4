/**
 * @module not-built
 * Shared body of routes whose capability arrives in a later version: they authenticate like every
 * route and then answer 501 naming what is missing, so nothing pretends to work.
 */
import { NotImplementedError } from '#domain/errors';
import { httpHandler } from './middleware.ts';

/** A handler for a route whose capability is not built yet. */
export const notBuiltHandler = (routeId: string, capability: string) =>
  httpHandler(routeId, async () => {
    throw new NotImplementedError(`${capability} is not available in this version of lakeline.`);
  });
