/**
 * @module notifications/ports
 * What alerts hand to notifications (issue 27): a notice of an alert's change, which the notifier
 * delivers to every destination of the org (webhooks, Slack) through a durable queue. The alerts
 * side (`domain/alerts`) raises notices; this side (`domain/notifications`) owns destinations,
 * signing, retries, ordering per alert and the delivery log.
 */

/** The kinds of alert (the API's `kind`). */
export type AlertKind = 'RUN_FAILED' | 'TEST_FAILED' | 'LATE_TABLE' | 'ODD_RUN';

/** What happened to the alert, which this notice reports. */
export type AlertTransition = 'OPENED' | 'UPDATED' | 'ACKNOWLEDGED' | 'RESOLVED';

/** One change of one alert, as every destination receives it. */
export interface AlertNotice {
  readonly orgId: string;
  readonly alertId: string;
  readonly kind: AlertKind;
  readonly transition: AlertTransition;
  /**
   * The alert's change count (1 for OPENED, then +1 per change): deliveries of one alert leave in
   * this order, and a receiver can drop a notice it has seen (a redelivery) by (alertId, sequence).
   */
  readonly sequence: number;
  /** When the change happened (ISO 8601). */
  readonly at: string;
  /** The alert as `GET /api/v1/alerts/{id}` answers it (JSON), its blast radius included. */
  readonly alert: Readonly<Record<string, unknown>>;
  /** The OpenLineage event that triggered this change, as it was sent; absent for clock-raised changes. */
  readonly event?: Readonly<Record<string, unknown>>;
}

/**
 * Port: takes a notice for delivery. It returns once the notice is durably queued for each of the
 * org's destinations (not delivered): a crash after it returns loses nothing. Calling it twice with
 * the same (alertId, sequence) queues nothing new.
 */
export interface AlertNotifier {
  notify(notice: AlertNotice): Promise<void>;
}
