/**
 * @module alerts/lifecycle
 * Opening, adding to, resolving and acknowledging alerts, each change stored before its notice is
 * handed to the notifier (ADR 0052). Stored changes are compare-and-set on the alert's sequence,
 * so the evaluator and a person acknowledging at the same moment both land. A signal is applied
 * once: an alert opened by an event has an id derived from that event, so a replay finds it, and
 * an event already among an alert's runs adds nothing. A notice the notifier did not take (a crash
 * between the write and the notice) is sent when the same signal comes again (the feed redelivers
 * an unapplied batch): `notifiedSequence` trails `sequence` until it is.
 */
import { createHash } from 'node:crypto';
import type { AlertTransition } from '../notifications/ports.ts';
import type { FeedEvent } from '../feed/ports.ts';
import type { AlertDeps } from './deps.ts';
import { MAX_ALERT_RUNS, type Alert, type AlertKind, type AlertRun, type AlertSubject, type Resolution } from './types.ts';
import { alertView } from './view.ts';

/** Attempts of a compare-and-set change before giving up (the batch is then retried). */
const MAX_ATTEMPTS = 8;

/** A stable, bounded key of an alert's subject and signal: one open alert per key. */
export const alertKey = (kind: AlertKind, ...parts: readonly string[]): string => `${kind}#${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)}`;

/** `2026-11-28T01:02:03.456789+00:00` → `20261128T010203Z`. */
const compactTime = (iso: string): string => new Date(Date.parse(iso)).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** An alert id: when it opened (so ids sort by it), then a hash of what opened it. */
export const alertIdOf = (openedAt: string, key: string, seed: string): string => `${compactTime(openedAt)}-${createHash('sha256').update(`${key}\u0000${seed}`).digest('hex').slice(0, 16)}`;

/** The first instant of an alert id's second (a listing's time range reads ids by it). */
export const alertIdFloor = (iso: string): string => compactTime(iso);

/** A signal that opens an alert or adds to the open one. */
export interface Signal {
  readonly orgId: string;
  readonly kind: AlertKind;
  readonly key: string;
  readonly subject: AlertSubject;
  readonly title: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly ruleId: string;
  /** When lakeline learned of it (the event's receipt, the check's time). */
  readonly at: string;
  readonly run: AlertRun;
  /** The event that raised it, as sent; absent for the clock's signals. */
  readonly event?: FeedEvent;
}

/** Hands the notifier the alert's change, then records that it did. */
const notify = async (deps: AlertDeps, alert: Alert, transition: AlertTransition, event?: FeedEvent): Promise<void> => {
  await deps.notifier.notify({
    orgId: alert.orgId,
    alertId: alert.alertId,
    kind: alert.kind,
    transition,
    sequence: alert.sequence,
    at: alert.updatedAt,
    alert: (await alertView(deps, alert)) as unknown as Record<string, unknown>,
    ...(event ? { event: event.event_raw } : {}),
  });
  // Recorded best effort: a lost record only means the notice may be sent again (the notifier drops repeats).
  await deps.alerts.replace({ ...alert, notifiedSequence: alert.sequence }, alert.sequence);
};

/** The transition an alert's latest change was (for a notice sent late). */
const lastTransition = (alert: Alert): AlertTransition => {
  if (alert.state === 'RESOLVED') return 'RESOLVED';
  if (alert.sequence === 1) return 'OPENED';
  return alert.state === 'ACKNOWLEDGED' && alert.acknowledgedAt === alert.updatedAt ? 'ACKNOWLEDGED' : 'UPDATED';
};

/** Sends the notice of an alert's latest change if the notifier never took it. */
const catchUp = async (deps: AlertDeps, alert: Alert, event?: FeedEvent): Promise<void> => {
  if (alert.notifiedSequence < alert.sequence) await notify(deps, alert, lastTransition(alert), event);
};

/** Opens an alert for the signal, or adds the signal to the key's open alert. */
export const raise = async (deps: AlertDeps, signal: Signal): Promise<void> => {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const openId = await deps.alerts.openAlertOf(signal.orgId, signal.key);
    if (openId === undefined) {
      if (await open(deps, signal)) return;
      continue;
    }
    const current = await deps.alerts.get(signal.orgId, openId);
    if (current === undefined || current.state === 'RESOLVED') {
      // A pointer left by a crash between claiming and storing, or by a resolve that did not clear it.
      if (current === undefined) {
        if (await open(deps, signal, openId)) return;
        continue;
      }
      await deps.alerts.releaseOpen(signal.orgId, signal.key, openId);
      continue;
    }
    if (current.runs.some((r) => r.eventId === signal.run.eventId)) return catchUp(deps, current, signal.event);
    const next: Alert = {
      ...current,
      details: signal.details,
      title: signal.title,
      updatedAt: signal.at,
      runs: [signal.run, ...current.runs].slice(0, MAX_ALERT_RUNS),
      runCount: current.runCount + 1,
      sequence: current.sequence + 1,
    };
    if (await deps.alerts.replace(next, current.sequence)) return notify(deps, next, 'UPDATED', signal.event);
  }
  throw new Error(`alerts: could not record a change of the alert for ${signal.key} (it kept changing)`);
};

/** Opens a new alert (id `presetId` when a pointer already names it); `false` when the key's pointer moved meanwhile. */
const open = async (deps: AlertDeps, signal: Signal, presetId?: string): Promise<boolean> => {
  const alertId = presetId ?? alertIdOf(signal.at, signal.key, signal.run.eventId);
  const existing = await deps.alerts.get(signal.orgId, alertId);
  // Opened by this very signal before (a replay): nothing new, unless its notice was never taken.
  if (existing) {
    await catchUp(deps, existing, signal.event);
    return true;
  }
  if (presetId === undefined && (await deps.alerts.claimOpen(signal.orgId, signal.key, alertId)) !== alertId) return false;
  const alert: Alert = {
    orgId: signal.orgId,
    alertId,
    kind: signal.kind,
    state: 'OPEN',
    key: signal.key,
    subject: signal.subject,
    title: signal.title,
    details: signal.details,
    ruleId: signal.ruleId,
    openedAt: signal.at,
    updatedAt: signal.at,
    acknowledgedAt: null,
    resolvedAt: null,
    resolution: null,
    runs: [signal.run],
    runCount: 1,
    sequence: 1,
    notifiedSequence: 0,
  };
  if (await deps.alerts.create(alert)) await notify(deps, alert, 'OPENED', signal.event);
  return true;
};

/** A signal that clears the key's open alert. */
export interface Clearing {
  readonly orgId: string;
  readonly key: string;
  readonly resolution: Resolution;
  readonly at: string;
  /** Only an alert whose newest signal came before this time is cleared (an older event clears nothing). */
  readonly eventTime: string;
  readonly run?: AlertRun;
  readonly event?: FeedEvent;
}

/** Resolves the key's open alert, if there is one and the clearing signal is newer than what raised it. */
export const clear = async (deps: AlertDeps, clearing: Clearing): Promise<void> => {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const openId = await deps.alerts.openAlertOf(clearing.orgId, clearing.key);
    if (openId === undefined) return;
    const current = await deps.alerts.get(clearing.orgId, openId);
    if (current === undefined) return;
    if (current.state === 'RESOLVED') return deps.alerts.releaseOpen(clearing.orgId, clearing.key, openId);
    const newest = current.runs[0]?.at;
    if (newest !== undefined && Date.parse(newest) >= Date.parse(clearing.eventTime)) return;
    const next: Alert = {
      ...current,
      state: 'RESOLVED',
      resolution: clearing.resolution,
      resolvedAt: clearing.at,
      updatedAt: clearing.at,
      runs: clearing.run ? [clearing.run, ...current.runs].slice(0, MAX_ALERT_RUNS) : current.runs,
      sequence: current.sequence + 1,
    };
    if (await deps.alerts.replace(next, current.sequence)) {
      await deps.alerts.releaseOpen(clearing.orgId, clearing.key, openId);
      return notify(deps, next, 'RESOLVED', clearing.event);
    }
  }
  throw new Error(`alerts: could not resolve the alert for ${clearing.key} (it kept changing)`);
};

/** What a person does to an alert. */
export type PersonAction = 'ACKNOWLEDGE' | 'RESOLVE';

/**
 * Acknowledges or resolves an alert for a person; repeating an action changes nothing. Answers
 * the alert after, or `conflict` for acknowledging a resolved alert; `undefined` when the org has
 * no such alert.
 */
export const actOn = async (deps: AlertDeps, orgId: string, alertId: string, action: PersonAction): Promise<Alert | 'conflict' | undefined> => {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await deps.alerts.get(orgId, alertId);
    if (current === undefined) return undefined;
    if (action === 'ACKNOWLEDGE' && current.state === 'RESOLVED') return 'conflict';
    if ((action === 'ACKNOWLEDGE' && current.state === 'ACKNOWLEDGED') || (action === 'RESOLVE' && current.state === 'RESOLVED')) return current;
    const at = deps.clock.now().toISOString();
    const next: Alert =
      action === 'ACKNOWLEDGE'
        ? { ...current, state: 'ACKNOWLEDGED', acknowledgedAt: at, updatedAt: at, sequence: current.sequence + 1 }
        : { ...current, state: 'RESOLVED', resolution: 'BY_USER', resolvedAt: at, updatedAt: at, sequence: current.sequence + 1 };
    if (await deps.alerts.replace(next, current.sequence)) {
      if (action === 'RESOLVE') await deps.alerts.releaseOpen(orgId, current.key, alertId);
      await notify(deps, next, action === 'ACKNOWLEDGE' ? 'ACKNOWLEDGED' : 'RESOLVED');
      return (await deps.alerts.get(orgId, alertId)) ?? next;
    }
  }
  throw new Error(`alerts: could not change alert ${alertId} (it kept changing)`);
};
