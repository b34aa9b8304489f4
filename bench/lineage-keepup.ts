/**
 * Keep-up benchmark (`npx tsx bench/lineage-keepup.ts [--minutes 10] [--worst-minutes 2] [--rate 350]`):
 * does the lineage graph keep up with ingestion sustained for minutes? A local stack runs in this
 * process (the same gateway, handlers, in-process event feed and lineage model as `npm run local`);
 * batches of 25 events are posted to `POST /api/v1/lineage/batch` at a fixed rate (open loop, at
 * most 8 requests in flight), and the benchmark prints:
 *
 * - the lag from each batch's 200 to its events' place in the graph, p50/p95/p99/max, measured by
 *   polling `GET /api/v1/health` every 250 ms: a batch counts as in the graph at the first answer
 *   whose `appliedUpTo` (receipt time of the newest event the model applied) is at or after the
 *   batch's 200 (the feed applies an org's events in the order it stored them, so every event
 *   acknowledged before is applied), or whose `lagMs` is 0. The applied mark is written at most
 *   once a second (the feed's watermark spacing), so the figure is an upper bound, by up to ~1.25 s;
 * - the store requests per event the model made (every request to the Lineage table, counted by
 *   wrapping the document client's `send` in this process), by item kind and command, and the
 *   compare-and-set writes that lost (conditional check failures of `rev` conditions), which the
 *   applier redoes.
 *
 * Phase 1, the warehouse: a daily warehouse's pipelines (2,000 jobs in 20 domains, 1–3 inputs each,
 * some of them a domain's shared sources, 1–4 outputs, mean 1.6, with schema and column-lineage
 * facets), each job run again and again (START, then COMPLETE ~20 s later), and 5% of the runs of
 * jobs never seen before (new job and output names). Phase 2, the worst case: every run a new job
 * with new input and output names. After each phase the benchmark waits until the model has caught
 * up and prints how long that took.
 *
 * The baseline is the same file run on the code before a change (e.g. an archive of that commit
 * with this file copied in), back to back, with the machine's load printed beside each.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { minutes: { type: 'string' }, 'worst-minutes': { type: 'string' }, rate: { type: 'string' } } });
const MINUTES = Number(args.minutes ?? 10);
const WORST_MINUTES = Number(args['worst-minutes'] ?? 2);
/** Events per second offered (the ingest benchmark's batch rate on this machine under load, 2026-11-27 evening: 353/s). */
const RATE = Number(args.rate ?? 350);
const BATCH = 25;
const MAX_IN_FLIGHT = 8;
const JOBS = 2_000;
const DOMAINS = 20;
const NEW_JOB_SHARE = 0.05;
/** Seconds between a run's START and its COMPLETE. */
const RUN_SECONDS = 20;
const POLL_MS = 250;
/** How long after a phase the benchmark waits for the model to catch up before giving up (the next phase starts anyway). */
const CATCH_UP_LIMIT_MS = 180_000;

// The stack in this process: quiet logs, no demo data; set before the composition root is loaded.
process.env.LAKELINE_LOG_LEVEL ??= 'warn';
process.env.LAKELINE_DEMO_DATA = '0';
process.env.LAKELINE_DEMO_LINEAGE = '0';

const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
const { machine, quantile, httpClient } = await import('./bench-util.ts');
const { seededRandom } = await import('./lineage-data.ts');

// ---------------------------------------------------------------- counting store requests

/** The kind of a Lineage table item, from its key (see `lineage-items.ts`). */
const kindOf = (key: { pk?: unknown; sk?: unknown } | undefined): string => {
  if (!key) return '?';
  const pk = String(key.pk);
  const sk = String(key.sk ?? '');
  if (pk.endsWith('#META')) return 'feed marks / generation';
  const part = /^[^#]+#\d+#([A-Z]+)/.exec(pk)?.[1];
  switch (part) {
    case 'R':
      return sk === 'RUN' ? 'run' : 'child entry';
    case 'J':
      return sk === 'HEAD' ? 'job head' : 'run order entry';
    case 'D':
      return sk === 'DS' ? 'dataset' : sk.startsWith('V#') ? 'version order entry' : sk.startsWith('CL#') ? 'column-lineage value' : sk.startsWith('X#') ? 'dataset set shard' : `dataset ${sk}`;
    case 'NS':
      return 'namespace';
    case 'NSJ':
      return 'job listing';
    case 'NSD':
      return 'dataset listing';
    case 'B':
      return 'blob chunk';
    case 'CHG':
      return 'change entry';
    case 'TAG':
      return 'tag';
    case 'S':
      return 'search index';
    default:
      return `other (${pk.slice(0, 40)})`;
  }
};

type Input = Record<string, unknown> & { TableName?: string; Key?: Record<string, unknown>; Item?: Record<string, unknown>; ConditionExpression?: string; RequestItems?: Record<string, unknown> };

/** The table and the first item kind a request addresses. */
const targetOf = (input: Input): { table: string; kind: string } => {
  if (input.RequestItems) {
    const [table, request] = Object.entries(input.RequestItems)[0] as [string, unknown];
    const first = Array.isArray(request) ? (request[0] as { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } }) : undefined;
    const key = first ? (first.PutRequest?.Item ?? first.DeleteRequest?.Key) : ((request as { Keys?: Record<string, unknown>[] }).Keys?.[0] ?? undefined);
    return { table, kind: kindOf(key) };
  }
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  const key = input.Key ?? input.Item ?? (values && typeof values[':pk'] === 'string' ? { pk: values[':pk'], sk: '' } : undefined);
  return { table: String(input.TableName), kind: input.IndexName ? `query ${String(input.IndexName)}` : kindOf(key) };
};

interface Counts {
  requests: Map<string, number>;
  casLost: Map<string, number>;
}
const newCounts = (): Counts => ({ requests: new Map(), casLost: new Map() });
let counts = newCounts();
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

// Every document client of this process (the stack's included) counts its requests.
const originalSend = DynamoDBDocumentClient.prototype.send;
DynamoDBDocumentClient.prototype.send = function countedSend(this: unknown, command: unknown, ...rest: unknown[]) {
  const { input, constructor } = command as { input: Input; constructor: { name: string } };
  const { table, kind } = targetOf(input);
  // Updates told apart by what they do: a set's ADD, a listing's if_not_exists, a record's SET.
  const expression = typeof input.UpdateExpression === 'string' ? input.UpdateExpression : '';
  const how = expression.startsWith('ADD') ? ' ADD' : expression.includes('= if_not_exists(al') ? ' if_not_exists' : '';
  const label = `${table}\u0000${constructor.name.replace('Command', '')}${how}\u0000${kind}`;
  bump(counts.requests, label);
  const sent = (originalSend as (...a: unknown[]) => Promise<unknown>).call(this, command, ...rest);
  const cas = typeof input.ConditionExpression === 'string' && /\brev\b|attribute_not_exists\((pk|rev)\)/.test(input.ConditionExpression);
  if (!cas) return sent;
  return sent.catch((err: unknown) => {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') bump(counts.casLost, label);
    throw err;
  });
} as typeof originalSend;

// ---------------------------------------------------------------- the warehouse

interface Name {
  readonly namespace: string;
  readonly name: string;
}
interface Job {
  readonly job: Name;
  readonly inputs: readonly Name[];
  readonly outputs: readonly Name[];
}

const random = seededRandom(26);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const outputCount = (): number => {
  const r = random();
  return r < 0.6 ? 1 : r < 0.85 ? 2 : r < 0.95 ? 3 : 4;
};

/** Jobs in pipelines: stage 0 reads a domain's shared sources and a landing path; later stages read earlier stages' outputs. */
function warehouse(): Job[] {
  const jobs: Job[] = [];
  const perDomain = JOBS / DOMAINS;
  for (let d = 0; d < DOMAINS; d++) {
    const sources = ['orders', 'customers', 'payments', 'events'].map((s) => ({ namespace: `s3://raw-d${d}`, name: `source_${s}` }));
    const written: Name[] = [];
    for (let j = 0; j < perDomain; j++) {
      const early = written.length < 10 || random() < 0.15;
      const inputs = early ? [pick(sources), { namespace: `s3://landing-d${d}`, name: `landing_${j}` }] : [...new Map(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(written)).map((n) => [n.name, n])).values()];
      const outputs = Array.from({ length: outputCount() }, (_, k) => ({ namespace: `pg://warehouse-d${d}`, name: `d${d}.t${j}_${k}` }));
      written.push(...outputs);
      jobs.push({ job: { namespace: `etl-d${d}`, name: `pipeline_d${d}.job_${j}` }, inputs, outputs });
    }
  }
  return jobs;
}

let newJobs = 0;
/** A job nobody has sent before; `newInputs` gives it input names never seen either (the worst case). */
const newJob = (newInputs: boolean): Job => {
  const n = newJobs++;
  const d = n % DOMAINS;
  return {
    job: { namespace: `etl-d${d}`, name: `adhoc_${n}` },
    inputs: newInputs ? [{ namespace: `s3://landing-d${d}`, name: `adhoc_in_${n}` }] : [{ namespace: `s3://raw-d${d}`, name: 'source_orders' }],
    outputs: Array.from({ length: outputCount() }, (_, k) => ({ namespace: `pg://scratch-d${d}`, name: `adhoc_${n}_${k}` })),
  };
};

const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark';
const schemaFacet = { _producer: PRODUCER, _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json', fields: Array.from({ length: 12 }, (_, i) => ({ name: `c${i}`, type: i % 3 ? 'VARCHAR' : 'BIGINT' })) };

/** The JSON text of one event of a run. */
const eventText = (w: Job, runId: string, state: 'START' | 'COMPLETE'): string =>
  JSON.stringify({
    eventType: state,
    eventTime: new Date().toISOString(),
    producer: PRODUCER,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId, facets: {} },
    job: { ...w.job, facets: { jobType: { _producer: PRODUCER, _schemaURL: 'https://openlineage.io/spec/facets/2-0-2/JobTypeJobFacet.json', processingType: 'BATCH', integration: 'SPARK', jobType: 'JOB' } } },
    inputs: w.inputs.map((i) => ({ ...i, facets: { schema: schemaFacet } })),
    outputs: w.outputs.map((o) => ({
      ...o,
      facets:
        state === 'COMPLETE'
          ? {
              schema: schemaFacet,
              columnLineage: {
                _producer: PRODUCER,
                _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
                fields: Object.fromEntries(schemaFacet.fields.map((f, i) => [f.name, { inputFields: [{ ...(w.inputs[i % w.inputs.length] as Name), field: f.name }] }])),
              },
            }
          : {},
    })),
  });

/** Events in sending order: each run's START now and its COMPLETE RUN_SECONDS later. */
function eventSource(jobs: readonly Job[] | undefined) {
  const completes: Array<{ due: number; text: string }> = [];
  return (): string => {
    const now = performance.now();
    const first = completes[0];
    if (first && first.due <= now) return (completes.shift() as { text: string }).text;
    const w = jobs === undefined ? newJob(true) : random() < NEW_JOB_SHARE ? newJob(false) : pick(jobs);
    const runId = randomUUID();
    completes.push({ due: now + RUN_SECONDS * 1_000, text: eventText(w, runId, 'COMPLETE') });
    return eventText(w, runId, 'START');
  };
}

// ---------------------------------------------------------------- run

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
console.log(`lineage keep-up benchmark — ${machine()}`);
console.log(`offered: ${RATE} events/s in batches of ${BATCH} (at most ${MAX_IN_FLIGHT} in flight); warehouse ${MINUTES} min, then all-new names ${WORST_MINUTES} min`);
const home = mkdtempSync(path.join(tmpdir(), 'lakeline-bench-keepup-'));
const { startLocalStack } = await import('../local/stack.ts');
const { localTableName } = await import('#composition/config');
const { LINEAGE_TABLE } = await import('#shared/table-definitions');
const lineageTable = localTableName(LINEAGE_TABLE);
const stack = await startLocalStack({ home, port: 0 });
const client = httpClient(MAX_IN_FLIGHT + 2);
const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };

interface Health {
  readonly at: number;
  readonly appliedUpTo: number;
  readonly lagMs: number | null;
}
/** The model's standing now, from the health endpoint. */
const health = async (): Promise<Health> => {
  const out = await client.request(`${stack.baseUrl}/api/v1/health`, 'GET', headers);
  if (out.status !== 200) throw new Error(`GET /api/v1/health: ${out.status} ${out.body.slice(0, 200)}`);
  const body = JSON.parse(out.body) as { feed: { subscribers: Array<{ subscriber: string; appliedUpTo: string | null; lagMs: number | null }> } };
  const model = body.feed.subscribers.find((s) => s.subscriber === 'lineage-model');
  return { at: Date.now(), appliedUpTo: model?.appliedUpTo ? Date.parse(model.appliedUpTo) : 0, lagMs: model?.lagMs ?? null };
};

/** Sends at RATE for `minutes`; returns the acknowledgement times and the lag of each batch. */
async function phase(label: string, minutes: number, next: () => string): Promise<void> {
  counts = newCounts();
  const lags: number[] = [];
  /** Acknowledged batches not yet seen in the graph: when, and how many events they stored. */
  let pendingAcks: Array<{ at: number; events: number }> = [];
  /** Events of the batches seen in the graph (the requests are counted per event applied). */
  let applied = 0;
  let sent = 0;
  let errors = 0;
  let inFlight = 0;
  let notCaughtUp = 0;
  let sending = true;
  const started = Date.now();
  const end = started + minutes * 60_000;
  const cpuBefore = process.cpuUsage();
  const poller = (async () => {
    while (sending || pendingAcks.length > 0) {
      const h = await health();
      // Acknowledged before the newest applied event was received, or nothing left to apply: in the graph.
      const still: Array<{ at: number; events: number }> = [];
      for (const ack of pendingAcks) {
        if (h.appliedUpTo >= ack.at || (h.lagMs === 0 && h.at - 50 > ack.at)) {
          lags.push(h.at - ack.at);
          applied += ack.events;
        } else still.push(ack);
      }
      pendingAcks = still;
      if (!sending && pendingAcks.length > 0 && Date.now() - end > CATCH_UP_LIMIT_MS) {
        // Counted as lagging by the whole wait (a lower bound): the percentiles stay honest.
        notCaughtUp = pendingAcks.length;
        for (const ack of pendingAcks) lags.push(Date.now() - ack.at);
        pendingAcks = [];
      }
      await sleep(POLL_MS);
    }
  })();
  const interval = (BATCH / RATE) * 1_000;
  const requests: Promise<void>[] = [];
  for (let i = 0; Date.now() < end; i++) {
    const due = started + i * interval;
    if (due > Date.now()) await sleep(due - Date.now());
    while (inFlight >= MAX_IN_FLIGHT) await sleep(5);
    const body = `[${Array.from({ length: BATCH }, next).join(',')}]`;
    inFlight++;
    requests.push(
      client
        .request(`${stack.baseUrl}/api/v1/lineage/batch`, 'POST', headers, body)
        .then((out) => {
          if (out.status !== 200) throw new Error(`HTTP ${out.status}: ${out.body.slice(0, 200)}`);
          const ok = (JSON.parse(out.body) as { summary: { successful: number } }).summary.successful;
          sent += ok;
          pendingAcks.push({ at: Date.now(), events: ok });
        })
        .catch((err: unknown) => {
          errors++;
          if (errors <= 3) console.error(`  batch failed: ${(err as Error).message}`);
        })
        .finally(() => inFlight--),
    );
  }
  await Promise.all(requests);
  const sendSeconds = (Date.now() - started) / 1_000;
  sending = false;
  await poller;
  const caughtUp = (Date.now() - started) / 1_000 - sendSeconds;
  const cpu = process.cpuUsage(cpuBefore);
  lags.sort((a, b) => a - b);
  const s = (ms: number) => (ms / 1_000).toFixed(1);
  console.log(`\n${label}: ${sent} events in ${sendSeconds.toFixed(0)} s = ${(sent / sendSeconds).toFixed(0)} events/s acknowledged (offered ${RATE}/s)${errors ? `, ${errors} FAILED BATCHES` : ''}`);
  console.log(
    `  lag from a batch's 200 to its place in the graph (health's appliedUpTo, polled every ${POLL_MS} ms): p50 ${s(quantile(lags, 0.5))} s, p95 ${s(quantile(lags, 0.95))} s, p99 ${s(quantile(lags, 0.99))} s, max ${s(lags.at(-1) ?? NaN)} s (${lags.length} batches; target p99 ≤ 5 s: ${quantile(lags, 0.99) <= 5_000 ? 'met' : 'NOT MET'})`,
  );
  if (notCaughtUp > 0) console.log(`  ${notCaughtUp} batches were NOT in the graph ${CATCH_UP_LIMIT_MS / 1_000} s after the phase ended (their lag counted as the wait so far: the percentiles are lower bounds)`);
  console.log(`  the model had${notCaughtUp > 0 ? ' NOT' : ''} caught up ${caughtUp.toFixed(1)} s after the last batch was acknowledged; this process's CPU ${((cpu.user + cpu.system) / 1e6 / sendSeconds).toFixed(2)} cores on average`);
  const model = [...counts.requests].filter(([k]) => k.startsWith(`${lineageTable}\u0000`));
  const total = model.reduce((sum, [, n]) => sum + n, 0);
  const lost = [...counts.casLost.values()].reduce((a, b) => a + b, 0);
  // Per event the model applied (the events of the batches seen in the graph); the requests of a
  // model that had not caught up include some for events not counted, so the figure leans high.
  const perEvent = total / Math.max(1, applied);
  console.log(
    `  store requests to the Lineage table: ${total} for ${applied} events applied = ${perEvent.toFixed(2)} per event (target ≤ 2: ${perEvent <= 2 ? 'met' : 'NOT MET'}); compare-and-set writes lost and redone: ${lost}`,
  );
  for (const [k, n] of model.sort((a, b) => b[1] - a[1])) {
    const [, command, kind] = k.split('\u0000');
    const casLost = counts.casLost.get(k);
    console.log(`    ${(n / Math.max(1, applied)).toFixed(3).padStart(7)} /event  ${String(n).padStart(8)}  ${(command as string).padEnd(12)} ${kind}${casLost ? `  (${casLost} CAS lost)` : ''}`);
  }
  const others = new Map<string, number>();
  for (const [k, n] of counts.requests) if (!k.startsWith(`${lineageTable}\u0000`)) others.set(k.split('\u0000').slice(0, 2).join(' '), (others.get(k.split('\u0000').slice(0, 2).join(' ')) ?? 0) + n);
  console.log(`  other tables (ingestion itself, feed catch-up, health): ${[...others].map(([k, n]) => `${k} ${(n / sent).toFixed(3)}`).join(', ')} per event`);
  console.log(`  ${machine()}`);
}

try {
  const jobs = warehouse();
  console.log(`warehouse: ${jobs.length} jobs in ${DOMAINS} domains, ${jobs.reduce((n, j) => n + j.outputs.length, 0)} outputs; ${NEW_JOB_SHARE * 100}% of runs are of new jobs`);
  await phase(`phase 1, warehouse (repeated jobs, ${NEW_JOB_SHARE * 100}% new)`, MINUTES, eventSource(jobs));
  await phase('phase 2, worst case (every run a new job, new names)', WORST_MINUTES, eventSource(undefined));
  console.log(`\n${machine()}`);
} finally {
  client.close();
  await stack.stop();
  rmSync(home, { recursive: true, force: true });
}
