/**
 * The HTTP suites' contract check (`test/helpers/contract-check.ts`) must catch each kind of drift
 * it exists for, or a drifted answer would pass every suite unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { driftOf } from '../../helpers/contract-check.ts';

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
