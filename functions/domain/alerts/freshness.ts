/**
 * @module alerts/freshness
 * The late-table check (ADR 0052), run on a clock (EventBridge Scheduler in AWS, a timer in the
 * local stack): a dataset written on a cadence — set by its rule, or learned as the median
 * interval of its last writes — that has not been written `tolerance` cadences (plus a grace)
 * after its last write is late. One alert per lateness: the same last write raises nothing twice,
 * and the next write resolves it (`evaluate.ts`).
 */
import { median } from './anomaly.ts';
import type { AlertDeps } from './deps.ts';
import { alertKey, raise } from './lifecycle.ts';
import { decidingRule, effectiveRules } from './rules.ts';
import { ALERT_KINDS, type AlertSubject } from './types.ts';

/** What one org's check found. */
export interface FreshnessSummary {
  readonly datasets: number;
  readonly late: number;
}

/** Checks every dataset the org writes against its cadence, at the clock's time. */
export const checkFreshness = async (deps: AlertDeps, orgId: string): Promise<FreshnessSummary> => {
  const now = deps.clock.now();
  const rules = effectiveRules(await deps.rules.list(orgId), ALERT_KINDS);
  let datasets = 0;
  let late = 0;
  for await (const { namespace, name, writes } of deps.memory.allDatasetWrites(orgId)) {
    datasets++;
    const subject: AlertSubject = { type: 'DATASET', namespace, name };
    const rule = decidingRule(rules, 'LATE_TABLE', subject);
    const last = writes.at(-1);
    if (!rule || last === undefined) continue;
    const times = writes.map((w) => Date.parse(w));
    const intervals = times.slice(1).map((t, i) => t - (times[i] as number));
    const learned = rule.settings.expectedEveryMinutes === null;
    const cadenceMs = learned ? (intervals.length >= rule.settings.minHistory ? median(intervals) : null) : (rule.settings.expectedEveryMinutes as number) * 60_000;
    if (cadenceMs === null || cadenceMs <= 0) continue;
    const dueAt = Date.parse(last) + cadenceMs * rule.settings.tolerance + rule.settings.graceMinutes * 60_000;
    if (now.getTime() <= dueAt) continue;
    late++;
    const at = now.toISOString();
    const cadenceMinutes = Math.round(cadenceMs / 6_000) / 10;
    await raise(deps, {
      orgId,
      kind: 'LATE_TABLE',
      key: alertKey('LATE_TABLE', namespace, name),
      subject,
      title: `Dataset ${namespace}/${name}: not written since ${last} (expected every ${cadenceMinutes} min)`,
      details: { lastWriteAt: last, cadenceMinutes, cadenceLearned: learned, writesSeen: writes.length, dueAt: new Date(dueAt).toISOString() },
      ruleId: rule.ruleId,
      at,
      // One lateness per last write: a check finding the same one again adds nothing.
      run: { runId: null, state: 'LATE', at: last, eventId: `late:${last}`, note: `due by ${new Date(dueAt).toISOString()}` },
    });
  }
  return { datasets, late };
};
