/**
 * Alert destinations through the local gateway (issue 27, ADR 0054), delivering to real receivers
 * (node:http servers in this process): creation answers the Standard Webhooks secret once and no
 * read ever again; a test delivery arrives signed so the library's `Webhook.verify` accepts it;
 * a 500 is retried with backoff and the delivery log shows both attempts; Slack destinations get
 * Slack's body; private, link-local and metadata addresses are refused with a 400 naming why;
 * another org sees nothing; a read-only key reads but does not change; and an org whose endpoints
 * hang does not delay another org's deliveries.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKey } from '#domain/orgs/manage';
import { refusalOf } from '#domain/notifications/address-policy';
import { orgWithKey, storesAt } from '../helpers/stores.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

const stack = inject('stack');
let key: string;
let otherKey: string;
let readKey: string;
const receivers: WebhookReceiver[] = [];

type Body = Record<string, unknown>;

const call = async (token: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: Body; text: string }> => {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Body, text };
};

const receiver = async (fallback: 200 | 500 | 'hang' = 200): Promise<WebhookReceiver> => {
  const started = await startReceiver(fallback);
  receivers.push(started);
  return started;
};

const createWebhook = async (token: string, request: Body): Promise<Body> => {
  const answer = await call(token, 'POST', '/api/v1/webhooks', request);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};

/** Polls a webhook's delivery log until `done` holds for it. */
const deliveriesUntil = async (token: string, id: string, done: (deliveries: Body[]) => boolean, timeoutMs = 20_000): Promise<Body[]> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call(token, 'GET', `/api/v1/webhooks/${id}/deliveries`);
    expect(answer.status).toBe(200);
    const deliveries = answer.body.deliveries as Body[];
    if (done(deliveries) || Date.now() > deadline) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

beforeAll(async () => {
  const stores = storesAt(stack.dynamodbEndpoint);
  try {
    const mine = await orgWithKey(stores, { name: 'Webhooks test', plan: 'pro', paymentMethod: true });
    key = mine.token;
    readKey = (await createKey(stores.orgs, stores.keys, mine.org.orgId, 'read', new Date(), 'read')).token;
    otherKey = (await orgWithKey(stores, { name: 'Webhooks other org', plan: 'pro', paymentMethod: true })).token;
  } finally {
    stores.close();
  }
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe('webhook destinations', () => {
  it('Should answer the signing secret at creation only, and never in a read', async () => {
    const target = await receiver();
    const created = await createWebhook(key, { url: target.url, description: 'on-call', alertKinds: ['RUN_FAILED'] });
    expect(created).toMatchObject({ kind: 'webhook', url: target.url, description: 'on-call', alertKinds: ['RUN_FAILED'], secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/) });
    const secret = created.secret as string;
    const one = await call(key, 'GET', `/api/v1/webhooks/${String(created.id)}`);
    const list = await call(key, 'GET', '/api/v1/webhooks');
    const log = await call(key, 'GET', `/api/v1/webhooks/${String(created.id)}/deliveries`);
    expect(one.body).toEqual({ id: created.id, kind: 'webhook', url: target.url, description: 'on-call', alertKinds: ['RUN_FAILED'], createdAt: created.createdAt });
    for (const answer of [one, list, log]) expect(answer.text).not.toContain(secret.slice('whsec_'.length));
    expect((list.body.webhooks as Body[]).map((w) => w.id)).toContain(created.id);
  });

  it('Should deliver a test delivery signed so that Webhook.verify accepts it, and log it DELIVERED', async () => {
    const target = await receiver();
    const created = await createWebhook(key, { url: target.url });
    const queued = await call(key, 'POST', `/api/v1/webhooks/${String(created.id)}/test`);
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ webhookId: created.id, test: true, status: 'PENDING', attempts: 0 });
    const [request] = await target.waitFor(1);
    expect(request?.headers['webhook-id']).toBe(queued.body.id);
    const payload = new Webhook(created.secret as string).verify(request?.body ?? '', request?.headers ?? {});
    expect(payload).toMatchObject({ type: 'webhook.test', data: { webhookId: created.id } });
    // A wrong secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(request?.body ?? '', request?.headers ?? {})).toThrow();
    const [logged] = await deliveriesUntil(key, created.id as string, (d) => d[0]?.status === 'DELIVERED');
    expect(logged).toMatchObject({ id: queued.body.id, status: 'DELIVERED', attempts: 1, lastStatusCode: 200, deliveredAt: expect.any(String) });
  });

  it('Should retry an endpoint that answers 500, then 200, and log both attempts', async () => {
    const target = await receiver();
    target.script(500, 200);
    const created = await createWebhook(key, { url: target.url });
    const queued = await call(key, 'POST', `/api/v1/webhooks/${String(created.id)}/test`);
    const [first, second] = await target.waitFor(2);
    // The same message on both attempts (a receiver drops what it has seen by webhook-id), after a backoff.
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(450);
    const [logged] = await deliveriesUntil(key, created.id as string, (d) => d[0]?.status === 'DELIVERED');
    expect(logged).toMatchObject({ id: queued.body.id, status: 'DELIVERED', attempts: 2, lastStatusCode: 200, lastError: 'the endpoint answered 500' });
    expect(logged?.nextAttemptAt).toBeUndefined();
  });

  it('Should send Slack destinations a Slack message, and show their URL shortened after creation', async () => {
    const target = await receiver();
    const created = await createWebhook(key, { url: `${target.url}/T000/B000/secretpart`, kind: 'slack' });
    expect(created.url).toBe(`${target.url}/T000/B000/secretpart`);
    const shown = await call(key, 'GET', `/api/v1/webhooks/${String(created.id)}`);
    expect(shown.text).not.toContain('secretpart');
    await call(key, 'POST', `/api/v1/webhooks/${String(created.id)}/test`);
    const [request] = await target.waitFor(1);
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ text: expect.stringContaining('lakeline'), blocks: [expect.objectContaining({ type: 'section' })] });
  });

  it('Should delete a webhook, which then answers 404', async () => {
    const created = await createWebhook(key, { url: (await receiver()).url });
    const deleted = await call(key, 'DELETE', `/api/v1/webhooks/${String(created.id)}`);
    expect([deleted.status, deleted.body.id]).toEqual([200, created.id]);
    expect((await call(key, 'GET', `/api/v1/webhooks/${String(created.id)}`)).status).toBe(404);
    expect((await call(key, 'DELETE', `/api/v1/webhooks/${String(created.id)}`)).status).toBe(404);
  });
});

describe('destinations the service must not reach (SSRF)', () => {
  it.each([
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is link-local \(cloud metadata\)/],
    ['https://10.0.0.8/hook', /10\.0\.0\.8 is private/],
    ['https://192.168.1.1/hook', /192\.168\.1\.1 is private/],
    ['https://[::ffff:10.1.2.3]/hook', /is private/],
    ['https://[fd00:ec2::254]/hook', /unique local/],
    ['https://0.0.0.0/hook', /"this network"/],
    ['ftp://127.0.0.1/hook', /scheme must be https/],
    ['https://user:pw@127.0.0.1/hook', /credentials in the URL/],
  ])('Should refuse %s with a 400 naming the problem, storing nothing', async (url, reason) => {
    const answer = await call(key, 'POST', '/api/v1/webhooks', { url });
    expect(answer.status).toBe(400);
    expect(String(answer.body.error)).toMatch(reason);
    expect((await call(key, 'GET', '/api/v1/webhooks?limit=100')).text).not.toContain(url.replace(/\/hook$/, ''));
  });

  it('Should refuse a host name that resolves to a private address', async (context) => {
    const name = hostname();
    const addresses = (await lookup(name, { all: true }).catch(() => [])).map((a) => a.address);
    // This machine's own name resolves to its private interface address on most hosts; where it does not, no name is at hand.
    if (addresses.length === 0 || !addresses.some((a) => refusalOf(a, { allowLoopback: true }) !== undefined)) context.skip();
    const answer = await call(key, 'POST', '/api/v1/webhooks', { url: `https://${name}/hook` });
    expect(answer.status).toBe(400);
    expect(String(answer.body.error)).toContain(`${name} resolves to`);
  });

  it('Should refuse plain http to anything but loopback, and take loopback in the local profile', async () => {
    expect((await call(key, 'POST', '/api/v1/webhooks', { url: 'http://localhost:9/hook' })).status).toBe(200);
    expect((await call(key, 'POST', '/api/v1/webhooks', { url: 'https://[::1]:9/hook' })).status).toBe(200);
  });
});

describe('tenancy and key scope', () => {
  it("Should show another org nothing of an org's webhooks", async () => {
    const created = await createWebhook(key, { url: (await receiver()).url });
    const id = String(created.id);
    for (const [method, route] of [
      ['GET', `/api/v1/webhooks/${id}`],
      ['GET', `/api/v1/webhooks/${id}/deliveries`],
      ['POST', `/api/v1/webhooks/${id}/test`],
      ['DELETE', `/api/v1/webhooks/${id}`],
    ] as const) {
      expect((await call(otherKey, method, route)).status, `${method} ${route}`).toBe(404);
    }
    expect((await call(otherKey, 'GET', '/api/v1/webhooks')).body.webhooks).toEqual([]);
    expect((await call(key, 'GET', `/api/v1/webhooks/${id}`)).status).toBe(200);
  });

  it('Should let a read-only key read webhooks but not create, test or delete them', async () => {
    const created = await createWebhook(key, { url: (await receiver()).url });
    const id = String(created.id);
    expect((await call(readKey, 'GET', '/api/v1/webhooks')).status).toBe(200);
    expect((await call(readKey, 'GET', `/api/v1/webhooks/${id}`)).status).toBe(200);
    expect((await call(readKey, 'GET', `/api/v1/webhooks/${id}/deliveries`)).status).toBe(200);
    for (const [method, route, body] of [
      ['POST', '/api/v1/webhooks', { url: created.url }],
      ['POST', `/api/v1/webhooks/${id}/test`, undefined],
      ['DELETE', `/api/v1/webhooks/${id}`, undefined],
    ] as const) {
      const answer = await call(readKey, method, route, body);
      expect([answer.status, String(answer.body.error)], `${method} ${route}`).toEqual([403, expect.stringMatching(/read-only/)]);
    }
    expect((await call(key, 'GET', `/api/v1/webhooks/${id}/deliveries`)).body.deliveries).toEqual([]);
  });

  it('Should page the delivery log newest first', async () => {
    const created = await createWebhook(key, { url: (await receiver()).url });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(String((await call(key, 'POST', `/api/v1/webhooks/${String(created.id)}/test`)).body.id));
    const first = await call(key, 'GET', `/api/v1/webhooks/${String(created.id)}/deliveries?limit=2`);
    expect((first.body.deliveries as Body[]).map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const second = await call(key, 'GET', `/api/v1/webhooks/${String(created.id)}/deliveries?limit=2&after=${encodeURIComponent(String(first.body.next))}`);
    expect((second.body.deliveries as Body[]).map((d) => d.id)).toEqual([ids[0]]);
    expect((await call(key, 'GET', `/api/v1/webhooks/${String(created.id)}/deliveries?limit=0`)).status).toBe(400);
    // A cursor is only a position in the caller's own items: another org's use of it shows that org nothing new.
    expect((await call(otherKey, 'GET', `/api/v1/webhooks/${String(created.id)}/deliveries?after=${encodeURIComponent(String(first.body.next))}`)).status).toBe(404);
    expect((await call(otherKey, 'GET', `/api/v1/webhooks?after=${encodeURIComponent(String(first.body.next))}`)).body).toEqual({ webhooks: [] });
    expect((await call(key, 'GET', '/api/v1/webhooks?after=0')).status).toBe(400);
  });
});

describe('one org whose endpoints hang', () => {
  it("Should not delay another org's deliveries", async () => {
    const hanging = await receiver('hang');
    // More hanging destinations than an org's delivery slots, so every slot of the org is taken.
    for (let i = 0; i < 6; i++) {
      const created = await createWebhook(otherKey, { url: hanging.url });
      await call(otherKey, 'POST', `/api/v1/webhooks/${String(created.id)}/test`);
    }
    await hanging.waitFor(4);
    const target = await receiver();
    const created = await createWebhook(key, { url: target.url });
    const asked = Date.now();
    await call(key, 'POST', `/api/v1/webhooks/${String(created.id)}/test`);
    const [request] = await target.waitFor(1, 5_000);
    expect((request?.at ?? Infinity) - asked).toBeLessThan(2_000);
  });
});
