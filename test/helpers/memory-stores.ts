/**
 * @module memory-stores
 * In-memory OrgStore and KeyStore for domain unit tests. They follow the DynamoDB adapters'
 * contract (ConflictError on duplicate ids, NotFoundError on unknown ids, first revocation time
 * kept) and count calls, so tests can assert how often the authorizer reads or writes.
 */
import { ConflictError, NotFoundError } from '#domain/errors';
import type { ApiKeyRecord, Org } from '#domain/orgs/org';
import type { KeyStore, OrgStore } from '#domain/orgs/ports';
import type { Engine } from '#domain/core/plans';

/** Calls made to a store, by method name. */
export type CallCounts = Record<string, number>;

const count = (calls: CallCounts, method: string): void => {
  calls[method] = (calls[method] ?? 0) + 1;
};

/** {@link OrgStore} in a Map. */
export class MemoryOrgStore implements OrgStore {
  readonly orgs = new Map<string, Org>();
  readonly calls: CallCounts = {};

  async get(orgId: string): Promise<Org | undefined> {
    count(this.calls, 'get');
    return this.orgs.get(orgId);
  }

  async create(org: Org): Promise<void> {
    count(this.calls, 'create');
    if (this.orgs.has(org.orgId)) throw new ConflictError(`organization ${org.orgId} already exists`);
    this.orgs.set(org.orgId, org);
  }

  async list(): Promise<Org[]> {
    count(this.calls, 'list');
    return [...this.orgs.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async update(orgId: string, changes: Partial<Pick<Org, 'plan' | 'paymentMethod' | 'creditLimitUsd' | 'name'>>): Promise<Org> {
    count(this.calls, 'update');
    const org = this.orgs.get(orgId);
    if (!org) throw new NotFoundError(`organization ${orgId} does not exist`);
    const updated = { ...org, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as Org;
    this.orgs.set(orgId, updated);
    return updated;
  }

  async addUsage(orgId: string, engine: Engine, vcpuSeconds: number, usd: number): Promise<void> {
    count(this.calls, 'addUsage');
    const org = this.orgs.get(orgId);
    if (!org) throw new NotFoundError(`organization ${orgId} does not exist`);
    this.orgs.set(orgId, {
      ...org,
      usageUsd: org.usageUsd + usd,
      usageVcpuSeconds: { ...org.usageVcpuSeconds, [engine]: (org.usageVcpuSeconds[engine] ?? 0) + vcpuSeconds },
    });
  }

  /** Removes an org (no such use case exists; tests use it to model an org gone from the store). */
  delete(orgId: string): void {
    this.orgs.delete(orgId);
  }
}

/** {@link KeyStore} in a Map. */
export class MemoryKeyStore implements KeyStore {
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly calls: CallCounts = {};
  /** When set, `touch` fails with this error (to model a throttled write). */
  touchError: Error | undefined;

  async get(keyId: string): Promise<ApiKeyRecord | undefined> {
    count(this.calls, 'get');
    return this.keys.get(keyId);
  }

  async create(record: ApiKeyRecord): Promise<void> {
    count(this.calls, 'create');
    if (this.keys.has(record.keyId)) throw new ConflictError(`key ${record.keyId} already exists`);
    this.keys.set(record.keyId, record);
  }

  async listByOrg(orgId: string): Promise<ApiKeyRecord[]> {
    count(this.calls, 'listByOrg');
    return [...this.keys.values()].filter((k) => k.orgId === orgId);
  }

  async revoke(keyId: string, at: string): Promise<void> {
    count(this.calls, 'revoke');
    const key = this.keys.get(keyId);
    if (!key) throw new NotFoundError(`API key ${keyId} does not exist`);
    this.keys.set(keyId, { ...key, revokedAt: key.revokedAt ?? at });
  }

  async touch(keyId: string, at: string): Promise<void> {
    count(this.calls, 'touch');
    if (this.touchError) throw this.touchError;
    const key = this.keys.get(keyId);
    if (!key) throw new NotFoundError(`API key ${keyId} does not exist`);
    this.keys.set(keyId, { ...key, lastUsedAt: at });
  }
}
