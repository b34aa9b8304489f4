/**
 * @module notifications/payloads
 * What a destination receives. A webhook gets the Standard Webhooks payload shape — `type`,
 * `timestamp`, `data` — whose data is the alert notice: the alert with its blast radius, and the
 * OpenLineage event that triggered the change. A Slack incoming webhook gets Slack's own body
 * (`text`, and `blocks` for the formatted message). A body larger than {@link MAX_BODY_BYTES} goes
 * without its triggering event (flagged `eventOmitted`), which a receiver can read from the API.
 */
import type { AlertNotice } from './ports.ts';
import type { DestinationKind } from './destinations.ts';

/** The largest body sent (and kept in the log): receivers and the queue's item limits both bound it. */
export const MAX_BODY_BYTES = 256 * 1024;

/** The `type` of a notice (`alert.opened` …) and of a test delivery. */
export const noticeType = (notice: Pick<AlertNotice, 'transition'>): string => `alert.${notice.transition.toLowerCase()}`;
export const TEST_TYPE = 'webhook.test';

const webhookBody = (notice: AlertNotice): string => {
  const { orgId: _org, ...data } = notice;
  const full = JSON.stringify({ type: noticeType(notice), timestamp: notice.at, data });
  if (Buffer.byteLength(full) <= MAX_BODY_BYTES || notice.event === undefined) return full;
  const { event: _event, ...withoutEvent } = data;
  return JSON.stringify({ type: noticeType(notice), timestamp: notice.at, data: { ...withoutEvent, eventOmitted: `the triggering event is larger than ${MAX_BODY_BYTES} bytes with the alert` } });
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** `3 jobs, 5 datasets` from a blast radius, whatever its exact shape (lists or counts per kind). */
const blastRadiusLine = (alert: Readonly<Record<string, unknown>>): string | undefined => {
  const radius = alert.blastRadius;
  if (typeof radius !== 'object' || radius === null) return undefined;
  const parts = Object.entries(radius as Record<string, unknown>).flatMap(([key, value]) => {
    if (Array.isArray(value)) return [`${value.length} ${key}`];
    if (typeof value === 'number' && Number.isFinite(value)) return [`${value} ${key}`];
    return [];
  });
  return parts.length > 0 ? parts.join(', ') : undefined;
};

/** Escapes Slack's control characters in mrkdwn text. */
const slackEscape = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const slackBody = (notice: AlertNotice): string => {
  const title = text(notice.alert.title) ?? text(notice.alert.summary) ?? `${notice.kind} alert ${notice.alertId}`;
  const headline = `${notice.transition === 'RESOLVED' ? ':white_check_mark:' : ':rotating_light:'} ${notice.kind} ${notice.transition.toLowerCase()}: ${title}`;
  const radius = blastRadiusLine(notice.alert);
  const fields = [
    `*Kind*\n${notice.kind}`,
    `*Change*\n${notice.transition} (#${notice.sequence})`,
    `*Alert*\n${notice.alertId}`,
    `*At*\n${notice.at}`,
  ].map((field) => ({ type: 'mrkdwn', text: slackEscape(field) }));
  return JSON.stringify({
    text: headline,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(headline)}*` } },
      { type: 'section', fields },
      ...(radius ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: slackEscape(`Downstream: ${radius}`) }] }] : []),
    ],
  });
};

/** The body a destination of this kind receives for a notice. */
export const noticeBody = (kind: DestinationKind, notice: AlertNotice): string => (kind === 'slack' ? slackBody(notice) : webhookBody(notice));

/** The body of a test delivery. */
export const testBody = (kind: DestinationKind, destinationId: string, at: string): string =>
  kind === 'slack'
    ? JSON.stringify({ text: ':wave: A test delivery from lakeline: this channel receives its alerts.', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: ':wave: A test delivery from *lakeline*: this channel receives its alerts.' } }] })
    : JSON.stringify({ type: TEST_TYPE, timestamp: at, data: { webhookId: destinationId, message: 'A test delivery from lakeline' } });
