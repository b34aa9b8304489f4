/**
 * @module auth/capabilities
 * What a cookie session may call. lakeline accepts its session cookie only on the events, routed
 * query and legacy query endpoints (`auth: 'key-or-session'` in `functions/shared/routes.ts`; a
 * unit test keeps this list equal to it); everything else needs an API key.
 */
import type { Credentials } from '../api/credentials.ts';

/** Route keys (`METHOD path`) that accept the session cookie. */
export const SESSION_ROUTE_KEYS: readonly string[] = ['GET /api/v1/events', 'POST /api/v1/query', 'POST /api/v1/warehouse/query'];

/** Whether credentials may call a route (`GET /api/v1/tables`). */
export const mayCall = (credentials: Credentials, routeKey: string): boolean => credentials.kind === 'key' || SESSION_ROUTE_KEYS.includes(routeKey);
