/**
 * @module manage
 * Use cases behind the `lakeline orgs|keys|sessions` CLI and the local stack's seeding.
 */
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashSecret } from '../core/api-key.ts';
import { createSessionToken, DEFAULT_SESSION_TTL_SECONDS, MAX_SESSION_TTL_SECONDS } from '../core/session.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { ApiKeyRecord, KeyScope, Org } from './org.ts';
import type { KeyStore, OrgStore } from './ports.ts';
import { PLANS, PLAN_NAMES, type PlanName } from '../core/plans.ts';

/** Input of {@link createOrg}. */
export interface CreateOrgInput {
  readonly name: string;
  readonly plan?: PlanName;
  readonly paymentMethod?: boolean;
  readonly creditLimitUsd?: number;
  /** Fixed id (tests, imports); a random UUID otherwise. */
  readonly orgId?: string;
}

/** Longest org or key name; names are labels for operators, not documents. */
export const MAX_NAME_LENGTH = 200;

const checkName = (name: string): string => {
  const trimmed = name.trim();
  if (!trimmed) throw new ValidationError('name: must not be empty');
  if (trimmed.length > MAX_NAME_LENGTH) throw new ValidationError(`name: must be at most ${MAX_NAME_LENGTH} characters`);
  return trimmed;
};

const checkPlan = (plan: string): PlanName => {
  if (!(PLAN_NAMES as readonly string[]).includes(plan)) throw new ValidationError(`plan: must be one of ${PLAN_NAMES.join(', ')}`);
  return plan as PlanName;
};

const checkCreditLimit = (usd: number): number => {
  if (!Number.isFinite(usd) || usd < 0) throw new ValidationError('creditLimitUsd: must be a non-negative number of USD');
  return usd;
};

/** Creates an organization with its plan's defaults. */
export const createOrg = async (orgs: OrgStore, input: CreateOrgInput, now = new Date()): Promise<Org> => {
  const plan = checkPlan(input.plan ?? 'free');
  const name = checkName(input.name);
  if (input.creditLimitUsd !== undefined) checkCreditLimit(input.creditLimitUsd);
  const org: Org = {
    orgId: input.orgId ?? randomUUID(),
    name,
    plan,
    paymentMethod: input.paymentMethod ?? false,
    creditLimitUsd: input.creditLimitUsd ?? PLANS[plan].defaultCreditLimitUsd,
    usageUsd: 0,
    usageVcpuSeconds: {},
    createdAt: now.toISOString(),
  };
  await orgs.create(org);
  return org;
};

/** Changes an operator may make to an org (`lakeline orgs update`). */
export interface UpdateOrgInput {
  readonly name?: string;
  readonly plan?: PlanName;
  readonly paymentMethod?: boolean;
  readonly creditLimitUsd?: number;
}

/** Changes an org's plan, payment method, credit limit or name; fails with NotFoundError when unknown. */
export const updateOrg = async (orgs: OrgStore, orgId: string, input: UpdateOrgInput): Promise<Org> => {
  // Validate everything before writing anything, so a bad flag changes nothing.
  return orgs.update(orgId, {
    ...(input.name === undefined ? {} : { name: checkName(input.name) }),
    ...(input.plan === undefined ? {} : { plan: checkPlan(input.plan) }),
    ...(input.paymentMethod === undefined ? {} : { paymentMethod: input.paymentMethod }),
    ...(input.creditLimitUsd === undefined ? {} : { creditLimitUsd: checkCreditLimit(input.creditLimitUsd) }),
  });
};

/** Creates an API key for an org; the returned token is the only time the secret is visible. */
export const createKey = async (
  orgs: OrgStore,
  keys: KeyStore,
  orgId: string,
  name = 'default',
  now = new Date(),
  scope: KeyScope = 'full',
): Promise<{ record: ApiKeyRecord; token: string }> => {
  const keyName = checkName(name);
  if (!(await orgs.get(orgId))) throw new NotFoundError(`organization ${orgId} does not exist`);
  const generated = generateApiKey();
  const record: ApiKeyRecord = {
    keyId: generated.keyId,
    orgId,
    name: keyName,
    secretHash: hashSecret(generated.secret),
    createdAt: now.toISOString(),
    scope,
  };
  await keys.create(record);
  return { record, token: generated.token };
};

/** Lists an org's keys as operators see them (no hashes), oldest first; NotFoundError for an unknown org. */
export const listKeys = async (orgs: OrgStore, keys: KeyStore, orgId: string): Promise<VisibleApiKey[]> => {
  if (!(await orgs.get(orgId))) throw new NotFoundError(`organization ${orgId} does not exist`);
  const records = await keys.listByOrg(orgId);
  return records.map(describeKey).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
};

/**
 * Revokes a key (idempotent: the first revocation time is kept) and returns it as operators see it.
 * Warm authorizers may accept it until their key cache expires (see authorize.ts).
 */
export const revokeKey = async (keys: KeyStore, keyId: string, now = new Date()): Promise<VisibleApiKey> => {
  await keys.revoke(keyId, now.toISOString());
  const record = await keys.get(keyId);
  if (!record) throw new NotFoundError(`API key ${keyId} does not exist`);
  return describeKey(record);
};

/** Creates a session cookie value for an org. */
export const createSession = async (
  orgs: OrgStore,
  orgId: string,
  secret: string,
  ttlSeconds = DEFAULT_SESSION_TTL_SECONDS,
  now = new Date(),
): Promise<string> => {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_SESSION_TTL_SECONDS) {
    throw new ValidationError(`ttl: must be a whole number of seconds between 1 and ${MAX_SESSION_TTL_SECONDS}`);
  }
  if (!(await orgs.get(orgId))) throw new NotFoundError(`organization ${orgId} does not exist`);
  return createSessionToken(orgId, secret, now, ttlSeconds);
};

/** An API key as operators see it: everything but the hash. */
export type VisibleApiKey = Omit<ApiKeyRecord, 'secretHash'>;

/** A key as shown to operators: never the hash; its scope always said (`full` for keys made before scopes). */
export const describeKey = (k: ApiKeyRecord): VisibleApiKey => {
  const { secretHash: _hidden, ...visible } = k;
  return { ...visible, scope: k.scope ?? 'full' };
};
