/**
 * What destinations receive: the Standard Webhooks shape with the notice as `data` (the triggering
 * event dropped, and said so, when the body would pass 256 KB), Slack's `text` and `blocks` with
 * the blast radius counted, and a delivery id that is the same for the same notice and destination.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, noticeBody } from '#domain/notifications/payloads';
import { deliveryIdOf } from '#domain/notifications/notifier';
import type { AlertNotice } from '#domain/notifications/ports';

const notice = (event: Record<string, unknown>): AlertNotice => ({
  orgId: 'org-1',
  alertId: 'alert-1',
  kind: 'TEST_FAILED',
  transition: 'OPENED',
  sequence: 1,
  at: '2026-11-28T01:00:00.000Z',
  alert: { title: 'not_null on orders.id failed', blastRadius: { jobs: ['a', 'b'], datasets: ['c'], more: 4 } },
  event,
});

describe('noticeBody', () => {
  it('Should send the notice as data, without the org, under its type', () => {
    const body = JSON.parse(noticeBody('webhook', notice({ eventType: 'COMPLETE' }))) as Record<string, unknown>;
    expect(body).toEqual({ type: 'alert.opened', timestamp: '2026-11-28T01:00:00.000Z', data: { alertId: 'alert-1', kind: 'TEST_FAILED', transition: 'OPENED', sequence: 1, at: '2026-11-28T01:00:00.000Z', alert: notice({}).alert, event: { eventType: 'COMPLETE' } } });
  });

  it('Should drop a triggering event that would take the body past 256 KB, and say so', () => {
    const body = noticeBody('webhook', notice({ eventType: 'COMPLETE', facets: { big: 'x'.repeat(MAX_BODY_BYTES) } }));
    expect(Buffer.byteLength(body)).toBeLessThan(MAX_BODY_BYTES);
    const data = (JSON.parse(body) as { data: Record<string, unknown> }).data;
    expect(data.event).toBeUndefined();
    expect(data.eventOmitted).toMatch(/larger than 262144 bytes/);
  });

  it('Should give Slack a text and blocks, the blast radius counted', () => {
    const body = JSON.parse(noticeBody('slack', notice({}))) as { text: string; blocks: { type: string; elements?: { text: string }[] }[] };
    expect(body.text).toBe(':rotating_light: TEST_FAILED opened: not_null on orders.id failed');
    expect(body.blocks.find((b) => b.type === 'context')?.elements?.[0]?.text).toBe('Downstream: 2 jobs, 1 datasets, 4 more');
  });
});

describe('deliveryIdOf', () => {
  it('Should name a notice to a destination the same way every time, and differently per destination and sequence', () => {
    expect(deliveryIdOf('wh_1', 'alert-1', 1)).toBe(deliveryIdOf('wh_1', 'alert-1', 1));
    expect(deliveryIdOf('wh_1', 'alert-1', 1)).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(new Set([deliveryIdOf('wh_1', 'alert-1', 1), deliveryIdOf('wh_2', 'alert-1', 1), deliveryIdOf('wh_1', 'alert-1', 2)]).size).toBe(3);
  });
});
