/**
 * The plan table and its two checks: compute access (402 without a payment method for metered
 * engines; 403 above the plan's sandbox cap or at the credit limit) and the legacy endpoint (Pro
 * or higher), for every plan and engine.
 */
import { describe, expect, it } from 'vitest';
import { ForbiddenError, PaymentRequiredError } from '#domain/errors';
import type { Org } from '#domain/orgs/org';
import { ENGINES, isMetered, PLAN_NAMES, PLANS, requireComputeAccess, requireLegacyQueryAccess, VCPU_SECOND_PRICE_USD, type Engine, type PlanName } from '#domain/core/plans';

const org = (plan: PlanName, changes: Partial<Org> = {}): Org => ({
  orgId: 'o',
  name: 'Acme',
  plan,
  paymentMethod: true,
  creditLimitUsd: PLANS[plan].defaultCreditLimitUsd,
  usageUsd: 0,
  usageVcpuSeconds: {},
  createdAt: '2030-01-01T00:00:00.000Z',
  ...changes,
});

const METERED = ENGINES.filter(isMetered);
const everyPlanAndEngine = PLAN_NAMES.flatMap((plan) => ENGINES.map((engine) => [plan, engine] as [PlanName, Engine]));
const everyPlanAndMeteredEngine = PLAN_NAMES.flatMap((plan) => METERED.map((engine) => [plan, engine] as [PlanName, Engine]));

describe('the plan table', () => {
  it('Should describe every plan, with caps that grow with the tier', () => {
    // Act
    const caps = PLAN_NAMES.map((p) => PLANS[p].maxSandboxVcpus);
    // Assess
    expect(Object.keys(PLANS).sort()).toEqual([...PLAN_NAMES].sort());
    expect(caps).toEqual([...caps].sort((a, b) => a - b));
    for (const name of PLAN_NAMES) expect(PLANS[name].name).toBe(name);
  });

  it('Should meter polars, spark and bloom and leave duckdb unmetered', () => {
    // Act
    const metered = ENGINES.filter(isMetered);
    // Assess
    expect(metered.sort()).toEqual(['bloom', 'polars', 'spark']);
    expect(VCPU_SECOND_PRICE_USD.duckdb).toBe(0);
  });
});

describe('requireComputeAccess', () => {
  it.each(everyPlanAndEngine)('Should allow %s to run %s at the smallest sandbox with a payment method', (plan, engine) => {
    // Act
    const check = () => requireComputeAccess(org(plan), engine, 2);
    // Assess
    expect(check).not.toThrow();
  });

  it.each(everyPlanAndMeteredEngine)('Should answer 402 when %s has no payment method and asks for metered %s', (plan, engine) => {
    // Act
    const check = () => requireComputeAccess(org(plan, { paymentMethod: false }), engine, 2);
    // Assess
    expect(check).toThrow(PaymentRequiredError);
    expect(check).toThrow(/payment method/);
  });

  it.each(PLAN_NAMES)('Should let %s run duckdb without a payment method', (plan) => {
    // Act
    const check = () => requireComputeAccess(org(plan, { paymentMethod: false }), 'duckdb', 2);
    // Assess
    expect(check).not.toThrow();
  });

  it.each(everyPlanAndEngine)("Should allow %s exactly its sandbox cap on %s and answer 403 one vCPU above it", (plan, engine) => {
    // Prepare
    const cap = PLANS[plan].maxSandboxVcpus;
    // Act
    const atCap = () => requireComputeAccess(org(plan), engine, cap);
    const overCap = () => requireComputeAccess(org(plan), engine, cap + 1);
    // Assess
    expect(atCap).not.toThrow();
    expect(overCap).toThrow(ForbiddenError);
    expect(overCap).toThrow(new RegExp(`${cap + 1}-vCPU sandbox exceeds the ${plan} plan's limit of ${cap}`));
  });

  it.each(everyPlanAndMeteredEngine)('Should answer 403 when %s has reached its credit limit on metered %s', (plan, engine) => {
    // Prepare
    const limit = PLANS[plan].defaultCreditLimitUsd;
    // Act
    const atLimit = () => requireComputeAccess(org(plan, { usageUsd: limit }), engine, 2);
    const justBelow = () => requireComputeAccess(org(plan, { usageUsd: limit - 0.01 }), engine, 2);
    // Assess
    expect(atLimit).toThrow(ForbiddenError);
    expect(atLimit).toThrow(/credit limit/);
    expect(justBelow).not.toThrow();
  });

  it.each(PLAN_NAMES)('Should let %s keep using duckdb past its credit limit (unmetered)', (plan) => {
    // Act
    const check = () => requireComputeAccess(org(plan, { usageUsd: 10 ** 9 }), 'duckdb', 2);
    // Assess
    expect(check).not.toThrow();
  });

  it('Should report the missing payment method before the plan limits (402 wins over 403)', () => {
    // Act
    const check = () => requireComputeAccess(org('free', { paymentMethod: false, usageUsd: 10 ** 6 }), 'spark', 64);
    // Assess
    expect(check).toThrow(PaymentRequiredError);
  });
});

describe('requireLegacyQueryAccess', () => {
  it.each([
    ['free', false],
    ['pro', true],
    ['enterprise', true],
  ] as const)('Should decide %s (allowed: %s)', (plan, allowed) => {
    // Act
    const check = () => requireLegacyQueryAccess(org(plan));
    // Assess
    if (allowed) expect(check).not.toThrow();
    else expect(check).toThrow(ForbiddenError);
  });

  it('Should name the Pro plan and the way forward in the refusal', () => {
    // Act
    const check = () => requireLegacyQueryAccess(org('free'));
    // Assess
    expect(check).toThrow(/requires the Pro plan.*free plan.*POST \/api\/v1\/query/);
  });

  it('Should not depend on the payment method', () => {
    // Act
    const check = () => requireLegacyQueryAccess(org('pro', { paymentMethod: false }));
    // Assess
    expect(check).not.toThrow();
  });
});
