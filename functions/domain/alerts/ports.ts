/**
 * @module alerts/ports
 * Where alerts, their rules and what evaluation remembers live (DynamoDB's Alerts table:
 * `adapters/dynamodb/alert-store.ts`), and the clock the freshness check reads. Every key is
 * scoped to the organization.
 */
import type { Alert } from './types.ts';
import type { AlertRule } from './rules.ts';


/** Which alerts a listing wants (each filter optional). */
export interface AlertFilter {
  readonly states?: readonly Alert['state'][];
  readonly kinds?: readonly Alert['kind'][];
  readonly namespace?: string;
  /** `openedAt` at or after (ISO 8601). */
  readonly from?: string;
  /** `openedAt` before (ISO 8601). */
  readonly to?: string;
}

/** A page of alerts, newest first, and where the next one starts. */
export interface AlertPage {
  readonly alerts: readonly Alert[];
  readonly next: string | null;
}

/** Port: the org's alerts. */
export interface AlertStore {
  get(orgId: string, alertId: string): Promise<Alert | undefined>;
  /** Stores a new alert; `false` when one with its id exists (a replay of the event that opened it). */
  create(alert: Alert): Promise<boolean>;
  /** Replaces an alert if its sequence is still `expectedSequence`; `false` on a conflict. */
  replace(alert: Alert, expectedSequence: number): Promise<boolean>;
  /** The open alert of a key, if any. */
  openAlertOf(orgId: string, key: string): Promise<string | undefined>;
  /** Marks `alertId` the key's open alert, unless another is; answers the key's open alert after. */
  claimOpen(orgId: string, key: string, alertId: string): Promise<string>;
  /** Clears the key's open alert if it is `alertId`. */
  releaseOpen(orgId: string, key: string, alertId: string): Promise<void>;
  /** Newest first; `cursor` is a page's `next`. */
  list(orgId: string, filter: AlertFilter, limit: number, cursor?: string): Promise<AlertPage>;
}

/** A successful run's figures, kept per job for the odd-run rule. */
export interface RunFigures {
  readonly runId: string;
  readonly at: string;
  readonly durationMs: number | null;
  readonly rows: number | null;
  readonly bytes: number | null;
}

/** Port: what evaluation remembers between batches (events seen, run starts, job figures, dataset writes). */
export interface AlertMemory {
  /** Of these event ids, those already evaluated. */
  seen(orgId: string, eventIds: readonly string[]): Promise<Set<string>>;
  markSeen(orgId: string, eventIds: readonly string[]): Promise<void>;
  /** The earliest START/RUNNING time seen of a run. */
  runStart(orgId: string, runId: string): Promise<string | undefined>;
  noteRunStart(orgId: string, runId: string, at: string): Promise<void>;
  /** A job's recent successful runs, oldest first. */
  jobFigures(orgId: string, jobKey: string): Promise<readonly RunFigures[]>;
  putJobFigures(orgId: string, jobKey: string, figures: readonly RunFigures[]): Promise<void>;
  /** A dataset's recent write times, oldest first. */
  datasetWrites(orgId: string, dataset: { namespace: string; name: string }): Promise<readonly string[]>;
  putDatasetWrites(orgId: string, dataset: { namespace: string; name: string }, writes: readonly string[]): Promise<void>;
  /** Every dataset the org wrote, with its write times (the freshness check reads them). */
  allDatasetWrites(orgId: string): AsyncIterable<{ readonly namespace: string; readonly name: string; readonly writes: readonly string[] }>;
}

/** Port: the org's own rules (the built-in defaults are not stored until changed). */
export interface AlertRuleStore {
  list(orgId: string): Promise<AlertRule[]>;
  put(orgId: string, rule: AlertRule): Promise<void>;
  /** `false` when there was none. */
  delete(orgId: string, ruleId: string): Promise<boolean>;
}

/** Port: what time it is (the local stack's can be set by a file, for tests of lateness). */
export interface Clock {
  now(): Date;
}
