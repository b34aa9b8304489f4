/**
 * @module alerts/types
 * An alert as lakeline keeps it (issue 27): what it is about (a job or a dataset), its kind, its
 * state, the runs and events that made it, and the details its kind records (the failed assertion,
 * the odd figures, the cadence a table missed). One alert is open per subject and signal at a time
 * (its `key`); later signals add to it, and a clearing signal (the job's next COMPLETE, the test
 * passing, the table written) resolves it.
 */
import type { AlertKind } from '../notifications/ports.ts';

export type { AlertKind };

/** The kinds, in the API's order. */
export const ALERT_KINDS: readonly AlertKind[] = ['RUN_FAILED', 'TEST_FAILED', 'LATE_TABLE', 'ODD_RUN'];

/** Where an alert stands. */
export type AlertState = 'OPEN' | 'ACKNOWLEDGED' | 'RESOLVED';

/** The alert states, in the API's order. */
export const ALERT_STATES: readonly AlertState[] = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED'];

/** What an alert is about: a job (failed or odd runs) or a dataset (a failed test, a late table). */
export interface AlertSubject {
  readonly type: 'JOB' | 'DATASET';
  readonly namespace: string;
  readonly name: string;
}

/** A run that raised or added to the alert. */
export interface AlertRun {
  readonly runId: string | null;
  /** The event's `eventType` (FAIL, ABORT, COMPLETE…; OTHER for a DatasetEvent). */
  readonly state: string;
  /** The event's time. */
  readonly at: string;
  readonly eventId: string;
  /** Why this run counts: the error message, the failed assertion, the odd figure. */
  readonly note: string | null;
}

/** How an alert came to be resolved. */
export type Resolution = 'RUN_COMPLETED' | 'TEST_PASSED' | 'TABLE_WRITTEN' | 'RUN_NORMAL' | 'BY_USER';

/** An alert record. */
export interface Alert {
  readonly orgId: string;
  /** Sorts by when it opened (`<yyyymmddThhmmssZ>-<hash>`), unique per org. */
  readonly alertId: string;
  readonly kind: AlertKind;
  readonly state: AlertState;
  /** One open alert per key (`<kind>#<subject>[#<assertion>]`). */
  readonly key: string;
  readonly subject: AlertSubject;
  /** One line a person reads first. */
  readonly title: string;
  /** What its kind records (the assertion and column, the odd figures and the rule, the cadence). */
  readonly details: Readonly<Record<string, unknown>>;
  /** The rule that decided it (a built-in default or one of the org's). */
  readonly ruleId: string;
  readonly openedAt: string;
  readonly updatedAt: string;
  readonly acknowledgedAt: string | null;
  readonly resolvedAt: string | null;
  readonly resolution: Resolution | null;
  /** Newest first, at most {@link MAX_ALERT_RUNS}; `runCount` counts them all. */
  readonly runs: readonly AlertRun[];
  readonly runCount: number;
  /** The change count: 1 when opened, +1 per change (the notices' `sequence`). */
  readonly sequence: number;
  /** The highest sequence whose notice the notifier took (a crash between the two is caught up on). */
  readonly notifiedSequence: number;
}

/** Runs kept on an alert (the newest); older ones are counted. */
export const MAX_ALERT_RUNS = 50;
