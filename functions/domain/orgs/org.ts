/**
 * @module org
 * Organizations own everything (events, runs, keys, lake namespaces), and API keys belong to one
 * org. This module holds the records and the ports their stores implement.
 */
import type { Engine, PlanName } from './plans.ts';

/** An organization. */
export interface Org {
  readonly orgId: string;
  readonly name: string;
  readonly plan: PlanName;
  readonly paymentMethod: boolean;
  readonly creditLimitUsd: number;
  /** Metered spend so far, in USD. */
  readonly usageUsd: number;
  /** Metered vCPU-seconds by engine. */
  readonly usageVcpuSeconds: Readonly<Partial<Record<Engine, number>>>;
  readonly createdAt: string;
}

/** A stored API key: the secret itself is never stored, only its hash. */
export interface ApiKeyRecord {
  readonly keyId: string;
  readonly orgId: string;
  readonly name: string;
  readonly secretHash: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
  readonly lastUsedAt?: string;
}

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
