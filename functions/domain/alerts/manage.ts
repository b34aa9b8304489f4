/**
 * @module alerts/manage
 * The alert API's use cases: listing, reading, acknowledging and resolving an org's alerts, and
 * its rules as resources (the built-in ones always listed, tunable, not deletable).
 */
import { ConflictError, NotFoundError } from '../errors.ts';
import type { AlertDeps } from './deps.ts';
import { actOn, type PersonAction } from './lifecycle.ts';
import type { AlertFilter, AlertPage } from './ports.ts';
import { builtInRule, builtInRuleId, effectiveRules, type AlertRule, type RuleScope } from './rules.ts';
import { ALERT_KINDS, type AlertKind } from './types.ts';
import { alertSummary, alertView, type AlertSummaryView, type AlertView } from './view.ts';

/** A listing request. */
export interface AlertListQuery extends AlertFilter {
  readonly limit: number;
  readonly cursor?: string;
}

/** A page of alerts as the API answers it. */
export interface AlertListView {
  readonly alerts: readonly AlertSummaryView[];
  readonly next: string | null;
}

/** The org's alerts, newest first. */
export const listAlerts = async (deps: Pick<AlertDeps, 'alerts'>, orgId: string, query: AlertListQuery): Promise<AlertListView> => {
  const { limit, cursor, ...filter } = query;
  const page: AlertPage = await deps.alerts.list(orgId, filter, limit, cursor);
  return { alerts: page.alerts.map(alertSummary), next: page.next };
};

const notFound = (alertId: string) => new NotFoundError(`alert ${alertId} not found`);

/** One alert with its runs and blast radius. @throws {NotFoundError} */
export const getAlert = async (deps: Pick<AlertDeps, 'alerts' | 'lineage'>, orgId: string, alertId: string): Promise<AlertView> => {
  const alert = await deps.alerts.get(orgId, alertId);
  if (!alert) throw notFound(alertId);
  return alertView(deps, alert);
};

/** Acknowledges or resolves an alert. @throws {NotFoundError} @throws {ConflictError} acknowledging a resolved alert */
export const changeAlert = async (deps: AlertDeps, orgId: string, alertId: string, action: PersonAction): Promise<AlertView> => {
  const alert = await actOn(deps, orgId, alertId, action);
  if (alert === undefined) throw notFound(alertId);
  if (alert === 'conflict') throw new ConflictError(`alert ${alertId} is resolved: there is nothing to acknowledge`);
  return alertView(deps, alert);
};

/** A rule as a person writes it (kind-specific settings already checked by the route's schema). */
export interface RuleInput {
  readonly kind: AlertKind;
  readonly enabled: boolean;
  readonly scope: RuleScope;
  /** Settings given; the rest are the kind's defaults. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** The org's rules: the built-in ones first (as tuned), then its own by id. */
export const listRules = async (deps: Pick<AlertDeps, 'rules'>, orgId: string): Promise<AlertRule[]> => effectiveRules(await deps.rules.list(orgId), ALERT_KINDS);

/** One rule. @throws {NotFoundError} */
export const getRule = async (deps: Pick<AlertDeps, 'rules'>, orgId: string, ruleId: string): Promise<AlertRule> => {
  const rule = (await listRules(deps, orgId)).find((r) => r.ruleId === ruleId);
  if (!rule) throw new NotFoundError(`alert rule ${ruleId} not found`);
  return rule;
};

const emptyScope = (scope: RuleScope): boolean => scope.namespaces.length + scope.jobs.length + scope.datasets.length === 0;

const ruleFrom = (ruleId: string, input: RuleInput, builtIn: boolean, at: string): AlertRule => {
  // 409, not 400: the body is well formed; it conflicts with what the rule is (built in, or not).
  if (builtIn && !emptyScope(input.scope)) throw new ConflictError(`scope: a built-in rule applies everywhere; add a rule of kind ${input.kind} with this scope instead`);
  if (!builtIn && emptyScope(input.scope)) throw new ConflictError(`scope: give at least one namespace, job or dataset pattern (the built-in rule ${builtInRuleId(input.kind)} applies everywhere)`);
  const base = builtInRule(input.kind);
  return { ...base, ruleId, enabled: input.enabled, scope: input.scope, settings: { ...base.settings, ...input.settings }, builtIn, updatedAt: at } as AlertRule;
};

/** Adds a scoped rule. */
export const createRule = async (deps: Pick<AlertDeps, 'rules' | 'clock'>, orgId: string, input: RuleInput, newId: string): Promise<AlertRule> => {
  const rule = ruleFrom(newId, input, false, deps.clock.now().toISOString());
  await deps.rules.put(orgId, rule);
  return rule;
};

/** Replaces a rule (a built-in one keeps its kind and its empty scope). @throws {NotFoundError} @throws {ConflictError} */
export const replaceRule = async (deps: Pick<AlertDeps, 'rules' | 'clock'>, orgId: string, ruleId: string, input: RuleInput): Promise<AlertRule> => {
  const current = await getRule(deps, orgId, ruleId);
  if (current.kind !== input.kind) throw new ConflictError(`kind: rule ${ruleId} is of kind ${current.kind}; a rule's kind does not change`);
  const rule = ruleFrom(ruleId, input, current.builtIn, deps.clock.now().toISOString());
  await deps.rules.put(orgId, rule);
  return rule;
};

/** Deletes one of the org's rules. @throws {NotFoundError} @throws {ConflictError} for a built-in rule */
export const deleteRule = async (deps: Pick<AlertDeps, 'rules'>, orgId: string, ruleId: string): Promise<void> => {
  const current = await getRule(deps, orgId, ruleId);
  if (current.builtIn) throw new ConflictError(`rule ${ruleId} is built in: turn it off with enabled: false instead`);
  await deps.rules.delete(orgId, ruleId);
};
