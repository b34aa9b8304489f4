/**
 * @module orgs/org
 * Organizations own everything (events, runs, keys, lake namespaces), and API keys belong to one
 * org. This module holds the records; the ports their stores implement are in `ports.ts`.
 */
import type { Engine, PlanName } from '../core/plans.ts';

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

/**
 * What a key may do: `full` (the default) reads and writes; `read` reads only — it cannot send
 * events, write a table or start or stop a run (ADR 0049). Keys stored before scopes are `full`.
 */
export type KeyScope = 'full' | 'read';

/** A stored API key: the secret itself is never stored, only its hash. */
export interface ApiKeyRecord {
  readonly keyId: string;
  readonly orgId: string;
  readonly name: string;
  /** Absent on keys made before scopes existed: `full`. */
  readonly scope?: KeyScope;
  readonly secretHash: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
  readonly lastUsedAt?: string;
}
