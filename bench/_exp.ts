import { readFileSync } from 'node:fs';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { parseListQuery } from '#domain/lineage/list-query';
import { createDocumentClient, createDynamoClient } from '#shared/clients';
import { localTableName } from '#shared/config';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { startLocalDynamo } from '../local/dynamo.ts';
import { quantile } from './bench-util.ts';
import { seededRandom } from './lineage-data.ts';

const home = process.argv[2] as string;
const marker = JSON.parse(readFileSync(`${home}/bench-loaded.json`, 'utf8')) as { orgs: string[]; runSample: string[] };
const dynamo = await startLocalDynamo(home);
const client = createDynamoClient({ profile: 'local', dynamodbEndpoint: dynamo.endpoint });
const doc = createDocumentClient(client);
let calls: { cmd: string; ms: number; n: number; scanned: number }[] = [];
const send = doc.send.bind(doc);
(doc as unknown as { send: unknown }).send = async (cmd: { constructor: { name: string } }) => {
  const t0 = performance.now();
  const out = (await send(cmd as never)) as { Count?: number; ScannedCount?: number };
  calls.push({ cmd: cmd.constructor.name, ms: performance.now() - t0, n: out.Count ?? 0, scanned: out.ScannedCount ?? 0 });
  return out;
};
const store = new DynamoEventStore(doc, localTableName(EVENTS_TABLE), () => { throw new Error('no blobs'); });
const random = seededRandom(5);
const FROM = Date.UTC(2024, 0, 1), SPAN = 30 * 86_400_000;
const end = () => String(Math.floor((FROM + 86_400_000 + random() * (SPAN - 86_400_000)) / 1000));
const cases: Record<string, () => Record<string, string>> = {
  'time DESC': () => ({ start: '0', end: end() }),
  'size DESC': () => ({ start: '0', end: end(), sort_by: 'EVENT_SIZE_IN_BYTES' }),
  'job orders': () => ({ start: '0', end: end(), job: 'orders' }),
  'state FAIL': () => ({ start: '0', end: end(), states: 'FAIL' }),
};
for (const [name, params] of Object.entries(cases)) {
  const lat: number[] = []; let queries = 0, scanned = 0, qms = 0, bg = 0;
  for (let i = 0; i < 30; i++) {
    calls = [];
    const t0 = performance.now();
    await store.list(marker.orgs[0] as string, parseListQuery(params()));
    lat.push(performance.now() - t0);
    queries += calls.filter((c) => c.cmd === 'QueryCommand').length;
    scanned += calls.reduce((s, c) => s + c.scanned, 0);
    qms += calls.filter((c) => c.cmd === 'QueryCommand').reduce((s, c) => s + c.ms, 0);
    bg += calls.filter((c) => c.cmd === 'BatchGetCommand').reduce((s, c) => s + c.ms, 0);
  }
  lat.sort((a, b) => a - b);
  console.log(`${name.padEnd(12)} p50 ${quantile(lat, 0.5).toFixed(1)} p95 ${quantile(lat, 0.95).toFixed(1)} ms; per list: ${(queries / 30).toFixed(1)} queries, ${(scanned / 30).toFixed(0)} scanned, query ms sum ${(qms / 30).toFixed(1)}, batchget ms ${(bg / 30).toFixed(1)}`);
}
client.destroy();
await dynamo.stop();
