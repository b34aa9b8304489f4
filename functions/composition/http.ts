/**
 * @module composition/http
 * The HTTP handlers' wrapper as this deployment configures it. The shared middleware and logger
 * never read the environment: the settings they need (the profile's response limit, the log
 * level) are read here once, when a handler module is loaded (the Lambda's cold start), and
 * pushed in.
 */
import type { RouteContract } from '#shared/contracts';
import { httpHandler as wrapHandler, type ApiAnswer, type ApiRequest, type TooLargeExplainer } from '#shared/middleware';
import { configureObservability } from '#shared/observability';
import { logLevelOf, maxResponseBytesOf } from './config.ts';

/**
 * Wraps a handler body for a route with this deployment's settings (see `httpHandler` in
 * `shared/middleware.ts` for what the wrapper does).
 *
 * @param contract - the route's contract (`contracts.ts`); its `id` names the route in ROUTES
 * @param body - the handler's work; returns the response, throws DomainErrors for 4xx
 * @param tooLarge - the route's error for an answer above the response limit
 */
export const httpHandler = <B, Q, R>(contract: RouteContract<B, Q, R>, body: (request: ApiRequest<B, Q>) => Promise<ApiAnswer<R>>, tooLarge?: TooLargeExplainer) => {
  configureObservability({ logLevel: logLevelOf(process.env) });
  return wrapHandler(contract, body, { maxResponseBytes: maxResponseBytesOf(process.env), tooLarge });
};
