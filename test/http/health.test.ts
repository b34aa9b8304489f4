/**
 * `GET /api/v1/health` through the local gateway, on the shared stack (ADR 0045): an org's feed
 * subscribers (the lineage model and alerts) and their lag — none stored yet, then both caught up with an event just
 * posted; the answer read back by its schema; refused without a key.
 */
import { describe, expect, inject, it } from 'vitest';
import { Health } from '#shared/schemas/health';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { freshOrg } from './lineage-api.ts';

const health = async (token?: string) => {
  const response = await fetch(`${inject('stack').baseUrl}/api/v1/health`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('GET /api/v1/health', () => {
  it("Should answer the org's subscribers with no lag before any event, and the lineage model caught up after one", async () => {
    // Prepare
    const { token, api } = await freshOrg('Health test');
    // Act
    const empty = await health(token);
    // Assess
    expect(empty.status).toBe(200);
    expect(Health.parse(empty.body)).toEqual({
      keyScope: 'full',
      status: 'ok',
      feed: {
        newestStoredAt: null,
        subscribers: [
          { subscriber: 'lineage-model', appliedUpTo: null, lagMs: 0 },
          { subscriber: 'alerts', appliedUpTo: null, lagMs: 0 },
          { subscriber: 'lineage-tables', appliedUpTo: null, lagMs: 0 },
        ],
      },
    });

    // Act: one event; the model takes it in within moments (the feed's quiet delay), the lineage
    // tables within their 10 s gathering and a commit (ADR 0056).
    expect((await api.post(JSON.stringify(runEventJson({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: crypto.randomUUID(), job: 'health_job' })))).status).toBe(200);
    let answer = await health(token);
    const caughtUp = (body: unknown) => (body as { feed: { subscribers: { lagMs: number | null }[] } }).feed.subscribers.every((s) => s.lagMs === 0);
    for (let tries = 0; tries < 300 && !caughtUp(answer.body); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      answer = await health(token);
    }
    // Assess
    const body = Health.parse(answer.body);
    expect(body.status).toBe('ok');
    expect(body.feed.newestStoredAt).not.toBeNull();
    expect(body.feed.subscribers).toEqual([
      { subscriber: 'lineage-model', appliedUpTo: body.feed.newestStoredAt, lagMs: 0 },
      { subscriber: 'alerts', appliedUpTo: body.feed.newestStoredAt, lagMs: 0 },
      { subscriber: 'lineage-tables', appliedUpTo: body.feed.newestStoredAt, lagMs: 0 },
    ]);
  }, 90_000);

  it('Should refuse a caller without an API key', async () => {
    // Act
    const answer = await health();
    // Assess
    expect(answer.status).toBe(401);
  });
});
