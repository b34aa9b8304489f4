/**
 * @module alerts/rules
 * The rules that decide whether a signal raises an alert, per org (ADR 0052). Each kind has a
 * built-in rule, on by default, with settings a person may tune or turn off; an org adds rules
 * scoped to namespaces, jobs or datasets by pattern (`*` any run of characters, `?` one). For a
 * subject, the matching rule with the most scope lists decides (ties: the lowest id), the built-in
 * one when no scoped rule matches: so "off for `staging*`" is a scoped rule with `enabled: false`.
 */
import type { AlertKind, AlertSubject } from './types.ts';

/** The settings of each kind. */
export interface RuleSettings {
  readonly RUN_FAILED: {
    /** Which terminal states count as a failure. */
    readonly states: readonly ('FAIL' | 'ABORT')[];
  };
  readonly TEST_FAILED: Record<string, never>;
  readonly LATE_TABLE: {
    /** The cadence a table is written on, in minutes; `null`: learned from its last writes. */
    readonly expectedEveryMinutes: number | null;
    /** Intervals needed before a cadence is learned. */
    readonly minHistory: number;
    /** Late once past `tolerance` cadences after the last write, plus the grace. */
    readonly tolerance: number;
    readonly graceMinutes: number;
  };
  readonly ODD_RUN: {
    readonly metrics: readonly ('durationMs' | 'rows' | 'bytes')[];
    /** Successful runs compared with (the newest). */
    readonly window: number;
    /** Successful runs needed before a run can be odd. */
    readonly minHistory: number;
    /** Robust z-score (|x − median| / (1.4826 · MAD)) above which a figure is odd. */
    readonly threshold: number;
    /** …and at least this far from the median, relative to it (0.5: 50 %). */
    readonly minRelativeChange: number;
  };
}

/** Where a rule applies; an empty list does not narrow. */
export interface RuleScope {
  readonly namespaces: readonly string[];
  readonly jobs: readonly string[];
  readonly datasets: readonly string[];
}

/** A rule of one kind. */
export type AlertRule = {
  [K in AlertKind]: {
    readonly ruleId: string;
    readonly kind: K;
    readonly enabled: boolean;
    readonly scope: RuleScope;
    readonly settings: RuleSettings[K];
    /** The kind's built-in rule (scope empty; it may be tuned or turned off, not deleted). */
    readonly builtIn: boolean;
    readonly updatedAt: string | null;
  };
}[AlertKind];

/** The built-in settings of each kind. */
export const DEFAULT_SETTINGS: RuleSettings = {
  RUN_FAILED: { states: ['FAIL', 'ABORT'] },
  TEST_FAILED: {},
  LATE_TABLE: { expectedEveryMinutes: null, minHistory: 3, tolerance: 1.5, graceMinutes: 5 },
  ODD_RUN: { metrics: ['durationMs', 'rows', 'bytes'], window: 20, minHistory: 5, threshold: 5, minRelativeChange: 0.5 },
};

const EMPTY_SCOPE: RuleScope = { namespaces: [], jobs: [], datasets: [] };

/** The id of a kind's built-in rule (`default-run-failed`). */
export const builtInRuleId = (kind: AlertKind): string => `default-${kind.toLowerCase().replaceAll('_', '-')}`;

/** The kind's built-in rule as shipped. */
export const builtInRule = (kind: AlertKind): AlertRule => ({ ruleId: builtInRuleId(kind), kind, enabled: true, scope: EMPTY_SCOPE, settings: DEFAULT_SETTINGS[kind], builtIn: true, updatedAt: null }) as AlertRule;

/** The org's rules: its stored ones, and each kind's built-in rule (as the org tuned it, or as shipped). */
export const effectiveRules = (stored: readonly AlertRule[], kinds: readonly AlertKind[]): AlertRule[] => {
  const byId = new Map(stored.map((rule) => [rule.ruleId, rule]));
  const builtIns = kinds.map((kind) => byId.get(builtInRuleId(kind)) ?? builtInRule(kind));
  return [...builtIns, ...stored.filter((rule) => !rule.builtIn).sort((a, b) => a.ruleId.localeCompare(b.ruleId))];
};

/** A pattern (`*`, `?`) as an anchored regular expression. */
const patternRegex = (pattern: string): RegExp => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`, 's');

const anyMatches = (patterns: readonly string[], value: string): boolean => patterns.some((p) => patternRegex(p).test(value));

/** Whether a rule's scope covers the subject (a job scope never covers a dataset, nor the reverse). */
export const ruleCovers = (rule: AlertRule, subject: AlertSubject): boolean => {
  const { namespaces, jobs, datasets } = rule.scope;
  if (namespaces.length > 0 && !anyMatches(namespaces, subject.namespace)) return false;
  if (jobs.length > 0 && (subject.type !== 'JOB' || !anyMatches(jobs, subject.name))) return false;
  if (datasets.length > 0 && (subject.type !== 'DATASET' || !anyMatches(datasets, subject.name))) return false;
  return true;
};

const specificity = (rule: AlertRule): number => [rule.scope.namespaces, rule.scope.jobs, rule.scope.datasets].filter((l) => l.length > 0).length;

/** The rule that decides a kind's signal about a subject (see the module's note); `undefined` when it is off. */
export const decidingRule = <K extends AlertKind>(rules: readonly AlertRule[], kind: K, subject: AlertSubject): Extract<AlertRule, { kind: K }> | undefined => {
  const candidates = rules.filter((rule): rule is Extract<AlertRule, { kind: K }> => rule.kind === kind && ruleCovers(rule, subject));
  candidates.sort((a, b) => specificity(b) - specificity(a) || a.ruleId.localeCompare(b.ruleId));
  const rule = candidates[0] ?? (builtInRule(kind) as Extract<AlertRule, { kind: K }>);
  return rule.enabled ? rule : undefined;
};
