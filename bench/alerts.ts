/**
 * Alerts (issue 27): the time from a FAIL event's 200 to its webhook delivery, on a quiet stack and
 * with ingestion running at the ingest benchmark's batch rate.
 *
 *   npx tsx bench/alerts.ts [--seconds 60] [--rate 350] [--every-ms 1000]
 *
 * A local stack runs in this process (the same gateway, handlers, in-process feed, alerts
 * subscriber and delivery worker as `npm run local`); a webhook of the bench's org points at a
 * node:http receiver in this process (loopback: the local profile's one private destination).
 * Each phase sends, every `every-ms`, a Spark-shaped FAIL of a job of its own (so each opens an
 * alert of its own) and times from the FAIL's 200 to the receiver getting the notice that names the
 * job. Phase 1: nothing else. Phase 2: batches of 25 COMPLETE events of 2,000 repeated jobs at
 * `rate` events/s (open loop, at most 8 batches in flight) all along. Prints p50/p95/max per phase
 * and the target (p95 ≤ 2 s locally).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { seconds: { type: 'string' }, rate: { type: 'string' }, 'every-ms': { type: 'string' } } });
const SECONDS = Number(args.seconds ?? 60);
/** Events per second of background ingestion (the ingest benchmark's batch rate, 2026-11-27 evening: 353/s). */
const RATE = Number(args.rate ?? 350);
const EVERY_MS = Number(args['every-ms'] ?? 1_000);
const BATCH = 25;
const MAX_IN_FLIGHT = 8;
/** A FAIL whose notice has not arrived this long after the phase counts as lost (and is printed). */
const GIVE_UP_MS = 60_000;

process.env.LAKELINE_LOG_LEVEL ??= 'warn';
process.env.LAKELINE_DEMO_DATA = '0';
process.env.LAKELINE_DEMO_LINEAGE = '0';

const { machine, quantile, httpClient } = await import('./bench-util.ts');
const { startLocalStack } = await import('../local/stack.ts');

const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark';
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const event = (eventType: 'COMPLETE' | 'FAIL', job: string, at: Date): string =>
  JSON.stringify({
    eventType,
    eventTime: at.toISOString(),
    producer: PRODUCER,
    schemaURL: SCHEMA_URL,
    run: { runId: randomUUID(), ...(eventType === 'FAIL' ? { facets: { errorMessage: { _producer: PRODUCER, _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/ErrorMessageRunFacet.json', message: 'Job aborted due to stage failure', programmingLanguage: 'JVM' } } } : {}) },
    job: { namespace: 'spark-prod', name: job },
    inputs: [{ namespace: 's3a://lake', name: `/raw/${job.slice(-6)}` }],
    outputs: [{ namespace: 's3a://lake', name: `/enriched/${job}` }],
  });

// ---------------------------------------------------------------- the receiver
/** When each job's notice arrived (the first one naming it). */
const arrivals = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    const job = /alert_bench_[a-z0-9_]+/.exec(Buffer.concat(chunks).toString('utf8'))?.[0];
    if (job && !arrivals.has(job)) arrivals.set(job, at);
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// ---------------------------------------------------------------- the stack
const home = mkdtempSync(path.join(tmpdir(), 'lakeline-bench-alerts-'));
const stack = await startLocalStack({ home, port: 0 });
const client = httpClient(MAX_IN_FLIGHT + 4);
const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };
const created = await client.request(`${stack.baseUrl}/api/v1/webhooks`, 'POST', headers, JSON.stringify({ url: hookUrl, kind: 'webhook', alertKinds: ['RUN_FAILED'] }));
if (created.status !== 200) throw new Error(`creating the webhook: HTTP ${created.status} ${created.body}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let day = 0;

/** One phase: FAILs every EVERY_MS for SECONDS, with or without background ingestion. */
async function phase(label: string, background: boolean): Promise<void> {
  const sentAt = new Map<string, number>();
  const end = Date.now() + SECONDS * 1_000;
  let running = true;
  let ingested = 0;
  let failedBatches = 0;
  const started = Date.now();
  const ingest = (async () => {
    if (!background) return;
    let inFlight = 0;
    const interval = (BATCH / RATE) * 1_000;
    const pending: Promise<void>[] = [];
    for (let i = 0; running; i++) {
      const due = started + i * interval;
      if (due > Date.now()) await sleep(due - Date.now());
      while (inFlight >= MAX_IN_FLIGHT) await sleep(5);
      const at = new Date(Date.UTC(2030, 0, 1 + day) + i * 1_000);
      const body = `[${Array.from({ length: BATCH }, (_, k) => event('COMPLETE', `warehouse_job_${(i * BATCH + k) % 2_000}`, at)).join(',')}]`;
      inFlight++;
      pending.push(
        client
          .request(`${stack.baseUrl}/api/v1/lineage/batch`, 'POST', headers, body)
          .then((out) => {
            if (out.status === 200) ingested += BATCH;
            else failedBatches++;
          })
          .catch(() => void failedBatches++)
          .finally(() => inFlight--),
      );
    }
    await Promise.all(pending);
  })();
  for (let i = 0; Date.now() < end; i++) {
    const job = `alert_bench_${label.replace(/\W+/g, '_')}_${i}_${randomUUID().slice(0, 6)}`;
    const answer = await client.request(`${stack.baseUrl}/api/v1/lineage`, 'POST', headers, event('FAIL', job, new Date(Date.UTC(2030, 0, 1 + day, 12, 0, i))));
    if (answer.status !== 200) throw new Error(`FAIL event: HTTP ${answer.status} ${answer.body}`);
    sentAt.set(job, performance.now());
    await sleep(EVERY_MS);
  }
  running = false;
  await ingest;
  const ingestSeconds = (Date.now() - started) / 1_000;
  const giveUp = Date.now() + GIVE_UP_MS;
  while ([...sentAt.keys()].some((job) => !arrivals.has(job)) && Date.now() < giveUp) await sleep(100);
  const delays = [...sentAt].flatMap(([job, at]) => (arrivals.has(job) ? [(arrivals.get(job) as number) - at] : [])).sort((a, b) => a - b);
  const lost = sentAt.size - delays.length;
  const s = (ms: number) => (ms / 1_000).toFixed(2);
  console.log(`\n${label}: ${sentAt.size} FAIL events${background ? `, background ingestion ${(ingested / ingestSeconds).toFixed(0)} events/s acknowledged (offered ${RATE}/s)${failedBatches ? `, ${failedBatches} batches FAILED` : ''}` : ''}`);
  console.log(
    `  FAIL's 200 → its webhook delivery: p50 ${s(quantile(delays, 0.5))} s, p95 ${s(quantile(delays, 0.95))} s, max ${s(delays.at(-1) ?? NaN)} s (${delays.length} delivered${lost ? `, ${lost} NOT delivered within ${GIVE_UP_MS / 1_000} s` : ''}; target p95 ≤ 2 s: ${lost === 0 && quantile(delays, 0.95) <= 2_000 ? 'met' : 'NOT MET'})`,
  );
  console.log(`  ${machine()}`);
  day++;
}

console.log(`alerts: FAIL → webhook, ${SECONDS} s per phase, a FAIL every ${EVERY_MS} ms; ${machine()}`);
try {
  await phase('quiet stack', false);
  await phase(`with ingestion at ${RATE} events/s`, true);
} finally {
  await stack.stop();
  receiver.close();
  client.close();
  rmSync(home, { recursive: true, force: true });
}
