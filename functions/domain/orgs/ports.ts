/**
 * @module orgs/ports
 * The ports of orgs and API keys: where they live (DynamoDB in both profiles,
 * `functions/adapters/dynamodb/org-store.ts` and `key-store.ts`).
 */
import type { ApiKeyRecord, Org } from './org.ts';
import type { Engine } from '../core/plans.ts';

/** Port: where orgs live. */
export interface OrgStore {
  get(orgId: string): Promise<Org | undefined>;
  /** Creates an org; fails with ConflictError when the id exists. */
  create(org: Org): Promise<void>;
  list(): Promise<Org[]>;
  /** Updates plan, payment method or credit limit. */
  update(orgId: string, changes: Partial<Pick<Org, 'plan' | 'paymentMethod' | 'creditLimitUsd' | 'name'>>): Promise<Org>;
  /** Adds metered usage atomically. */
  addUsage(orgId: string, engine: Engine, vcpuSeconds: number, usd: number): Promise<void>;
}

/** Port: where API keys live. */
export interface KeyStore {
  get(keyId: string): Promise<ApiKeyRecord | undefined>;
  create(record: ApiKeyRecord): Promise<void>;
  listByOrg(orgId: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; fails with NotFoundError when unknown. */
  revoke(keyId: string, at: string): Promise<void>;
  /** Records the last-used time. */
  touch(keyId: string, at: string): Promise<void>;
}
