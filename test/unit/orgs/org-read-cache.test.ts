/**
 * The query endpoints' memory of org records (domain/orgs/org-read-cache.ts, ADR 0058): one store
 * read per org per time-to-live, a plan change seen once it expires, unknown orgs never remembered.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createOrg, updateOrg } from '#domain/orgs/manage';
import { MAX_CACHED_ORGS, OrgReadCache } from '#domain/orgs/org-read-cache';
import { MemoryOrgStore } from '../../helpers/memory-stores.ts';

const NOW = new Date('2030-01-01T00:00:00Z');
let orgs: MemoryOrgStore;
let clock: number;
let cache: OrgReadCache;

beforeEach(() => {
  orgs = new MemoryOrgStore();
  clock = 0;
  cache = new OrgReadCache(orgs, 30_000, () => clock);
});

describe('OrgReadCache', () => {
  it('Should read an org from the store once within the time-to-live', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme', plan: 'pro' }, NOW);
    // Act
    const first = await cache.get(org.orgId);
    clock = 29_999;
    const second = await cache.get(org.orgId);
    // Assess
    expect(second).toEqual(first);
    expect(orgs.calls.get).toBe(1);
  });

  it('Should see a plan change once the time-to-live has passed', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme', plan: 'pro' }, NOW);
    await cache.get(org.orgId);
    await updateOrg(orgs, org.orgId, { plan: 'free' });
    // Act
    clock = 30_000;
    const after = await cache.get(org.orgId);
    // Assess
    expect(after?.plan).toBe('free');
  });

  it('Should not remember an org that does not exist, so one created just after is seen at once', async () => {
    // Act
    const before = await cache.get('00000000-0000-4000-8000-00000000000a');
    await createOrg(orgs, { name: 'Late', orgId: '00000000-0000-4000-8000-00000000000a' }, NOW);
    const after = await cache.get('00000000-0000-4000-8000-00000000000a');
    // Assess
    expect(before).toBeUndefined();
    expect(after?.name).toBe('Late');
  });

  it('Should read the store every time with a time-to-live of 0', async () => {
    // Prepare
    const uncached = new OrgReadCache(orgs, 0, () => clock);
    const org = await createOrg(orgs, { name: 'Acme' }, NOW);
    // Act
    await uncached.get(org.orgId);
    await uncached.get(org.orgId);
    // Assess
    expect(orgs.calls.get).toBe(2);
  });

  it('Should remember at most MAX_CACHED_ORGS orgs, dropping the stalest', async () => {
    // Prepare
    const ids: string[] = [];
    for (let i = 0; i <= MAX_CACHED_ORGS; i++) ids.push((await createOrg(orgs, { name: `org ${i}` }, NOW)).orgId);
    // Act: every org once, then the first and the last again.
    for (const id of ids) await cache.get(id);
    const reads = orgs.calls.get ?? 0;
    await cache.get(ids[ids.length - 1] as string);
    await cache.get(ids[0] as string);
    // Assess: the last is remembered; the first was dropped to make room.
    expect((orgs.calls.get ?? 0) - reads).toBe(1);
  });

  it('Should refuse a negative time-to-live', () => {
    expect(() => new OrgReadCache(orgs, -1)).toThrow(/non-negative/);
  });
});
