import { readFileSync } from 'node:fs';
import { httpClient, timed, line } from './bench-util.ts';
import { seededRandom, runEvents, sizeMix } from './lineage-data.ts';
const info = JSON.parse(readFileSync(process.argv[2] + '/local.json', 'utf8'));
const n = Number(process.argv[3] ?? 2000);
const batch = process.argv[5] === 'batch';
const texts: string[] = [];
for (const { text } of runEvents(seededRandom(Number(process.argv[4] ?? 5)), n, Date.UTC(2024, 0, 1), 86_400_000, sizeMix)) { texts.push(text); if (texts.length === n) break; }
const c = httpClient(16);
const h = { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' };
const f = batch
  ? await timed(n / 25, 4, 60, async (i) => { const o = await c.request(`${info.baseUrl}/api/v1/lineage/batch`, 'POST', h, `[${texts.slice(i * 25, i * 25 + 25).join(',')}]`); if (o.status !== 200) throw new Error(o.body); return 25; })
  : await timed(n, 16, 60, async (i) => { const o = await c.request(`${info.baseUrl}/api/v1/lineage`, 'POST', h, texts[i]); if (o.status !== 200) throw new Error(o.body); return 1; });
console.log(line(batch ? 'batch' : 'single', f));
c.close();
