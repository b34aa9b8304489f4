/**
 * The SSRF-guarded sender against a real receiver: it connects only to an address it resolved and
 * checked (a name resolving to loopback is refused where loopback is not allowed, whatever a second
 * lookup might answer), a literal metadata address is refused without a connection, and an
 * endpoint that does not answer in time fails the attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedWebhookSender } from '#adapters/http/webhook-sender';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

let receiver: WebhookReceiver;
const request = (url: string, timeoutMs = 5_000) => ({ url, headers: { 'content-type': 'application/json' }, body: '{"x":1}', timeoutMs });

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('GuardedWebhookSender', () => {
  it('Should connect to the address it checked, keeping the host name', async () => {
    let lookups = 0;
    const sender = new GuardedWebhookSender({ allowLoopback: true }, { resolve: async () => (lookups++, ['127.0.0.1']) });
    const url = receiver.url.replace('127.0.0.1', 'receiver.example');
    expect(await sender.send(request(url))).toEqual({ kind: 'answered', status: 200 });
    expect(receiver.received.at(-1)?.headers.host).toMatch(/^receiver\.example:\d+$/);
    expect(lookups).toBe(1);
  });

  it('Should refuse a name resolving to a refused address, sending nothing', async () => {
    const before = receiver.received.length;
    const sender = new GuardedWebhookSender({ allowLoopback: false }, { resolve: async () => ['127.0.0.1'] });
    const result = await sender.send(request(receiver.url.replace('127.0.0.1', 'rebound.example')));
    expect(result).toEqual({ kind: 'refused', error: expect.stringMatching(/rebound\.example resolves to 127\.0\.0\.1 is loopback/) });
    expect(receiver.received).toHaveLength(before);
  });

  it('Should refuse a literal metadata address', async () => {
    const sender = new GuardedWebhookSender({ allowLoopback: true }, { resolve: async () => [] });
    expect(await sender.send(request('http://169.254.169.254/latest/meta-data/'))).toEqual({ kind: 'refused', error: 'refused: 169.254.169.254 is link-local (cloud metadata)' });
  });

  it('Should fail an attempt the endpoint does not answer in time', async () => {
    const hanging = await startReceiver('hang');
    try {
      const result = await new GuardedWebhookSender({ allowLoopback: true }).send(request(hanging.url, 300));
      expect(result).toEqual({ kind: 'failed', error: expect.stringMatching(/ETIMEDOUT: no answer within 300 ms/) });
    } finally {
      await hanging.close();
    }
  });
});
