/**
 * The authorizer Lambda when its store is down: it must not throw (API Gateway would answer its
 * own 500, whose body the contract does not know) nor deny (a valid caller would be told their key
 * is bad); it marks the request undecided, and the handler answers 503.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '#domain/core/api-key';
import { UNAVAILABLE_CONTEXT } from '#domain/auth/principal';
import { DYNAMODB_ENDPOINT_ENV, HOME_ENV, LOG_LEVEL_ENV, PROFILE_ENV, SESSION_SECRET_ENV } from '#composition/env-names';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { authorizerEvent } from '../helpers/events.ts';
import { tempHome } from '../helpers/local-stack-process.ts';

type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEventV2) => Promise<APIGatewaySimpleAuthorizerWithContextResult<Record<string, string>>>;

const savedEnv = { ...process.env };
let handler: AuthorizerHandler;

beforeAll(async () => {
  // Nothing listens on port 1: every store request fails with ECONNREFUSED.
  Object.assign(process.env, { [PROFILE_ENV]: 'local', [HOME_ENV]: tempHome('down'), [DYNAMODB_ENDPOINT_ENV]: 'http://127.0.0.1:1', [SESSION_SECRET_ENV]: 'x', [LOG_LEVEL_ENV]: 'warn' });
  ({ handler } = (await import('#handlers/authorizer')) as { handler: AuthorizerHandler });
});

afterAll(() => {
  process.env = savedEnv;
});

describe('authorizer handler with its store down', () => {
  it('Should mark the request undecided instead of throwing or denying, and log why', async () => {
    // Prepare
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    const route = ROUTES.find((r) => r.id === 'PostLineage') as RouteDefinition;
    // Act
    const result = await handler(authorizerEvent(route, { headers: { authorization: `Bearer ${generateApiKey().token}` } }));
    const lines = stderr.mock.calls.map(([line]) => String(line));
    stderr.mockRestore();
    // Assess
    expect(result).toEqual({ isAuthorized: true, context: UNAVAILABLE_CONTEXT });
    expect(lines.some((line) => line.includes('authorizer could not decide'))).toBe(true);
  });

  it('Should still deny a malformed key, which needs no store', async () => {
    // Prepare
    const route = ROUTES.find((r) => r.id === 'PostLineage') as RouteDefinition;
    // Act
    const result = await handler(authorizerEvent(route, { headers: { authorization: 'Bearer nope' } }));
    // Assess
    expect(result).toEqual({ isAuthorized: true, context: { denied: 'malformed API key' } });
  });
});
