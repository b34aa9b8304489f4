/**
 * @module alerts/deps
 * What the alert use cases are given.
 */
import type { AlertNotifier } from '../notifications/ports.ts';
import type { LineageModelReads } from '../lineage-graph/ports.ts';
import type { AlertMemory, AlertRuleStore, AlertStore, Clock } from './ports.ts';

/** The alert use cases' ports. */
export interface AlertDeps {
  readonly alerts: AlertStore;
  readonly memory: AlertMemory;
  readonly rules: AlertRuleStore;
  readonly notifier: AlertNotifier;
  /** The lineage model, for blast radii. */
  readonly lineage: LineageModelReads;
  readonly clock: Clock;
}
