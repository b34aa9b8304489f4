/**
 * What the console lets a cookie session call matches the route table: exactly the routes whose
 * `auth` is `key-or-session`.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '#shared/routes';
import { mayCall, SESSION_ROUTE_KEYS } from '../../../web/src/auth/capabilities.ts';

describe('console capabilities', () => {
  it('Should list exactly the routes that accept the session cookie', () => {
    expect([...SESSION_ROUTE_KEYS].sort()).toEqual(ROUTES.filter((r) => r.auth === 'key-or-session').map(routeKey).sort());
  });

  it('Should let a key call everything and a session only its routes', () => {
    for (const route of ROUTES) {
      expect(mayCall({ kind: 'key', apiKey: 'll_x_y' }, routeKey(route))).toBe(true);
      expect(mayCall({ kind: 'session' }, routeKey(route))).toBe(route.auth === 'key-or-session');
    }
  });
});
