/**
 * What lakeline costs on AWS (`npx tsx bench/cost.ts`): per million events ingested (single events
 * and batches of 25, mean about 10 KB, the lineage model and the feed included) and per thousand
 * graph, listing and search requests, priced with the list prices of {@link PRICES}, beside the
 * physical minimum of ingestion (one API request and one write of each compressed event).
 *
 * Nothing is computed by hand that the code can count: the local stack runs in this process with
 * its DynamoDB behind a metering proxy (bench/store-meter.ts: every request, and the capacity
 * units the store reports with `ReturnConsumedCapacity: TOTAL`, plus the index writes DynamoDB
 * charges and dynalite does not report), and the requests go through a gateway of the stack's own
 * code whose handler loader times every handler and authorizer invocation (Lambda bills them at the
 * memory sizes `lib/` configures: the route table's `memoryMb`, 512 MB by default, the authorizer
 * 512 MB, the model's consumer 1,024 MB, the fan-out 256 MB). The parts only AWS has are run with
 * their real code too: the fan-out (`fanOut`, adapters/aws/feed-fanout.ts) over stream records of
 * the stored events in the stream's batches of 100, with the feed's head on the metered store and
 * an SQS client that counts the requests it is sent (64 KB chunks, as SQS bills them).
 *
 * The model is applied after each ingest phase, by the feed catching up from its watermark (the
 * events read back from the store, as the AWS subscriber reads the bodies of the keys it is sent),
 * and timed: that wall time is the subscriber Lambda's duration, counted as one invocation per
 * 100 events (one message per org and stream batch; Lambda may hand it up to 10 messages at once,
 * so this is the most invocations, not the least). Requests are sent one at a time,
 * as one Lambda container serves them, so a handler's duration is its own.
 *
 * Options (env): BENCH_EVENTS (events per ingest phase, default 2000), BENCH_READS (graph, listing
 * and search requests each, default 200).
 */
import { rmSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { fanOut } from '#adapters/aws/feed-fanout';
import { createDocumentClient, localDynamoClient, MARSHALL_OPTIONS } from '#adapters/dynamodb/clients';
import { encodeEvent } from '#adapters/dynamodb/event-item';
import { DynamoFeedWatermarks, feedMarkKeys } from '#adapters/dynamodb/lineage-feed-watermarks';
import { localTableName } from '#composition/config';
import { DYNAMODB_ENDPOINT_ENV } from '#composition/env-names';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { LINEAGE_TABLE } from '#shared/table-definitions';
import { ROUTES } from '#shared/routes';
import { tempHome } from '../test/helpers/local-stack-process.ts';
import { httpClient, machine } from './bench-util.ts';
import { runEvents, seededRandom, sizeMix } from './lineage-data.ts';
import { meterDelta, startStoreMeter, type MeterCounts } from './store-meter.ts';

// The stack in this process: quiet, and without the demo data (its lake load is not ingestion).
process.env.LAKELINE_LOG_LEVEL = 'warn';
process.env.LAKELINE_DEMO_DATA = '0';
process.env.LAKELINE_DEMO_LINEAGE = '0';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const READS = Number(process.env.BENCH_READS ?? 200);
const BATCH_SIZE = 25;
/** The stream's records per fan-out invocation (lib/event-feed.ts `batchSize`). */
const STREAM_BATCH = 100;

/**
 * AWS list prices, us-east-1, on-demand, as of 2026-11-28 (USD). Checked on 2026-11-28 against
 * public summaries of the AWS pricing pages (third-party pages quoting them, and AWS's own
 * DynamoDB developer guide for Streams); the AWS pricing pages themselves could not be opened from
 * this machine. Re-check them before relying on a figure: https://aws.amazon.com/<service>/pricing/.
 */
export const PRICES = {
  /** DynamoDB on-demand, per write request unit (1 KB; an index write is one per 1 KB of its entry): $0.625 per million (checked: the November 2024 reduction). */
  dynamoWriteUnit: 0.625 / 1e6,
  /** DynamoDB on-demand, per read request unit (4 KB strongly consistent, twice that eventually consistent): $0.125 per million (checked). */
  dynamoReadUnit: 0.125 / 1e6,
  /** DynamoDB Streams read by a Lambda trigger: free (checked: the developer guide's "Evaluate your Streams usage"). */
  streamRead: 0,
  /** Lambda on Arm (lib/service-function.ts: ARM_64), per GB-second, first 7.5 billion a month: $0.0000133334 (checked). */
  lambdaGbSecond: 0.0000133334,
  /** Lambda, per invocation: $0.20 per million (checked). */
  lambdaRequest: 0.2 / 1e6,
  /** API Gateway HTTP API, per request (first 300 million a month; metered per 512 KB): $1.00 per million (checked). */
  httpApiRequest: 1.0 / 1e6,
  /** SQS FIFO, per request (each 64 KB chunk of a payload is a request; receives and deletes too): $0.50 per million (checked). */
  sqsFifoRequest: 0.5 / 1e6,
  /** S3 Standard PUT $0.005 and GET $0.0004 per thousand (not checked; no S3 request in these phases: events move to S3 above 350 KB only). */
  s3Put: 0.005 / 1e3,
  s3Get: 0.0004 / 1e3,
} as const;

/** Lambda memory (MB) of the functions outside the route table (lib/api.ts, lib/lineage-graph.ts, lib/event-feed.ts). */
const AUTHORIZER_MB = 512;
const CONSUMER_MB = 1_024;
const FANOUT_MB = 256;
const DEFAULT_ROUTE_MB = 512;

const memoryOfHandler = (module: string): number => {
  if (module === 'authorizer') return AUTHORIZER_MB;
  return ROUTES.find((r) => r.handler === module)?.memoryMb ?? DEFAULT_ROUTE_MB;
};

/** About 10 KB on average: the lineage benchmarks' size mix (1–50 KB, mean 11.5 KB) scaled by 0.87. */
const sizeOf = (random: () => number): number => Math.round(sizeMix(random) * 0.87);

/** `count` events of new runs (each phase its own seed, so none is a resend). */
const eventTexts = (count: number, seed: number): string[] => {
  const out: string[] = [];
  for (const { text } of runEvents(seededRandom(seed), count, Date.UTC(2024, 0, 1), 30 * 86_400_000, sizeOf)) {
    out.push(text);
    if (out.length === count) break;
  }
  return out;
};

/** Everything one phase cost, as counted. */
interface PhaseCount {
  readonly label: string;
  /** What the phase's figures are per (events ingested, or requests served). */
  readonly units: number;
  readonly apiRequests: number;
  /** Lambda invocations and billed GB-seconds (durations rounded up to 1 ms). */
  readonly lambda: { invocations: number; gbSeconds: number; byFunction: Record<string, { invocations: number; meanMs: number; mb: number }> };
  readonly store: MeterCounts;
  readonly sqsRequests: number;
  readonly s3: { puts: number; gets: number };
  /** Bytes of the compressed events written (ingest phases): the physical minimum's write units. */
  readonly minimumWriteUnits?: number;
}

console.log(`AWS bill benchmark — ${machine()}`);
const home = tempHome('bench-cost');
const { startLocalStack } = await import('../local/stack.ts');
const { createGatewayListener, createGatewayServer, moduleHandlerLoader } = await import('../local/gateway.ts');
const stack = await startLocalStack({ home, port: 0 });
const composition = await import('#composition/index');

/**
 * Which part of the service made a store request: the event store's writes and its duplicate
 * check, the feed reading events back, the model (Lineage table), or a read path.
 */
const classify = (operation: string, request: Record<string, unknown>): string | undefined => {
  if (request.IndexName !== undefined) return `index ${String(request.IndexName)}`;
  if (operation === 'BatchGetItem') {
    const spec = Object.values((request.RequestItems ?? {}) as Record<string, { ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }>)[0];
    const names = Object.values(spec?.ExpressionAttributeNames ?? {});
    return names.length === 1 && names[0] === 'pk' ? 'duplicate check' : undefined;
  }
  return undefined;
};
await composition.feed().inProcess?.stop();
// The local feed's receipt index and its attributes are the local profile's alone (ADR 0031): in
// AWS the stream is the feed, so they are not counted.
const meter = await startStoreMeter(stack.dynamodbEndpoint, classify, { indexes: ['byReceipt'], attributes: ['feedKey', 'receivedKey'] });
process.env[DYNAMODB_ENDPOINT_ENV] = meter.endpoint;
composition.reconfigure();

// A gateway of the stack's own code, whose handler loader times every invocation.
const durations: Record<string, number[]> = {};
const loadHandler = moduleHandlerLoader();
const timedLoader: typeof loadHandler = async (module) => {
  const handler = await loadHandler(module);
  return (async (event: unknown, context: unknown) => {
    const t0 = performance.now();
    try {
      return await (handler as (e: unknown, c: unknown) => Promise<unknown>)(event, context);
    } finally {
      (durations[module] ??= []).push(performance.now() - t0);
    }
  }) as unknown as Awaited<ReturnType<typeof loadHandler>>;
};
const server: http.Server = createGatewayServer();
server.on('request', createGatewayListener(timedLoader));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = httpClient(2);
const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };
const doc = createDocumentClient(localDynamoClient(meter.endpoint));
const lineageTable = localTableName(LINEAGE_TABLE);

/**
 * An SQS client for the fan-out that accepts every message and counts the requests SQS would bill
 * (64 KB chunks). Lambda's poller then receives and deletes each message: at least two more
 * requests per message (one receive and one delete per batch of up to 10; counted as two per
 * message, the most they can be while the queue is busy). An idle queue's long polls are a fixed
 * monthly cost, not a cost per event (docs/benchmarks.md).
 */
let sqsRequests = 0;
const POLLER_REQUESTS_PER_MESSAGE = 2;
const countingSqs = {
  send: async (command: { input: { Entries?: { Id?: string; MessageBody?: string }[] } }) => {
    const bytes = (command.input.Entries ?? []).reduce((s, e) => s + Buffer.byteLength(e.MessageBody ?? ''), 0);
    sqsRequests += Math.max(1, Math.ceil(bytes / 65_536)) + POLLER_REQUESTS_PER_MESSAGE * (command.input.Entries ?? []).length;
    return { Successful: (command.input.Entries ?? []).map((e) => ({ Id: e.Id })), Failed: [] };
  },
} as unknown as SQSClient;

const lambdaOf = (before: Record<string, number>): PhaseCount['lambda'] => {
  const byFunction: PhaseCount['lambda']['byFunction'] = {};
  let invocations = 0;
  let gbSeconds = 0;
  for (const [module, all] of Object.entries(durations)) {
    const fresh = all.slice(before[module] ?? 0);
    if (fresh.length === 0) continue;
    const mb = memoryOfHandler(module);
    invocations += fresh.length;
    gbSeconds += fresh.reduce((s, ms) => s + Math.ceil(ms) / 1_000, 0) * (mb / 1_024);
    byFunction[module] = { invocations: fresh.length, meanMs: fresh.reduce((s, ms) => s + ms, 0) / fresh.length, mb };
  }
  return { invocations, gbSeconds, byFunction };
};
const durationMarks = () => Object.fromEntries(Object.entries(durations).map(([k, v]) => [k, v.length]));

/**
 * The AWS-only part of the feed for stored events: the fan-out over their stream records (in the
 * stream's batches), counted in SQS requests and store requests; its Lambda time is measured here.
 */
const fanOutCost = async (orgId: string, records: readonly EventRecord[]): Promise<{ invocations: number; ms: number[] }> => {
  const head = new DynamoFeedWatermarks(doc, lineageTable, feedMarkKeys.head);
  const ms: number[] = [];
  let sequence = 0;
  for (let i = 0; i < records.length; i += STREAM_BATCH) {
    const streamRecords = records.slice(i, i + STREAM_BATCH).map((record): DynamoDBRecord => {
      const { item } = encodeEvent(orgId, record);
      return { eventName: 'INSERT', dynamodb: { SequenceNumber: String(++sequence).padStart(21, '0'), NewImage: marshall(item, MARSHALL_OPTIONS) as never } };
    });
    const t0 = performance.now();
    const outcomes = await fanOut({ sqs: countingSqs, queues: { 'lineage-model': 'https://sqs.local/lineage-model.fifo' }, head }, streamRecords);
    ms.push(performance.now() - t0);
    const failed = outcomes.find((o) => o.error !== undefined);
    if (failed) throw new Error(`fan-out failed: ${String(failed.error)}`);
  }
  return { invocations: ms.length, ms };
};

/**
 * Ingests `texts` (single requests, or batches of 25), then lets the model catch up, timed;
 * everything the phase cost, counted.
 */
const ingestPhase = async (label: string, texts: string[], batched: boolean): Promise<PhaseCount> => {
  // The feed is stopped while events are sent: the model applies them all afterwards, from its
  // watermark, so its store requests and its time are its own.
  await composition.feed().inProcess?.stop();
  const storeBefore = meter.snapshot();
  const marks = durationMarks();
  const sqsBefore = sqsRequests;
  let apiRequests = 0;
  if (batched) {
    for (let i = 0; i < texts.length; i += BATCH_SIZE) {
      const out = await client.request(`${baseUrl}/api/v1/lineage/batch`, 'POST', headers, `[${texts.slice(i, i + BATCH_SIZE).join(',')}]`);
      if (out.status !== 200 || (JSON.parse(out.body) as { summary: { successful: number } }).summary.successful !== Math.min(BATCH_SIZE, texts.length - i)) throw new Error(`batch: HTTP ${out.status} ${out.body.slice(0, 200)}`);
      apiRequests += 1;
    }
  } else {
    for (const text of texts) {
      const out = await client.request(`${baseUrl}/api/v1/lineage`, 'POST', headers, text);
      if (out.status !== 200) throw new Error(`single: HTTP ${out.status} ${out.body.slice(0, 200)}`);
      apiRequests += 1;
    }
  }
  const lambda = lambdaOf(marks);

  // The model catches up from its watermark (the events read back from the store), timed.
  composition.reconfigure();
  const t0 = performance.now();
  const feed = composition.feed().inProcess;
  await feed?.start();
  await feed?.whenIdle();
  const applyMs = performance.now() - t0;
  lambda.byFunction['lineage-model-consumer (feed catch-up)'] = { invocations: Math.ceil(texts.length / STREAM_BATCH), meanMs: applyMs / Math.ceil(texts.length / STREAM_BATCH), mb: CONSUMER_MB };
  lambda.invocations += Math.ceil(texts.length / STREAM_BATCH);
  lambda.gbSeconds += (Math.ceil(applyMs) / 1_000) * (CONSUMER_MB / 1_024);

  // The fan-out, AWS only: the same events' stream records.
  const records = texts.map((text): EventRecord => {
    const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date());
    if (!prepared.ok) throw new Error(prepared.error);
    return { event: prepared.event, rawText: text };
  });
  const fan = await fanOutCost(stack.orgId, records);
  lambda.byFunction['event-feed-fanout'] = { invocations: fan.invocations, meanMs: fan.ms.reduce((s, x) => s + x, 0) / fan.invocations, mb: FANOUT_MB };
  lambda.invocations += fan.invocations;
  lambda.gbSeconds += fan.ms.reduce((s, x) => s + Math.ceil(x) / 1_000, 0) * (FANOUT_MB / 1_024);

  // The physical minimum: each event's body compressed (as the service compresses it), one write.
  const minimumWriteUnits = texts.reduce((s, text) => s + Math.max(1, Math.ceil(gzipSync(text, { level: 1 }).length / 1_024)), 0);
  return { label, units: texts.length, apiRequests, lambda, store: meterDelta(meter.snapshot(), storeBefore), sqsRequests: sqsRequests - sqsBefore, s3: { puts: 0, gets: 0 }, minimumWriteUnits };
};

/** `count` read requests made by `route(i)`; everything they cost, counted. */
const readPhase = async (label: string, count: number, route: (i: number) => string): Promise<PhaseCount> => {
  const storeBefore = meter.snapshot();
  const marks = durationMarks();
  for (let i = 0; i < count; i++) {
    const out = await client.request(`${baseUrl}${route(i)}`, 'GET', headers);
    if (out.status !== 200) throw new Error(`${label}: HTTP ${out.status} ${out.body.slice(0, 200)}`);
  }
  return { label, units: count, apiRequests: count, lambda: lambdaOf(marks), store: meterDelta(meter.snapshot(), storeBefore), sqsRequests: 0, s3: { puts: 0, gets: 0 } };
};

const sum = (counts: MeterCounts, pick: (line: MeterCounts[string]) => number): number => Object.values(counts).reduce((s, l) => s + pick(l), 0);

/**
 * Whether a store line is the feed's and the model's (the Lineage table; the Events table read
 * back by the feed: its receipt index and the bodies), not the ingest request's own.
 */
const isFeedOrModel = (key: string): boolean => key.startsWith('Lineage ') || key === 'Events BatchGetItem' || key === 'Events Query index byReceipt';
const FEED_FUNCTIONS = new Set(['lineage-model-consumer (feed catch-up)', 'event-feed-fanout']);

/** A phase split into the ingest request's own part and the feed's and model's part. */
const split = (p: PhaseCount): { ingest: PhaseCount; feed: PhaseCount } => {
  const part = (feed: boolean): PhaseCount => {
    const byFunction = Object.fromEntries(Object.entries(p.lambda.byFunction).filter(([name]) => FEED_FUNCTIONS.has(name) === feed));
    return {
      ...p,
      apiRequests: feed ? 0 : p.apiRequests,
      lambda: {
        byFunction,
        invocations: Object.values(byFunction).reduce((s, f) => s + f.invocations, 0),
        // Billed per invocation, rounded up to 1 ms (approximated from the means here; the whole phase's figure rounds each).
        gbSeconds: Object.values(byFunction).reduce((s, f) => s + ((f.invocations * Math.ceil(f.meanMs)) / 1_000) * (f.mb / 1_024), 0),
      },
      store: Object.fromEntries(Object.entries(p.store).filter(([key]) => isFeedOrModel(key) === feed)),
      sqsRequests: feed ? p.sqsRequests : 0,
    };
  };
  return { ingest: part(false), feed: part(true) };
};

/** Dollars of a phase, by item. */
const dollars = (p: PhaseCount) => ({
  api: p.apiRequests * PRICES.httpApiRequest,
  lambdaRequests: p.lambda.invocations * PRICES.lambdaRequest,
  lambdaCompute: p.lambda.gbSeconds * PRICES.lambdaGbSecond,
  dynamoWrites: sum(p.store, (l) => l.writeUnits + l.indexWriteUnits) * PRICES.dynamoWriteUnit,
  dynamoReads: sum(p.store, (l) => l.readUnits) * PRICES.dynamoReadUnit,
  sqs: p.sqsRequests * PRICES.sqsFifoRequest,
  s3: p.s3.puts * PRICES.s3Put + p.s3.gets * PRICES.s3Get,
});
const total = (d: ReturnType<typeof dollars>): number => Object.values(d).reduce((s, x) => s + x, 0);

const money = (x: number): string => (x >= 1 ? `$${x.toFixed(2)}` : x >= 0.01 ? `$${x.toFixed(3)}` : `$${x.toFixed(4)}`);
const printPhase = (p: PhaseCount, per: number, perLabel: string) => {
  const scale = per / p.units;
  const d = dollars(p);
  console.log(`\n${p.label}: ${p.units} ${p.minimumWriteUnits === undefined ? 'requests' : 'events'}, per ${perLabel}:`);
  console.log(`  API Gateway requests        ${(p.apiRequests * scale).toFixed(0).padStart(12)}   ${money(d.api * scale)}`);
  console.log(`  Lambda invocations          ${(p.lambda.invocations * scale).toFixed(0).padStart(12)}   ${money(d.lambdaRequests * scale)}`);
  console.log(`  Lambda GB-seconds           ${(p.lambda.gbSeconds * scale).toFixed(0).padStart(12)}   ${money(d.lambdaCompute * scale)}`);
  for (const [name, f] of Object.entries(p.lambda.byFunction)) console.log(`    ${name.padEnd(40)} ${(f.invocations * scale).toFixed(0).padStart(10)} × ${f.meanMs.toFixed(1).padStart(7)} ms at ${f.mb} MB`);
  const writes = sum(p.store, (l) => l.writeUnits);
  const indexWrites = sum(p.store, (l) => l.indexWriteUnits);
  console.log(`  DynamoDB write units        ${(writes * scale).toFixed(0).padStart(12)} + index writes ${(indexWrites * scale).toFixed(0)}   ${money(d.dynamoWrites * scale)}`);
  console.log(`  DynamoDB read units         ${(sum(p.store, (l) => l.readUnits) * scale).toFixed(0).padStart(12)}   ${money(d.dynamoReads * scale)}`);
  console.log(`  SQS FIFO requests           ${(p.sqsRequests * scale).toFixed(0).padStart(12)}   ${money(d.sqs * scale)}`);
  console.log(`  S3 requests                 ${((p.s3.puts + p.s3.gets) * scale).toFixed(0).padStart(12)}   ${money(d.s3 * scale)}`);
  console.log(`  total                       ${''.padStart(12)}   ${money(total(d) * scale)}`);
  console.log(`  store requests by table, operation and part (per ${perLabel === 'million events' ? 'event' : 'request'}: requests, read units, write units + index writes):`);
  for (const [key, l] of Object.entries(p.store).sort((a, b) => b[1].writeUnits + b[1].indexWriteUnits + b[1].readUnits - (a[1].writeUnits + a[1].indexWriteUnits + a[1].readUnits))) {
    console.log(`    ${key.padEnd(44)} ${(l.requests / p.units).toFixed(3).padStart(8)} ${(l.readUnits / p.units).toFixed(2).padStart(7)} ${(l.writeUnits / p.units).toFixed(2).padStart(7)} + ${(l.indexWriteUnits / p.units).toFixed(2)}`);
  }
  if (p.minimumWriteUnits !== undefined) {
    const { ingest, feed } = split(p);
    console.log(`  of which the ingest requests themselves ${money(total(dollars(ingest)) * scale)}, the feed and the lineage model ${money(total(dollars(feed)) * scale)}`);
    const minimum = p.units * PRICES.httpApiRequest + p.minimumWriteUnits * PRICES.dynamoWriteUnit;
    const minimumBatched = (p.units / BATCH_SIZE) * PRICES.httpApiRequest + p.minimumWriteUnits * PRICES.dynamoWriteUnit;
    const floor = p.apiRequests === p.units ? minimum : minimumBatched;
    console.log(`  physical minimum (one API request per ${p.apiRequests === p.units ? 'event' : 'batch'}, one write of each compressed event: ${(p.minimumWriteUnits / p.units).toFixed(2)} write units): ${money(floor * scale)}`);
    console.log(`  ratio to the minimum: ${(total(d) / floor).toFixed(2)}× with the feed and the model, ${(total(dollars(ingest)) / floor).toFixed(2)}× the ingest requests alone (target ≤ 1.5×: ${total(d) / floor <= 1.5 ? 'met' : 'NOT met'})`);
  }
};

try {
  // Warm-up: handlers loaded, the authorizer's key cache, JIT; not counted.
  for (const text of eventTexts(50, 1)) await client.request(`${baseUrl}/api/v1/lineage`, 'POST', headers, text);
  const meanKb = (texts: string[]) => texts.reduce((s, t) => s + Buffer.byteLength(t), 0) / texts.length / 1_024;
  const single = eventTexts(EVENTS, 11);
  const batch = eventTexts(EVENTS, 12);
  console.log(`events: mean ${meanKb(single).toFixed(1)} KB (single), ${meanKb(batch).toFixed(1)} KB (batch); ${EVENTS} per phase; ${READS} read requests per kind; requests one at a time`);

  const phases: PhaseCount[] = [];
  phases.push(await ingestPhase('POST /api/v1/lineage (one event each)', single, false));
  console.log(`single phase done — ${machine()}`);
  phases.push(await ingestPhase('POST /api/v1/lineage/batch (25 events each)', batch, true));
  console.log(`batch phase done — ${machine()}`);

  // Read paths over what was ingested: graphs around the jobs' output datasets, event listings, searches.
  const jobs = [...new Set(single.map((t) => (JSON.parse(t) as { job: { name: string } }).job.name))];
  const namespaceOf = new Map(single.map((t) => {
    const e = JSON.parse(t) as { job: { namespace: string; name: string } };
    return [e.job.name, e.job.namespace];
  }));
  const pick = (i: number) => jobs[i % jobs.length] as string;
  phases.push(await readPhase('GET /api/v1/lineage (graph, depth 5)', READS, (i) => `/api/v1/lineage?${new URLSearchParams({ nodeId: `job:${namespaceOf.get(pick(i))}:${pick(i)}`, depth: '5' })}`));
  phases.push(await readPhase('GET /api/v1/events (listing of 100; half by job)', READS, (i) => `/api/v1/events?${new URLSearchParams({ start: String(Date.UTC(2023, 11, 1) / 1_000), end: String(Date.UTC(2024, 2, 1) / 1_000), limit: '100', ...(i % 2 === 0 ? {} : { job: pick(i) }) })}`));
  phases.push(await readPhase('GET /api/v1/search (lineage search)', READS, (i) => `/api/v1/search?${new URLSearchParams({ q: pick(i).slice(0, 6) })}`));

  console.log(`\nprices (USD, us-east-1, on-demand, as of 2026-11-28): ${Object.entries(PRICES).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  printPhase(phases[0] as PhaseCount, 1e6, 'million events');
  printPhase(phases[1] as PhaseCount, 1e6, 'million events');
  for (const p of phases.slice(2)) printPhase(p, 1e3, 'thousand requests');

  // The table the README carries.
  console.log('\nsummary (USD):');
  console.log('| what | API Gateway | Lambda | DynamoDB | SQS | total | of which feed and model | physical minimum |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [i, p] of phases.entries()) {
    const per = i < 2 ? 1e6 : 1e3;
    const scale = per / p.units;
    const d = dollars(p);
    const floor = p.minimumWriteUnits === undefined ? undefined : ((p.apiRequests === p.units ? p.units : p.units / BATCH_SIZE) * PRICES.httpApiRequest + p.minimumWriteUnits * PRICES.dynamoWriteUnit) * scale;
    const feedShare = p.minimumWriteUnits === undefined ? '—' : money(total(dollars(split(p).feed)) * scale);
    console.log(`| ${p.label}, per ${i < 2 ? 'million events' : 'thousand requests'} | ${money(d.api * scale)} | ${money((d.lambdaRequests + d.lambdaCompute) * scale)} | ${money((d.dynamoWrites + d.dynamoReads) * scale)} | ${money(d.sqs * scale)} | **${money(total(d) * scale)}** | ${feedShare} | ${floor === undefined ? '—' : `${money(floor)} (${((total(d) * scale) / floor).toFixed(1)}×)`} |`);
  }
  console.log(`\n${machine()}`);
} finally {
  client.close();
  await composition.feed().inProcess?.stop();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await stack.stop();
  await meter.stop();
  rmSync(home, { recursive: true, force: true });
}
