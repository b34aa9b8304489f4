/**
 * @module core/plans
 * The plan table: everything a plan allows lives here, so access checks read one table instead
 * of scattering `if (plan === 'pro')` through the handlers. Prices meter usage against the org's
 * credit limit.
 */
import { ForbiddenError, PaymentRequiredError } from '../errors.ts';

/** Plan names. */
export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Engines that can run a query. */
export const ENGINES = ['duckdb', 'polars', 'spark', 'bloom'] as const;
export type Engine = (typeof ENGINES)[number];

/** What one plan allows. */
export interface Plan {
  readonly name: PlanName;
  /** May call the legacy `/api/v1/warehouse/query` endpoint. */
  readonly legacyQuery: boolean;
  /** Largest sandbox (polars tier, routed sandbox) in vCPUs. */
  readonly maxSandboxVcpus: number;
  /** Largest Spark executor count. */
  readonly maxSparkExecutors: number;
  /** Sandbox size the legacy endpoint runs on ("the organization's default sandbox setting"). */
  readonly defaultSandboxVcpus: number;
  /** Credit limit a new org of this plan starts with, in USD. */
  readonly defaultCreditLimitUsd: number;
}

/** The plan table. */
export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: { name: 'free', legacyQuery: false, maxSandboxVcpus: 4, maxSparkExecutors: 2, defaultSandboxVcpus: 2, defaultCreditLimitUsd: 10 },
  pro: { name: 'pro', legacyQuery: true, maxSandboxVcpus: 16, maxSparkExecutors: 10, defaultSandboxVcpus: 2, defaultCreditLimitUsd: 1_000 },
  enterprise: {
    name: 'enterprise',
    legacyQuery: true,
    maxSandboxVcpus: 32,
    maxSparkExecutors: 20,
    defaultSandboxVcpus: 4,
    defaultCreditLimitUsd: 100_000,
  },
};

/** Price of one vCPU-second per engine, in USD. DuckDB runs in the router and is unmetered. */
export const VCPU_SECOND_PRICE_USD: Readonly<Record<Engine, number>> = {
  duckdb: 0,
  polars: 0.000_02,
  spark: 0.000_05,
  bloom: 0.000_04,
};

/** Whether an engine's compute is billed (and so needs a payment method). */
export const isMetered = (engine: Engine): boolean => VCPU_SECOND_PRICE_USD[engine] > 0;

/** What the plan checks read of an organization (an `Org` of `orgs/org.ts` is one). */
export interface PlanHolder {
  readonly plan: PlanName;
  readonly paymentMethod: boolean;
  readonly creditLimitUsd: number;
  /** Metered spend so far, in USD. */
  readonly usageUsd: number;
}

/** The plan of an org. */
export const planOf = (org: Pick<PlanHolder, 'plan'>): Plan => PLANS[org.plan];

/** Throws 403 unless the org's plan includes the legacy query endpoint. */
export const requireLegacyQueryAccess = (org: Pick<PlanHolder, 'plan'>): void => {
  if (!planOf(org).legacyQuery) {
    throw new ForbiddenError(`The legacy warehouse endpoint requires the Pro plan or higher; this organization is on the ${org.plan} plan. Upgrade the plan or use POST /api/v1/query.`);
  }
};

/**
 * Checks that an org may spend compute on an engine at a sandbox size: 402 without a payment
 * method for metered engines, 403 above the plan's sandbox cap or at the credit limit.
 */
export const requireComputeAccess = (org: PlanHolder, engine: Engine, vcpus: number): void => {
  const plan = planOf(org);
  if (isMetered(engine) && !org.paymentMethod) {
    throw new PaymentRequiredError(`The ${engine} engine is metered compute and needs a payment method on file. Add a payment method to the organization, or run the query on duckdb.`);
  }
  if (vcpus > plan.maxSandboxVcpus) {
    throw new ForbiddenError(`A ${vcpus}-vCPU sandbox exceeds the ${plan.name} plan's limit of ${plan.maxSandboxVcpus} vCPUs. Ask for ${plan.maxSandboxVcpus} vCPUs or fewer, or upgrade the plan.`);
  }
  if (isMetered(engine) && org.usageUsd >= org.creditLimitUsd) {
    throw new ForbiddenError(`The organization has used its credit limit of ${org.creditLimitUsd} USD (used: ${org.usageUsd.toFixed(2)} USD). Raise the credit limit to run metered queries.`);
  }
};
