/**
 * @module alerts/evaluate
 * Alert evaluation of one org's batch of stored events (the feed's `alerts` subscriber, ADR 0045
 * and 0052): a run that ends FAIL or ABORT raises RUN_FAILED for its job, and the job's next
 * COMPLETE resolves it; a failed data-quality assertion raises TEST_FAILED for its dataset,
 * column and assertion, and the assertion passing resolves it; a COMPLETE whose duration, rows or
 * bytes lie far outside the job's recent successful runs raises ODD_RUN (`anomaly.ts`), and the
 * next ordinary run resolves it; a COMPLETE that writes a dataset records the write (the cadence
 * the freshness check learns) and resolves its LATE_TABLE alert. Events already evaluated are
 * skipped (the feed delivers at least once), and each change is idempotent besides.
 */
import type { FeedEvent } from '../feed/ports.ts';
import { judgeFigure, type FigureVerdict } from './anomaly.ts';
import type { AlertDeps } from './deps.ts';
import { alertKey, clear, raise } from './lifecycle.ts';
import type { RunFigures } from './ports.ts';
import { decidingRule, effectiveRules, type AlertRule } from './rules.ts';
import { assertionsOf, errorMessageOf, outputsOf, writtenFiguresOf, type DatasetName } from './signals.ts';
import { ALERT_KINDS, type AlertSubject } from './types.ts';

/** Successful runs' figures kept per job (a rule's window reads the newest of them). */
const KEPT_FIGURES = 50;
/** Write times kept per dataset (the learned cadence is their intervals' median). */
export const KEPT_WRITES = 20;

/** The ISO time of a stored event time (`…ffffff+00:00`). */
const iso = (time: string): string => new Date(Date.parse(time)).toISOString();

const jobOf = (event: FeedEvent): AlertSubject | undefined =>
  event.job_name !== null && event.job_namespace !== null ? { type: 'JOB', namespace: event.job_namespace, name: event.job_name } : undefined;

const datasetSubject = (d: DatasetName): AlertSubject => ({ type: 'DATASET', namespace: d.namespace, name: d.name });

/** Evaluates one org's batch, in stored order. */
export const evaluateBatch = async (deps: AlertDeps, orgId: string, events: readonly FeedEvent[]): Promise<void> => {
  if (events.length === 0) return;
  const seen = await deps.memory.seen(orgId, events.map((e) => e.id));
  const fresh = events.filter((e) => !seen.has(e.id));
  if (fresh.length === 0) return;
  const rules = effectiveRules(await deps.rules.list(orgId), ALERT_KINDS);
  for (const event of fresh) await evaluateEvent(deps, orgId, rules, event);
  await deps.memory.markSeen(orgId, fresh.map((e) => e.id));
};

const evaluateEvent = async (deps: AlertDeps, orgId: string, rules: readonly AlertRule[], event: FeedEvent): Promise<void> => {
  const job = jobOf(event);
  const state = event.run_state;
  if (job && (state === 'START' || state === 'RUNNING') && event.run_id !== null) {
    const known = await deps.memory.runStart(orgId, event.run_id);
    if (known === undefined || Date.parse(known) > Date.parse(event.event_time)) await deps.memory.noteRunStart(orgId, event.run_id, event.event_time);
  }
  if (job && (state === 'FAIL' || state === 'ABORT')) await runFailed(deps, orgId, rules, job, event);
  if (job && state === 'COMPLETE') {
    await clear(deps, { orgId, key: alertKey('RUN_FAILED', job.namespace, job.name), resolution: 'RUN_COMPLETED', at: event.received_at, eventTime: event.event_time, run: runOf(event, null), event });
    await oddRun(deps, orgId, rules, job, event);
    for (const output of outputsOf(event)) await recordWrite(deps, orgId, output, event);
  }
  await assertions(deps, orgId, rules, event);
};

const runOf = (event: FeedEvent, note: string | null) => ({ runId: event.run_id, state: event.run_state, at: iso(event.event_time), eventId: event.id, note });

const runFailed = async (deps: AlertDeps, orgId: string, rules: readonly AlertRule[], job: AlertSubject, event: FeedEvent): Promise<void> => {
  const rule = decidingRule(rules, 'RUN_FAILED', job);
  if (!rule || !rule.settings.states.includes(event.run_state as 'FAIL' | 'ABORT')) return;
  const error = errorMessageOf(event);
  await raise(deps, {
    orgId,
    kind: 'RUN_FAILED',
    key: alertKey('RUN_FAILED', job.namespace, job.name),
    subject: job,
    title: `Job ${job.namespace}/${job.name}: run ${event.run_state === 'FAIL' ? 'failed' : 'aborted'}`,
    details: { lastState: event.run_state, lastRunId: event.run_id, errorMessage: error, producer: event.produced_by, integration: event.integration },
    ruleId: rule.ruleId,
    at: event.received_at,
    run: runOf(event, error),
    event,
  });
};

const assertions = async (deps: AlertDeps, orgId: string, rules: readonly AlertRule[], event: FeedEvent): Promise<void> => {
  for (const outcome of assertionsOf(event)) {
    const subject = datasetSubject(outcome.dataset);
    const key = alertKey('TEST_FAILED', subject.namespace, subject.name, outcome.column ?? '', outcome.assertion);
    if (outcome.success) {
      await clear(deps, { orgId, key, resolution: 'TEST_PASSED', at: event.received_at, eventTime: event.event_time, run: runOf(event, `${outcome.assertion} passed`), event });
      continue;
    }
    const rule = decidingRule(rules, 'TEST_FAILED', subject);
    if (!rule) continue;
    const where = outcome.column === null ? '' : ` on column ${outcome.column}`;
    await raise(deps, {
      orgId,
      kind: 'TEST_FAILED',
      key,
      subject,
      title: `Dataset ${subject.namespace}/${subject.name}: test ${outcome.assertion}${where} failed`,
      details: { assertion: outcome.assertion, column: outcome.column, severity: outcome.severity, job: event.job_name === null ? null : { namespace: event.job_namespace, name: event.job_name } },
      ruleId: rule.ruleId,
      at: event.received_at,
      run: runOf(event, `${outcome.assertion}${where} failed`),
      event,
    });
  }
};

/** Words for a figure (the alert's title and run note). */
const METRIC_WORDS = { durationMs: 'duration (ms)', rows: 'rows written', bytes: 'bytes written' } as const;

const oddRun = async (deps: AlertDeps, orgId: string, rules: readonly AlertRule[], job: AlertSubject, event: FeedEvent): Promise<void> => {
  if (event.run_id === null) return;
  const jobKey = alertKey('ODD_RUN', job.namespace, job.name);
  const history = await deps.memory.jobFigures(orgId, jobKey);
  if (history.some((f) => f.runId === event.run_id)) return;
  const start = await deps.memory.runStart(orgId, event.run_id);
  const durationMs = start === undefined ? null : Math.max(0, Date.parse(event.event_time) - Date.parse(start));
  const figures: RunFigures = { runId: event.run_id, at: iso(event.event_time), durationMs, ...writtenFiguresOf(event) };
  const rule = decidingRule(rules, 'ODD_RUN', job);
  if (rule) {
    const window = history.slice(-rule.settings.window);
    const verdicts: Partial<Record<keyof typeof METRIC_WORDS, FigureVerdict>> = {};
    for (const metric of rule.settings.metrics) {
      const value = figures[metric];
      if (value === null) continue;
      const verdict = judgeFigure(value, window.flatMap((f) => (f[metric] === null ? [] : [f[metric] as number])), rule.settings);
      if (verdict) verdicts[metric] = verdict;
    }
    const odd = (Object.keys(verdicts) as (keyof typeof METRIC_WORDS)[]).filter((m) => verdicts[m]?.odd);
    if (odd.length > 0) {
      const note = odd.map((m) => `${METRIC_WORDS[m]} ${verdicts[m]?.value} against a median of ${verdicts[m]?.median}`).join('; ');
      await raise(deps, {
        orgId,
        kind: 'ODD_RUN',
        key: jobKey,
        subject: job,
        title: `Job ${job.namespace}/${job.name}: odd ${odd.map((m) => METRIC_WORDS[m]).join(', ')}`,
        details: {
          runId: event.run_id,
          oddMetrics: odd,
          figures: verdicts,
          rule: `median and MAD of the last ${rule.settings.window} successful runs (at least ${rule.settings.minHistory}); odd past a robust z of ${rule.settings.threshold} and a relative change of ${rule.settings.minRelativeChange}`,
        },
        ruleId: rule.ruleId,
        at: event.received_at,
        run: runOf(event, note),
        event,
      });
    } else if (Object.keys(verdicts).length > 0) {
      await clear(deps, { orgId, key: jobKey, resolution: 'RUN_NORMAL', at: event.received_at, eventTime: event.event_time, run: runOf(event, 'an ordinary run'), event });
    }
  }
  // Kept whether or not the rule is on: turning it on later finds a history.
  await deps.memory.putJobFigures(orgId, jobKey, [...history, figures].sort((a, b) => a.at.localeCompare(b.at)).slice(-KEPT_FIGURES));
};

const recordWrite = async (deps: AlertDeps, orgId: string, dataset: DatasetName, event: FeedEvent): Promise<void> => {
  const at = iso(event.event_time);
  const writes = await deps.memory.datasetWrites(orgId, dataset);
  if (!writes.includes(at)) await deps.memory.putDatasetWrites(orgId, dataset, [...writes, at].sort().slice(-KEPT_WRITES));
  await clear(deps, { orgId, key: alertKey('LATE_TABLE', dataset.namespace, dataset.name), resolution: 'TABLE_WRITTEN', at: event.received_at, eventTime: event.event_time, run: runOf(event, 'written'), event });
};
