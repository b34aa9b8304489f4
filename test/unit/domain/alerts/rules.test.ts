/**
 * Which rule decides a signal (`domain/alerts/rules.ts`): the built-in rule everywhere, a scoped
 * rule of the org where its patterns match, the most specific first.
 */
import { describe, expect, it } from 'vitest';
import { builtInRule, decidingRule, effectiveRules, type AlertRule } from '#domain/alerts/rules';
import { ALERT_KINDS } from '#domain/alerts/types';

const scoped = (ruleId: string, enabled: boolean, scope: Partial<AlertRule['scope']>): AlertRule => ({
  ...(builtInRule('RUN_FAILED') as Extract<AlertRule, { kind: 'RUN_FAILED' }>),
  ruleId,
  enabled,
  builtIn: false,
  scope: { namespaces: [], jobs: [], datasets: [], ...scope },
});

const job = (namespace: string, name: string) => ({ type: 'JOB' as const, namespace, name });

describe('decidingRule', () => {
  it('Should answer the built-in rule when the org has none', () => {
    expect(decidingRule(effectiveRules([], ALERT_KINDS), 'RUN_FAILED', job('prod', 'etl'))?.ruleId).toBe('default-run-failed');
  });

  it('Should turn a kind off where a disabled scoped rule matches by pattern, and only there', () => {
    // Prepare
    const rules = effectiveRules([scoped('rule-a', false, { namespaces: ['staging-*'] })], ALERT_KINDS);
    // Act / Assess
    expect(decidingRule(rules, 'RUN_FAILED', job('staging-airflow', 'etl'))).toBeUndefined();
    expect(decidingRule(rules, 'RUN_FAILED', job('prod-airflow', 'etl'))?.ruleId).toBe('default-run-failed');
  });

  it('Should prefer the rule with more scope lists, so a job can be turned back on inside a muted namespace', () => {
    // Prepare
    const rules = effectiveRules([scoped('rule-a', false, { namespaces: ['staging-*'] }), scoped('rule-b', true, { namespaces: ['staging-*'], jobs: ['billing.?ay'] })], ALERT_KINDS);
    // Act / Assess
    expect(decidingRule(rules, 'RUN_FAILED', job('staging-airflow', 'billing.pay'))?.ruleId).toBe('rule-b');
    expect(decidingRule(rules, 'RUN_FAILED', job('staging-airflow', 'billing.payments'))).toBeUndefined();
  });

  it('Should never let a dataset scope cover a job', () => {
    const rules = effectiveRules([scoped('rule-a', false, { datasets: ['*'] })], ALERT_KINDS);
    expect(decidingRule(rules, 'RUN_FAILED', job('prod', 'etl'))?.ruleId).toBe('default-run-failed');
  });

  it('Should honour a built-in rule the org turned off', () => {
    const off = { ...builtInRule('RUN_FAILED'), enabled: false } as AlertRule;
    expect(decidingRule(effectiveRules([off], ALERT_KINDS), 'RUN_FAILED', job('prod', 'etl'))).toBeUndefined();
  });

  it('Should read patterns literally apart from * and ? (a dot is a dot)', () => {
    const rules = effectiveRules([scoped('rule-a', false, { jobs: ['a.b'] })], ALERT_KINDS);
    expect(decidingRule(rules, 'RUN_FAILED', job('prod', 'axb'))?.ruleId).toBe('default-run-failed');
    expect(decidingRule(rules, 'RUN_FAILED', job('prod', 'a.b'))).toBeUndefined();
  });
});
