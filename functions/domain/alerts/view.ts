/**
 * @module alerts/view
 * An alert as the API answers it (`GET /api/v1/alerts/{id}`: with its runs and blast radius;
 * listings: without them) and as every notice carries it.
 */
import { blastRadiusOf, type BlastRadius } from './blast-radius.ts';
import type { AlertDeps } from './deps.ts';
import type { Alert } from './types.ts';

/** An alert in a listing. */
export type AlertSummaryView = Pick<Alert, 'alertId' | 'kind' | 'state' | 'subject' | 'title' | 'details' | 'ruleId' | 'openedAt' | 'updatedAt' | 'acknowledgedAt' | 'resolvedAt' | 'resolution' | 'runCount' | 'sequence'>;

/** One alert, whole. */
export type AlertView = AlertSummaryView & Pick<Alert, 'runs'> & { readonly blastRadius: BlastRadius };

/** The listing's fields of an alert. */
export const alertSummary = (a: Alert): AlertSummaryView => ({
  alertId: a.alertId,
  kind: a.kind,
  state: a.state,
  subject: a.subject,
  title: a.title,
  details: a.details,
  ruleId: a.ruleId,
  openedAt: a.openedAt,
  updatedAt: a.updatedAt,
  acknowledgedAt: a.acknowledgedAt,
  resolvedAt: a.resolvedAt,
  resolution: a.resolution,
  runCount: a.runCount,
  sequence: a.sequence,
});

/** The whole alert with its blast radius, read from the lineage model now. */
export const alertView = async (deps: Pick<AlertDeps, 'lineage'>, a: Alert): Promise<AlertView> => ({
  ...alertSummary(a),
  runs: a.runs,
  blastRadius: await blastRadiusOf(deps.lineage, a.orgId, a.subject),
});
