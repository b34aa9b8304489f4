/**
 * The operator use cases behind the CLI (domain/orgs/manage.ts), on in-memory stores.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { hashSecret, parseApiKey, secretMatches } from '#domain/core/api-key';
import { MAX_SESSION_TTL_SECONDS, verifySessionToken } from '#domain/core/session';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { createKey, createOrg, createSession, describeKey, listKeys, MAX_NAME_LENGTH, revokeKey, updateOrg } from '#domain/orgs/manage';
import { PLANS, type PlanName } from '#domain/core/plans';
import { MemoryKeyStore, MemoryOrgStore } from '../../helpers/memory-stores.ts';

const NOW = new Date('2030-01-01T00:00:00Z');
let orgs: MemoryOrgStore;
let keys: MemoryKeyStore;

beforeEach(() => {
  orgs = new MemoryOrgStore();
  keys = new MemoryKeyStore();
});

describe('createOrg', () => {
  it('Should create a free org without payment method, with the plan default credit limit', async () => {
    // Act
    const org = await createOrg(orgs, { name: '  Acme  ' }, NOW);
    // Assess
    expect(org).toEqual({
      orgId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme',
      plan: 'free',
      paymentMethod: false,
      creditLimitUsd: PLANS.free.defaultCreditLimitUsd,
      usageUsd: 0,
      usageVcpuSeconds: {},
      createdAt: NOW.toISOString(),
    });
    expect(orgs.orgs.get(org.orgId)).toEqual(org);
  });

  it('Should take plan, payment method, credit limit and id when given', async () => {
    // Act
    const org = await createOrg(orgs, { name: 'Acme', plan: 'pro', paymentMethod: true, creditLimitUsd: 0, orgId: 'fixed' });
    // Assess
    expect(org).toMatchObject({ orgId: 'fixed', plan: 'pro', paymentMethod: true, creditLimitUsd: 0 });
  });

  it.each([
    ['an empty name', { name: '   ' }, /name: must not be empty/],
    ['a name that is too long', { name: 'x'.repeat(MAX_NAME_LENGTH + 1) }, /name: must be at most/],
    ['an unknown plan', { name: 'A', plan: 'gold' as PlanName }, /plan: must be one of free, pro, enterprise/],
    ['a negative credit limit', { name: 'A', creditLimitUsd: -1 }, /creditLimitUsd/],
    ['an infinite credit limit', { name: 'A', creditLimitUsd: Infinity }, /creditLimitUsd/],
  ])('Should refuse %s with a ValidationError and store nothing', async (_case, input, message) => {
    // Act
    const attempt = createOrg(orgs, input);
    // Assess
    await expect(attempt).rejects.toThrow(ValidationError);
    await expect(attempt).rejects.toThrow(message);
    expect(orgs.orgs.size).toBe(0);
  });

  it('Should refuse an id that exists', async () => {
    // Prepare
    await createOrg(orgs, { name: 'A', orgId: 'same' });
    // Act
    const attempt = createOrg(orgs, { name: 'B', orgId: 'same' });
    // Assess
    await expect(attempt).rejects.toThrow(ConflictError);
  });
});

describe('updateOrg', () => {
  it('Should change only the fields given', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme', plan: 'pro', paymentMethod: true });
    // Act
    const updated = await updateOrg(orgs, org.orgId, { paymentMethod: false, creditLimitUsd: 5 });
    // Assess
    expect(updated).toEqual({ ...org, paymentMethod: false, creditLimitUsd: 5 });
  });

  it('Should refuse an unknown org', async () => {
    // Act
    const attempt = updateOrg(orgs, 'nope', { plan: 'pro' });
    // Assess
    await expect(attempt).rejects.toThrow(NotFoundError);
  });

  it('Should validate every field before writing any', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme' });
    // Act
    const attempt = updateOrg(orgs, org.orgId, { plan: 'pro', creditLimitUsd: -5 });
    // Assess
    await expect(attempt).rejects.toThrow(ValidationError);
    expect(orgs.orgs.get(org.orgId)?.plan).toBe('free');
    expect(orgs.calls.update ?? 0).toBe(0);
  });
});

describe('createKey', () => {
  it('Should store only the hash and return the one token that proves it', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme' });
    // Act
    const { record, token } = await createKey(orgs, keys, org.orgId, 'ci', NOW);
    // Assess
    const parsed = parseApiKey(token);
    expect(parsed?.keyId).toBe(record.keyId);
    expect(record).toEqual({ keyId: record.keyId, orgId: org.orgId, name: 'ci', secretHash: hashSecret(parsed?.secret ?? ''), createdAt: NOW.toISOString(), scope: 'full' });
    expect(secretMatches(parsed?.secret ?? '', keys.keys.get(record.keyId)?.secretHash ?? '')).toBe(true);
    expect(JSON.stringify([...keys.keys.values()])).not.toContain(parsed?.secret);
  });

  it('Should refuse a key for an unknown org', async () => {
    // Act
    const attempt = createKey(orgs, keys, 'nope');
    // Assess
    await expect(attempt).rejects.toThrow(NotFoundError);
    expect(keys.keys.size).toBe(0);
  });

  it('Should refuse an empty key name', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme' });
    // Act
    const attempt = createKey(orgs, keys, org.orgId, ' ');
    // Assess
    await expect(attempt).rejects.toThrow(ValidationError);
  });
});

describe('listKeys and describeKey', () => {
  it("Should list an org's keys oldest first, without hashes, and none of another org's", async () => {
    // Prepare
    const a = await createOrg(orgs, { name: 'A' });
    const b = await createOrg(orgs, { name: 'B' });
    const second = await createKey(orgs, keys, a.orgId, 'second', new Date(NOW.getTime() + 1000));
    const first = await createKey(orgs, keys, a.orgId, 'first', NOW);
    await createKey(orgs, keys, b.orgId, 'other');
    // Act
    const listed = await listKeys(orgs, keys, a.orgId);
    // Assess
    expect(listed.map((k) => k.keyId)).toEqual([first.record.keyId, second.record.keyId]);
    for (const k of listed) expect(k).not.toHaveProperty('secretHash');
  });

  it('Should refuse to list the keys of an unknown org', async () => {
    // Act
    const attempt = listKeys(orgs, keys, 'nope');
    // Assess
    await expect(attempt).rejects.toThrow(NotFoundError);
  });

  it('Should drop only the hash', () => {
    // Act
    const visible = describeKey({ keyId: 'k', orgId: 'o', name: 'n', secretHash: 'h', createdAt: 'c', revokedAt: 'r', lastUsedAt: 'l' });
    // Assess
    expect(visible).toEqual({ keyId: 'k', orgId: 'o', name: 'n', createdAt: 'c', revokedAt: 'r', lastUsedAt: 'l', scope: 'full' });
    // A key's scope is kept as it is; a key stored before scopes existed reads as `full`.
    expect(describeKey({ keyId: 'k', orgId: 'o', name: 'n', secretHash: 'h', createdAt: 'c', scope: 'read' }).scope).toBe('read');
  });
});

describe('revokeKey', () => {
  it('Should mark the key revoked and keep the first revocation time when repeated', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme' });
    const { record } = await createKey(orgs, keys, org.orgId);
    // Act
    const first = await revokeKey(keys, record.keyId, NOW);
    const again = await revokeKey(keys, record.keyId, new Date(NOW.getTime() + 60_000));
    // Assess
    expect(first.revokedAt).toBe(NOW.toISOString());
    expect(again.revokedAt).toBe(NOW.toISOString());
    expect(first).not.toHaveProperty('secretHash');
  });

  it('Should refuse an unknown key', async () => {
    // Act
    const attempt = revokeKey(keys, '0000000000000000');
    // Assess
    await expect(attempt).rejects.toThrow(NotFoundError);
  });
});

describe('createSession', () => {
  it('Should sign a session for an existing org that verifies with the same secret', async () => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme' });
    // Act
    const cookie = await createSession(orgs, org.orgId, 'secret', 60, NOW);
    // Assess
    expect(verifySessionToken(cookie, 'secret', NOW)).toEqual({ ok: true, claims: { orgId: org.orgId, exp: NOW.getTime() / 1000 + 60 } });
  });

  it('Should refuse a session for an unknown org', async () => {
    // Act
    const attempt = createSession(orgs, 'nope', 'secret');
    // Assess
    await expect(attempt).rejects.toThrow(NotFoundError);
  });

  it.each([0, -1, 1.5, MAX_SESSION_TTL_SECONDS + 1])('Should refuse a lifetime of %s seconds', async (ttl) => {
    // Prepare
    const org = await createOrg(orgs, { name: 'Acme' });
    // Act
    const attempt = createSession(orgs, org.orgId, 'secret', ttl);
    // Assess
    await expect(attempt).rejects.toThrow(ValidationError);
  });
});
