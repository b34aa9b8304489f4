/**
 * @module webhook-receiver
 * A real HTTP endpoint for the webhook suites: a node:http server on 127.0.0.1 that records every
 * request (headers and body) and answers as the test scripts it — a status, or no answer at all
 * (a hanging endpoint).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly at: number;
}

/** What the receiver does with a request: answer a status, or hang (never answer). */
export type Reply = number | 'hang';

/** A running receiver. */
export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** The replies to the next requests, in order; after them, `fallback`. */
  script(...replies: Reply[]): void;
  fallback: Reply;
  /** Decides a request's reply before the script (when it returns one). */
  decide: ((request: ReceivedRequest) => Reply | undefined) | undefined;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** Starts a receiver. */
export const startReceiver = async (fallback: Reply = 200): Promise<WebhookReceiver> => {
  const received: ReceivedRequest[] = [];
  const queue: Reply[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      for (const wake of waiters.splice(0)) wake();
      const reply = receiver.decide?.(request) ?? queue.shift() ?? receiver.fallback;
      if (reply === 'hang') return;
      res.writeHead(reply, { 'content-type': 'text/plain' }).end(reply < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    script: (...replies) => queue.push(...replies),
    fallback,
    decide: undefined,
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
};
