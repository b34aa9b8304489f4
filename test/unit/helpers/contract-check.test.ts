/**
 * The HTTP suites' contract check (`test/helpers/contract-check.ts`) must catch each kind of drift
 * it exists for, or a drifted answer would pass every suite unnoticed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { ContractDriftError, driftOf } from '../../helpers/contract-check.ts';

const JSON_TYPE = 'application/json';
const route = (id: string): RouteDefinition => ROUTES.find((r) => r.id === id) as RouteDefinition;
const postLineage = route('PostLineage');
const getEvents = route('GetEvents');

describe('contract check: answers against their route', () => {
  it('Should accept an answer that keeps the contract', async () => {
    // Act
    const drift = await driftOf(postLineage, 200, JSON_TYPE, JSON.stringify({ status: 201 }));
    // Assess
    expect(drift).toBeUndefined();
  });

  it('Should flag a field the schema does not know', async () => {
    // Act
    const drift = await driftOf(postLineage, 200, JSON_TYPE, JSON.stringify({ status: 201, stored: true }));
    // Assess
    expect(drift).toContain('/stored: not in the schema');
  });

  it('Should flag a field the schema requires and the answer lacks', async () => {
    // Act
    const drift = await driftOf(postLineage, 200, JSON_TYPE, JSON.stringify({}));
    // Assess
    expect(drift).toContain('does not match the 200 schema');
    expect(drift).toContain('status');
  });

  it('Should flag a status the route does not list', async () => {
    // Act
    const drift = await driftOf(getEvents, 418, JSON_TYPE, JSON.stringify({ error: 'teapot' }));
    // Assess
    expect(drift).toMatch(/^status 418 is not one the contract lists \(200, 400, /);
  });

  it('Should check an error body against the route\'s error schema', async () => {
    // Act
    const wrongShape = await driftOf(getEvents, 400, JSON_TYPE, JSON.stringify({ message: 'start: is required' }));
    const rightShape = await driftOf(getEvents, 400, JSON_TYPE, JSON.stringify({ error: 'start: is required' }));
    // Assess
    expect(wrongShape).toContain('does not match the 400 schema');
    expect(rightShape).toBeUndefined();
  });

  it('Should flag a body that its content type calls JSON but is not', async () => {
    // Act
    const drift = await driftOf(postLineage, 200, JSON_TYPE, '{"status":');
    // Assess
    expect(drift).toContain('is not JSON');
  });
});

describe('contract check: installed for every suite', () => {
  it("Should make a suite's fetch throw when a loopback gateway answers a route off its contract", async () => {
    // Prepare: a server on loopback that answers POST /api/v1/lineage with a field the contract lacks
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 201, stored: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // Act
      const drifted = fetch(`${base}/api/v1/lineage`, { method: 'POST', body: '{}' });
      const unrouted = await fetch(`${base}/not/a/route`);
      // Assess
      await expect(drifted).rejects.toThrow(ContractDriftError);
      await expect(drifted).rejects.toThrow('POST /api/v1/lineage answered 200, which drifts from its contract: the body and its schema differ: /stored: not in the schema');
      expect(unrouted.status).toBe(200);
    } finally {
      server.close();
    }
  });
});
