/**
 * Crash safety of the local delivery queue (ADR 0054): a stack killed (SIGKILL) while a delivery is
 * in flight — the receiver has the request and has not answered — delivers it again after the
 * next start on the same home, with the same webhook-id and a signature that still verifies, and
 * the delivery log ends DELIVERED. Nothing acknowledged is lost.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { crashableStacks, tempHome } from '../helpers/local-stack-process.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const home = tempHome('webhooks-kill');
const { start, crash, stopAll } = crashableStacks(home, { LAKELINE_DEMO_DATA: '0' });

afterAll(stopAll);

const call = async (baseUrl: string, token: string, method: string, route: string, body?: unknown): Promise<Record<string, unknown>> => {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

describe('killing the local stack during a delivery', () => {
  it('Should deliver it again after the next start, with the same id, and log it DELIVERED', async () => {
    const receiver = await startReceiver();
    try {
      // The first attempt is in flight for as long as the stack lives.
      receiver.script('hang');
      const first = await start();
      const created = await call(first.baseUrl, first.apiKey, 'POST', '/api/v1/webhooks', { url: receiver.url });
      const queued = await call(first.baseUrl, first.apiKey, 'POST', `/api/v1/webhooks/${String(created.id)}/test`);
      const [inFlight] = await receiver.waitFor(1);
      expect(inFlight?.headers['webhook-id']).toBe(queued.id);
      await crash(first);

      const second = await start();
      const [, again] = await receiver.waitFor(2, 30_000);
      expect(again?.headers['webhook-id']).toBe(queued.id);
      expect(new Webhook(created.secret as string).verify(again?.body ?? '', again?.headers ?? {})).toMatchObject({ type: 'webhook.test' });
      const deadline = Date.now() + 10_000;
      let log: Record<string, unknown>[] = [];
      do {
        log = (await call(second.baseUrl, second.apiKey, 'GET', `/api/v1/webhooks/${String(created.id)}/deliveries`)).deliveries as Record<string, unknown>[];
      } while (log[0]?.status !== 'DELIVERED' && Date.now() < deadline && (await new Promise((resolve) => setTimeout(resolve, 100)), true));
      expect(log).toEqual([expect.objectContaining({ id: queued.id, status: 'DELIVERED', attempts: 1 })]);
    } finally {
      await receiver.close();
    }
  }, 240_000);
});
