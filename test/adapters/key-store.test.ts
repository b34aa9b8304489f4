/**
 * DynamoKeyStore on both DynamoDB APIs of the tests (the shared stack's dynalite and the AWS emulator's DynamoDB): the KeyStore contract
 * the authorizer and the CLI rely on.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { ApiKeyRecord } from '#domain/orgs/org';
import { storesOn, type LocalStores } from '../helpers/stores.ts';
import { DYNAMO_BACKENDS, openDynamoBackend } from './dynamo-backends.ts';

const newKey = (changes: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  keyId: randomBytes(8).toString('hex'),
  orgId: randomUUID(),
  name: 'ci',
  secretHash: randomBytes(32).toString('hex'),
  createdAt: new Date().toISOString(),
  ...changes,
});

describe.each(DYNAMO_BACKENDS)('DynamoKeyStore on %s', (backend) => {
  let stores: LocalStores;

  beforeAll(() => {
    stores = storesOn(openDynamoBackend(backend));
  });

  afterAll(() => stores.close());

  it('Should return a created key exactly as it was written', async () => {
    // Prepare
    const key = newKey();
    // Act
    await stores.keys.create(key);
    // Assess
    expect(await stores.keys.get(key.keyId)).toEqual(key);
  });

  it('Should answer undefined for an unknown key id', async () => {
    // Act / Assess
    expect(await stores.keys.get(randomBytes(8).toString('hex'))).toBeUndefined();
  });

  it('Should refuse a second key with the same id, keeping the first', async () => {
    // Prepare
    const key = newKey();
    await stores.keys.create(key);
    // Act
    const attempt = stores.keys.create({ ...key, orgId: randomUUID() });
    // Assess
    await expect(attempt).rejects.toThrow(ConflictError);
    expect((await stores.keys.get(key.keyId))?.orgId).toBe(key.orgId);
  });

  it("Should list exactly one org's keys, oldest first", async () => {
    // Prepare
    const orgId = randomUUID();
    const newer = newKey({ orgId, createdAt: '2031-01-01T00:00:00.000Z' });
    const older = newKey({ orgId, createdAt: '2030-01-01T00:00:00.000Z' });
    await stores.keys.create(newer);
    await stores.keys.create(older);
    await stores.keys.create(newKey());
    // Act
    const listed = await stores.keys.listByOrg(orgId);
    // Assess
    expect(listed).toEqual([older, newer]);
  });

  it('Should list nothing for an org without keys', async () => {
    // Act / Assess
    expect(await stores.keys.listByOrg(randomUUID())).toEqual([]);
  });

  it('Should mark a key revoked and keep the first revocation time', async () => {
    // Prepare
    const key = newKey();
    await stores.keys.create(key);
    // Act
    await stores.keys.revoke(key.keyId, '2030-01-01T00:00:00.000Z');
    await stores.keys.revoke(key.keyId, '2030-06-01T00:00:00.000Z');
    // Assess
    expect(await stores.keys.get(key.keyId)).toEqual({ ...key, revokedAt: '2030-01-01T00:00:00.000Z' });
  });

  it('Should record the last-used time, latest write winning', async () => {
    // Prepare
    const key = newKey();
    await stores.keys.create(key);
    // Act
    await stores.keys.touch(key.keyId, '2030-01-01T00:00:00.000Z');
    await stores.keys.touch(key.keyId, '2030-01-02T00:00:00.000Z');
    // Assess
    expect((await stores.keys.get(key.keyId))?.lastUsedAt).toBe('2030-01-02T00:00:00.000Z');
  });

  it.each(['revoke', 'touch'] as const)('Should refuse to %s an unknown key without creating it', async (method) => {
    // Prepare
    const keyId = randomBytes(8).toString('hex');
    // Act
    const attempt = stores.keys[method](keyId, new Date().toISOString());
    // Assess
    await expect(attempt).rejects.toThrow(NotFoundError);
    expect(await stores.keys.get(keyId)).toBeUndefined();
  });
});
