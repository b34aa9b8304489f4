/**
 * @module manage
 * Use cases behind the `lakeline orgs|keys|sessions` CLI and the local stack's seeding.
 */
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashSecret } from '../auth/api-key.ts';
import { createSessionToken } from '../auth/session.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { ApiKeyRecord, KeyStore, Org, OrgStore } from './org.ts';
import { PLANS, PLAN_NAMES, type PlanName } from './plans.ts';

/** Input of {@link createOrg}. */
export interface CreateOrgInput {
  readonly name: string;
  readonly plan?: PlanName;
  readonly paymentMethod?: boolean;
  readonly creditLimitUsd?: number;
  /** Fixed id (tests, imports); a random UUID otherwise. */
  readonly orgId?: string;
}

/** Creates an organization with its plan's defaults. */
export const createOrg = async (orgs: OrgStore, input: CreateOrgInput, now = new Date()): Promise<Org> => {
  const plan = input.plan ?? 'free';
  if (!PLAN_NAMES.includes(plan)) throw new ValidationError(`plan: must be one of ${PLAN_NAMES.join(', ')}`);
  if (!input.name.trim()) throw new ValidationError('name: must not be empty');
  const org: Org = {
    orgId: input.orgId ?? randomUUID(),
    name: input.name.trim(),
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

/** Creates an API key for an org; the returned token is the only time the secret is visible. */
export const createKey = async (
  orgs: OrgStore,
  keys: KeyStore,
  orgId: string,
  name = 'default',
  now = new Date(),
): Promise<{ record: ApiKeyRecord; token: string }> => {
  if (!(await orgs.get(orgId))) throw new NotFoundError(`organization ${orgId} does not exist`);
  const generated = generateApiKey();
  const record: ApiKeyRecord = {
    keyId: generated.keyId,
    orgId,
    name,
    secretHash: hashSecret(generated.secret),
    createdAt: now.toISOString(),
  };
  await keys.create(record);
  return { record, token: generated.token };
};

/** Creates a session cookie value for an org. */
export const createSession = async (orgs: OrgStore, orgId: string, secret: string, ttlSeconds?: number, now = new Date()): Promise<string> => {
  if (!(await orgs.get(orgId))) throw new NotFoundError(`organization ${orgId} does not exist`);
  return createSessionToken(orgId, secret, now, ttlSeconds);
};

/** A key as shown to operators: never the hash. */
export const describeKey = (k: ApiKeyRecord): Omit<ApiKeyRecord, 'secretHash'> => {
  const { secretHash: _hidden, ...visible } = k;
  return visible;
};
