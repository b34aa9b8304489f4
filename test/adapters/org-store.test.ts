/**
 * DynamoOrgStore on both DynamoDB APIs of the tests (the shared stack's dynalite and the AWS emulator's DynamoDB): the OrgStore contract
 * the domain relies on, including atomic usage counters.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '#domain/errors';
import { createOrg } from '#domain/orgs/manage';
import type { Org } from '#domain/orgs/org';
import { storesOn, type LocalStores } from '../helpers/stores.ts';
import { DYNAMO_BACKENDS, openDynamoBackend } from './dynamo-backends.ts';

const newOrg = (changes: Partial<Org> = {}): Org => ({
  orgId: randomUUID(),
  name: 'Acme',
  plan: 'pro',
  paymentMethod: true,
  creditLimitUsd: 250.5,
  usageUsd: 0,
  usageVcpuSeconds: {},
  createdAt: new Date().toISOString(),
  ...changes,
});

describe.each(DYNAMO_BACKENDS)('DynamoOrgStore on %s', (backend) => {
  let stores: LocalStores;

  beforeAll(() => {
    stores = storesOn(openDynamoBackend(backend));
  });

  afterAll(() => stores.close());

  it('Should return a created org exactly as it was written', async () => {
    // Prepare
    const org = newOrg();
    // Act
    await stores.orgs.create(org);
    const read = await stores.orgs.get(org.orgId);
    // Assess
    expect(read).toEqual(org);
  });

  it('Should answer undefined for an unknown org', async () => {
    // Act / Assess
    expect(await stores.orgs.get(randomUUID())).toBeUndefined();
  });

  it('Should refuse to create an org whose id exists, leaving the first untouched', async () => {
    // Prepare
    const org = newOrg();
    await stores.orgs.create(org);
    // Act
    const attempt = stores.orgs.create({ ...org, name: 'Impostor' });
    // Assess
    await expect(attempt).rejects.toThrow(ConflictError);
    expect((await stores.orgs.get(org.orgId))?.name).toBe('Acme');
  });

  it('Should list orgs oldest first', async () => {
    // Prepare
    const later = await createOrg(stores.orgs, { name: 'Later' }, new Date('2031-01-01T00:00:00Z'));
    const earlier = await createOrg(stores.orgs, { name: 'Earlier' }, new Date('2000-01-01T00:00:00Z'));
    // Act
    const ids = (await stores.orgs.list()).map((o) => o.orgId);
    // Assess
    expect(ids.indexOf(earlier.orgId)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(earlier.orgId)).toBeLessThan(ids.indexOf(later.orgId));
  });

  it('Should update only the given fields and return the new org', async () => {
    // Prepare
    const org = newOrg();
    await stores.orgs.create(org);
    // Act
    const updated = await stores.orgs.update(org.orgId, { plan: 'free', paymentMethod: false, name: 'Renamed' });
    // Assess
    expect(updated).toEqual({ ...org, plan: 'free', paymentMethod: false, name: 'Renamed' });
    expect(await stores.orgs.get(org.orgId)).toEqual(updated);
  });

  it('Should return the org unchanged when there is nothing to update', async () => {
    // Prepare
    const org = newOrg();
    await stores.orgs.create(org);
    // Act
    const same = await stores.orgs.update(org.orgId, {});
    // Assess
    expect(same).toEqual(org);
  });

  it.each([
    ['with changes', { plan: 'free' as const }],
    ['without changes', {}],
  ])('Should refuse to update an unknown org (%s) without creating it', async (_case, changes) => {
    // Prepare
    const orgId = randomUUID();
    // Act
    const attempt = stores.orgs.update(orgId, changes);
    // Assess
    await expect(attempt).rejects.toThrow(NotFoundError);
    expect(await stores.orgs.get(orgId)).toBeUndefined();
  });

  it('Should add concurrent usage atomically, per engine', async () => {
    // Prepare
    const org = newOrg();
    await stores.orgs.create(org);
    // Act
    await Promise.all([
      ...Array.from({ length: 20 }, () => stores.orgs.addUsage(org.orgId, 'spark', 10, 0.5)),
      ...Array.from({ length: 5 }, () => stores.orgs.addUsage(org.orgId, 'polars', 2, 0.25)),
    ]);
    // Assess
    const read = await stores.orgs.get(org.orgId);
    expect(read?.usageUsd).toBeCloseTo(11.25, 10);
    expect(read?.usageVcpuSeconds).toEqual({ spark: 200, polars: 10 });
  });

  it('Should refuse usage for an unknown org without creating it', async () => {
    // Prepare
    const orgId = randomUUID();
    // Act
    const attempt = stores.orgs.addUsage(orgId, 'spark', 1, 1);
    // Assess
    await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
    expect(await stores.orgs.get(orgId)).toBeUndefined();
  });
});
