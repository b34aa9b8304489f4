/**
 * @module schemas/alerts
 * The alerts API (issue 27): alerts with their runs and blast radius, the listing's query, and
 * alert rules as resources.
 */
import { ValidationError } from '#domain/errors';
import { MAX_NAME_CHARS, MAX_TIME_CHARS } from '#domain/input-limits';
import { parseAsOf } from '#domain/lineage-graph/params';
import { EVENT_TIME_PATTERN } from './event-time-pattern.ts';
import type { AlertListQuery, RuleInput } from '#domain/alerts/manage';
import { z } from './zod.ts';

const KIND = z.enum(['RUN_FAILED', 'TEST_FAILED', 'LATE_TABLE', 'ODD_RUN']);
const STATE = z.enum(['OPEN', 'ACKNOWLEDGED', 'RESOLVED']);

/** What an alert is about. */
export const AlertSubject = z.strictObject({ type: z.enum(['JOB', 'DATASET']), namespace: z.string(), name: z.string() }).openapi('AlertSubject');

/** A run (or a check) that raised, added to or cleared an alert. */
export const AlertRun = z
  .strictObject({
    runId: z.string().nullable(),
    state: z.string().openapi({ description: 'The event type (FAIL, ABORT, COMPLETE…), or LATE for a late-table check' }),
    at: z.string().openapi({ description: 'The event time (a late table: its last write)' }),
    eventId: z.string(),
    note: z.string().nullable(),
  })
  .openapi('AlertRun');

/** One job or dataset downstream. */
export const AffectedNode = z
  .strictObject({
    type: z.enum(['JOB', 'DATASET']),
    namespace: z.string(),
    name: z.string(),
    distance: z.number().int().min(1).openapi({ description: 'Edges from the alert’s job or dataset' }),
    owners: z.array(z.string()).openapi({ description: 'From its `ownership` facet' }),
  })
  .openapi('AffectedNode');

/** What an alert breaks downstream. */
export const BlastRadius = z
  .strictObject({
    depth: z.number().int().openapi({ description: 'Job hops followed downstream' }),
    jobs: z.array(AffectedNode).openapi({ description: 'Nearest first, at most 25' }),
    datasets: z.array(AffectedNode).openapi({ description: 'Nearest first, at most 25' }),
    jobCount: z.number().int().min(0),
    datasetCount: z.number().int().min(0),
    owners: z.array(z.string()).openapi({ description: 'Every owner named downstream, distinct' }),
  })
  .openapi('BlastRadius');

const summaryShape = {
  alertId: z.string(),
  kind: KIND,
  state: STATE,
  subject: AlertSubject,
  title: z.string(),
  details: z.record(z.string(), z.unknown()).openapi({ description: 'What the kind records: the error message; the assertion and column; the odd figures and the rule; the cadence and last write' }),
  ruleId: z.string(),
  openedAt: z.string(),
  updatedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolution: z.enum(['RUN_COMPLETED', 'TEST_PASSED', 'TABLE_WRITTEN', 'RUN_NORMAL', 'BY_USER']).nullable(),
  runCount: z.number().int().min(1),
  sequence: z.number().int().min(1).openapi({ description: 'The change count (1 when opened); notices carry it' }),
};

/** An alert in a listing. */
export const AlertSummary = z.strictObject(summaryShape).openapi('AlertSummary');

/** `GET /api/v1/alerts/{alertId}`: an alert with its runs (newest first) and blast radius. */
export const Alert = z.strictObject({ ...summaryShape, runs: z.array(AlertRun), blastRadius: BlastRadius }).openapi('Alert');

/** `GET /api/v1/alerts`. */
export const AlertList = z.strictObject({ alerts: z.array(AlertSummary), next: z.string().nullable().openapi({ description: 'The `cursor` of the next page; null on the last' }) }).openapi('AlertList');

const MAX_ALERTS_PAGE = 200;
const DEFAULT_ALERTS_PAGE = 50;
/** A comma-separated list of enum values, as a pattern the document states and the parser holds to. */
const listPattern = (values: readonly string[]): string => `^(?:${values.join('|')})(?:,(?:${values.join('|')}))*$`;
const TIME = z
  .string()
  .max(MAX_TIME_CHARS)
  .regex(new RegExp(EVENT_TIME_PATTERN))
  .openapi({ description: 'an RFC 3339 date-time (no zone: UTC)', example: '2030-01-31T12:00:00Z' });

/** The listing's query string. */
export const AlertsQuery = z
  .strictObject({
    state: z.string().regex(new RegExp(listPattern(STATE.options))).optional().openapi({ description: `one or more of ${STATE.options.join(', ')}, comma-separated` }),
    kind: z.string().regex(new RegExp(listPattern(KIND.options))).optional().openapi({ description: `one or more of ${KIND.options.join(', ')}, comma-separated` }),
    namespace: z.string().min(1).max(MAX_NAME_CHARS).optional(),
    from: TIME.optional().openapi({ description: 'opened at or after' }),
    to: TIME.optional().openapi({ description: 'opened before' }),
    limit: z.int().min(1).max(MAX_ALERTS_PAGE).optional().openapi({ description: `default ${DEFAULT_ALERTS_PAGE}` }),
    cursor: z.string().regex(/^[A-Za-z0-9_-]{1,512}$/).optional().openapi({ description: 'the `next` of the previous page' }),
  })
  .openapi('AlertsQuery');

const parseList = <T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T[] | undefined => {
  if (raw === undefined) return undefined;
  const values = raw.split(',');
  for (const v of values) if (!allowed.includes(v as T)) throw new ValidationError(`${name}: ${v || '(empty)'} is not one of ${allowed.join(', ')}`);
  return values as T[];
};

/** Reads the listing's query string; a 400 names the parameter at fault. */
export const parseAlertsQuery = (params: Readonly<Record<string, string | undefined>>): AlertListQuery => {
  const unknown = Object.keys(params).filter((k) => !(k in AlertsQuery.shape));
  if (unknown.length > 0) throw new ValidationError(`${unknown[0]}: unknown parameter (expected ${Object.keys(AlertsQuery.shape).join(', ')})`);
  const limit = params.limit === undefined ? DEFAULT_ALERTS_PAGE : /^\d+$/.test(params.limit) ? Number(params.limit) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ALERTS_PAGE) throw new ValidationError(`limit: must be an integer between 1 and ${MAX_ALERTS_PAGE}`);
  if (params.namespace !== undefined && (params.namespace === '' || params.namespace.length > MAX_NAME_CHARS)) throw new ValidationError(`namespace: must be 1 to ${MAX_NAME_CHARS} characters`);
  if (params.cursor !== undefined && !/^[A-Za-z0-9_-]{1,512}$/.test(params.cursor)) throw new ValidationError('cursor: not a cursor this listing gave');
  const states = parseList('state', params.state, STATE.options);
  const kinds = parseList('kind', params.kind, KIND.options);
  const from = params.from === undefined ? undefined : parseAsOf(params.from, 'from');
  const to = params.to === undefined ? undefined : parseAsOf(params.to, 'to');
  return {
    limit,
    ...(states ? { states } : {}),
    ...(kinds ? { kinds } : {}),
    ...(params.namespace !== undefined ? { namespace: params.namespace } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(params.cursor !== undefined ? { cursor: params.cursor } : {}),
  };
};

// --- rules ----------------------------------------------------------------------------------------

const PATTERNS = z
  .array(z.string().min(1).max(MAX_NAME_CHARS))
  .max(50)
  .openapi({ description: 'patterns: `*` any run of characters, `?` one character' });

/** Where a rule applies; an empty list does not narrow. */
export const RuleScope = z.strictObject({ namespaces: PATTERNS, jobs: PATTERNS, datasets: PATTERNS }).openapi('AlertRuleScope');

const runFailedSettings = z.strictObject({ states: z.array(z.enum(['FAIL', 'ABORT'])).min(1).max(2) });
const testFailedSettings = z.strictObject({});
const lateTableSettings = z.strictObject({
  expectedEveryMinutes: z.number().positive().max(525_600).nullable().openapi({ description: 'the cadence in minutes; null: learned from the last writes' }),
  minHistory: z.number().int().min(1).max(19),
  tolerance: z.number().min(1).max(100).openapi({ description: 'late after this many cadences past the last write (plus the grace)' }),
  graceMinutes: z.number().min(0).max(10_080),
});
const oddRunSettings = z.strictObject({
  metrics: z.array(z.enum(['durationMs', 'rows', 'bytes'])).min(1).max(3),
  window: z.number().int().min(3).max(50).openapi({ description: 'the newest successful runs compared with' }),
  minHistory: z.number().int().min(3).max(50),
  threshold: z.number().positive().max(1000).openapi({ description: 'robust z-score: |x − median| / (1.4826 · MAD)' }),
  minRelativeChange: z.number().min(0).max(1000).openapi({ description: '|x − median| / median at least this (0.5: 50 %)' }),
});

const ruleShape = { ruleId: z.string(), enabled: z.boolean(), scope: RuleScope, builtIn: z.boolean(), updatedAt: z.string().nullable() };

/** A rule, as the API answers it. */
export const AlertRule = z
  .discriminatedUnion('kind', [
    z.strictObject({ ...ruleShape, kind: z.literal('RUN_FAILED'), settings: runFailedSettings }),
    z.strictObject({ ...ruleShape, kind: z.literal('TEST_FAILED'), settings: testFailedSettings }),
    z.strictObject({ ...ruleShape, kind: z.literal('LATE_TABLE'), settings: lateTableSettings }),
    z.strictObject({ ...ruleShape, kind: z.literal('ODD_RUN'), settings: oddRunSettings }),
  ])
  .openapi('AlertRule');

/** `GET /api/v1/alert-rules`. */
export const AlertRules = z.strictObject({ rules: z.array(AlertRule) }).openapi('AlertRules');

const EMPTY_SCOPE = { namespaces: [], jobs: [], datasets: [] };
const inputShape = { enabled: z.boolean().optional().openapi({ description: 'default true' }), scope: RuleScope.partial().optional() };

/** A rule as a person writes it: settings left out take the kind's defaults. */
export const AlertRuleInput = z
  .discriminatedUnion('kind', [
    z.strictObject({ ...inputShape, kind: z.literal('RUN_FAILED'), settings: runFailedSettings.partial().optional() }),
    z.strictObject({ ...inputShape, kind: z.literal('TEST_FAILED'), settings: testFailedSettings.optional() }),
    z.strictObject({ ...inputShape, kind: z.literal('LATE_TABLE'), settings: lateTableSettings.partial().optional() }),
    z.strictObject({ ...inputShape, kind: z.literal('ODD_RUN'), settings: oddRunSettings.partial().optional() }),
  ])
  .openapi('AlertRuleInput');

/** Reads a rule body; a 400 names the field at fault. */
export const parseAlertRuleInput = (value: unknown): RuleInput => {
  const parsed = AlertRuleInput.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  const { kind, enabled, scope, settings } = parsed.data;
  return { kind, enabled: enabled ?? true, scope: { ...EMPTY_SCOPE, ...scope }, settings: settings ?? {} };
};
