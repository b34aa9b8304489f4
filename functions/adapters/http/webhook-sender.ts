/**
 * @module webhook-sender
 * DeliverySender over Node's own HTTP client, guarded against SSRF (ADR 0054): the host is resolved
 * here, every address it resolves to is checked against the address policy, and the connection
 * goes to an address so checked (the client's `lookup` is this resolution, so no second lookup can
 * answer differently: DNS rebinding finds nothing to rebind). A literal IP is checked as it is.
 * Redirects are not followed (a 3xx is an answer like any other, and fails the attempt).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { hostOf, refusalOf, type AddressPolicy, type HostResolver } from '#domain/notifications/address-policy';
import type { DeliverySender, OutgoingRequest, SendResult } from '#domain/notifications/deliveries';

/** The system resolver (hosts file, then DNS), every address of both families. */
export const systemResolver: HostResolver = {
  resolve: async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address),
};

/** A failure that is a refusal by the policy, not a network error. */
class RefusedAddressError extends Error {}

/** Bytes of an answer read (and dropped) before the connection is let go. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Sends deliveries to the addresses the policy allows. */
export class GuardedWebhookSender implements DeliverySender {
  constructor(
    private readonly policy: AddressPolicy,
    private readonly resolver: HostResolver = systemResolver,
  ) {}

  async send(request: OutgoingRequest): Promise<SendResult> {
    const url = new URL(request.url);
    const host = hostOf(url);
    if (isIP(host) !== 0) {
      const refusal = refusalOf(host, this.policy);
      if (refusal) return { kind: 'refused', error: `refused: ${refusal}` };
    }
    try {
      const status = await this.post(url, request);
      return { kind: 'answered', status };
    } catch (err) {
      if (err instanceof RefusedAddressError) return { kind: 'refused', error: `refused: ${err.message}` };
      const code = (err as { code?: string }).code;
      return { kind: 'failed', error: code ? `${code}: ${(err as Error).message}` : (err as Error).message };
    }
  }

  /** The lookup the client connects through: resolve, refuse if any address is refused, answer the checked ones. */
  private readonly checkedLookup: LookupFunction = (hostname, options, callback) => {
    this.resolver.resolve(hostname).then(
      (addresses) => {
        const refused = addresses.map((address) => refusalOf(address, this.policy)).find((r) => r !== undefined);
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 4);
        if (refused) return callback(new RefusedAddressError(`${hostname} resolves to ${refused}`), '', 4);
        const entries = addresses.map((address) => ({ address, family: isIP(address) }));
        if ((options as { all?: boolean }).all) return (callback as unknown as (err: null, all: typeof entries) => void)(null, entries);
        const first = entries[0] as { address: string; family: number };
        return callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 4),
    );
  };

  private post(url: URL, request: OutgoingRequest): Promise<number> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<number>((resolve, reject) => {
      const req = client.request(url, {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)), 'user-agent': 'lakeline-webhooks/1' },
        lookup: this.checkedLookup,
        agent: false,
      });
      const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer within ${request.timeoutMs} ms`), { code: 'ETIMEDOUT' })), request.timeoutMs);
      req.on('response', (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () => {
          clearTimeout(timer);
          resolve(res.statusCode ?? 0);
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(request.body);
    });
  }
}
