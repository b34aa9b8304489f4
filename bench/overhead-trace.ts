/**
 * Where a legacy DuckDB request's fixed overhead goes (issue 30).
 *
 *   npx tsx bench/overhead-trace.ts [--reps N] [--home DIR] [--query SQL] [--stop-feed] [--polars --in-place]
 *
 * Starts the local stack in this process in a copy of the SF 0.01 benchmark home (made by
 * `bench/tpch-duckdb.ts --scale 0.01`; the copy leaves the original untouched), then times, for one
 * small query, each layer on its own, `reps` times after a warm-up:
 *
 * - the whole request through the gateway (`fetch`), and bare DuckDB on the same files;
 * - the authorizer handler called directly (API key check);
 * - the endpoint's handler called directly with the authorizer's context (no HTTP, no authorizer);
 * - inside it, the use case's own phases (its `server-timing`), and each store call they make;
 * - the middleware's part: handler − use case.
 *
 * The gateway's part is the whole request − authorizer − handler. Medians are printed.
 *
 * `--polars`: the same for the polars endpoint's trivial query (`SELECT count(*) AS n FROM nation`,
 * every TPC-H table registered, as `bench/polars.ts` sends it): the request, the use case called
 * directly, the sandbox's run alone, and the metering write; bare polars is in `bench/polars.ts`.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { openDuckDB, sqlIdent, sqlString } from '#adapters/duckdb/instance';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { REPO_ROOT } from '../test/helpers/local-stack-process.ts';
import { startLocalStack } from '../local/stack.ts';
import { machine, quantile } from './bench-util.ts';
import { loadInputTables } from '#domain/lake/query-tables';
import { sandboxOf } from '#domain/lake/sandbox';
import { PLANS } from '#domain/core/plans';
import { runLegacyQuery } from '#domain/query/legacy-query';
import { runPolars, type PolarsDeps } from '#domain/polars/run-polars';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '40' }, home: { type: 'string' }, query: { type: 'string' }, 'stop-feed': { type: 'boolean', default: false }, polars: { type: 'boolean', default: false }, 'in-place': { type: 'boolean', default: false } } });
const reps = Number(values.reps);
const sql = values.query ?? 'SELECT n_name, r_name FROM tpch.nation JOIN tpch.region ON n_regionkey = r_regionkey ORDER BY n_name LIMIT 5';
const source = path.resolve(values.home ?? path.join(REPO_ROOT, '.lakeline', 'bench', 'sf0.01'));
const EXTENSIONS = path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions');

const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);
const timeIt = async (fn: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const context = { getRemainingTimeInMillis: () => 30_000, awsRequestId: 'trace' } as unknown as Context;

const main = async (): Promise<void> => {
  // A copy keeps the benchmark's home as it was, but its catalog still names the original's files;
  // the polars sandbox reads only files below its own home's warehouse: `--in-place` for it.
  const home = values['in-place'] ? source : mkdtempSync(path.join(tmpdir(), 'lakeline-trace-'));
  if (!values['in-place']) cpSync(source, home, { recursive: true, filter: (p) => !p.includes(`${path.sep}trino`) });
  console.log(`overhead trace, ${reps} runs per figure after a warm-up; ${machine()}\nhome: copy of ${source}\nquery: ${sql}\n`);
  process.env.LAKELINE_DEMO_DATA = '0';
  process.env.LAKELINE_DEMO_LINEAGE = '0';
  process.env.LAKELINE_LOG_LEVEL = 'warn';
  const stack = await startLocalStack({ home, port: 0 });
  try {
    const composition = await import('#composition/index');
    const { handler: authorizer } = await import('#handlers/authorizer');
    const { handler: endpoint } = await import('#handlers/post-warehouse-query');
    const deps = composition.legacyQueryDeps();
    if (values.polars) return await tracePolars(stack, composition.polarsDeps());
    // --stop-feed: the lineage model's in-process consumer stopped, to see what its work costs requests.
    if (values['stop-feed']) await composition.feed().inProcess?.stop();

    const body = JSON.stringify({ query: sql });
    const viaHttp = () =>
      fetch(`${stack.baseUrl}/api/v1/warehouse/query`, { method: 'POST', headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' }, body }).then(async (r) => {
        const text = await r.text();
        if (r.status !== 200) throw new Error(`${r.status} ${text}`);
        return r.headers.get('server-timing') ?? '';
      });
    const authEvent = { version: '2.0', type: 'REQUEST', routeKey: 'POST /api/v1/warehouse/query', headers: { authorization: `Bearer ${stack.apiKey}` }, cookies: [] };
    const decision = await authorizer(authEvent as never);
    const handlerEvent = {
      version: '2.0',
      routeKey: 'POST /api/v1/warehouse/query',
      rawPath: '/api/v1/warehouse/query',
      headers: { 'content-type': 'application/json' },
      requestContext: { requestId: 'trace', http: { method: 'POST', path: '/api/v1/warehouse/query' }, authorizer: { lambda: decision.context } },
      body,
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;

    const catalog = new SqliteCatalog(path.join(home, 'catalog.db'), EXTENSIONS);
    const tables = await catalog.listTables(stack.orgId, 'tpch');
    const { connection } = await openDuckDB(EXTENSIONS, ['avro', 'iceberg']);
    await connection.run(
      ["ATTACH ':memory:' AS lakeline", 'CREATE SCHEMA lakeline.tpch', ...tables.map((t) => `CREATE VIEW lakeline.tpch.${sqlIdent(t.table)} AS SELECT * FROM iceberg_scan('${sqlString(t.metadataLocation)}')`), 'USE lakeline'].join(';\n'),
    );

    const known = await deps.catalog.listTables(stack.orgId);
    const inputs = await loadInputTables(deps.storage, known, [
      { catalog: 'lakeline', namespace: 'tpch', table: 'nation' },
      { catalog: 'lakeline', namespace: 'tpch', table: 'region' },
    ] as never);
    const engineRun = () =>
      deps.engine.run({ owner: stack.orgId, sql, tables: inputs.map((t) => t.engine), sandbox: sandboxOf(PLANS.pro.defaultSandboxVcpus), explain: false, timeoutMs: 30_000, maxResultBytes: 6_000_000 });
    const bareStreamed = async () => {
      const result = await (await connection.prepare(sql)).stream();
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
      }
    };
    const lineageEvent = { eventType: 'OTHER', eventTime: new Date().toISOString(), producer: 'https://lakeline.dev/trace', schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent', run: { runId: '' }, job: { namespace: 'trace', name: 'trace' } };
    const figures: Record<string, number[]> = {};
    const phases: Record<string, number[]> = {};
    const add = (name: string, ms: number) => (figures[name] ??= []).push(ms);
    for (let i = 0; i <= reps; i++) {
      const warm = i === 0;
      const t0 = performance.now();
      const timing = await viaHttp();
      const httpMs = performance.now() - t0;
      const authMs = await timeIt(() => authorizer(authEvent as never));
      const handlerMs = await timeIt(() => endpoint(handlerEvent, context));
      const bareMs = await timeIt(() => connection.runAndReadAll(sql));
      const orgMs = await timeIt(() => deps.orgs.get(stack.orgId));
      const listMs = await timeIt(() => deps.catalog.listTables(stack.orgId));
      const engineMs = await timeIt(engineRun);
      const streamedMs = await timeIt(bareStreamed);
      const useCaseMs = await timeIt(() => runLegacyQuery(deps, { orgId: stack.orgId, query: sql, autoSaveByHash: false, explain: false, mayWrite: true }));
      const emit2Ms = await timeIt(() => Promise.all([0, 1].map(() => deps.lineage.emit(stack.orgId, { ...lineageEvent, run: { runId: crypto.randomUUID() } }))));
      const materializedMs = await timeIt(async () => {
        const result = await (await connection.prepare(sql)).run();
        for (;;) {
          const chunk = await result.fetchChunk();
          if (!chunk || chunk.rowCount === 0) break;
        }
      });
      const emitMs = await timeIt(() => deps.lineage.emit(stack.orgId, { ...lineageEvent, run: { runId: crypto.randomUUID() } }));
      if (warm) continue;
      add('request through the gateway', httpMs);
      add('authorizer (direct call)', authMs);
      add('endpoint handler (direct call)', handlerMs);
      add('bare DuckDB', bareMs);
      add('bare DuckDB, prepared and streamed', streamedMs);
      add('  use case (direct call)', useCaseMs);
      add('  engine.run (direct call)', engineMs);
      add('bare DuckDB, prepared and materialized', materializedMs);
      add('  store: orgs.get', orgMs);
      add('  lineage: two emits at once', emit2Ms);
      add('  catalog: listTables', listMs);
      add('  lineage: one emit', emitMs);
      for (const part of timing.split(',')) {
        const [name, dur] = part.trim().split(';dur=');
        if (name && dur) (phases[name] ??= []).push(Number(dur));
      }
    }
    const m = (name: string) => median(figures[name] ?? []);
    const phaseSum = Object.values(phases).reduce((s, xs) => s + median(xs), 0);
    console.log('figure                                   p50 ms');
    for (const name of Object.keys(figures)) console.log(`${name.padEnd(40)} ${m(name).toFixed(2).padStart(7)}`);
    console.log('\nthe use case\'s phases (server-timing of the gateway requests):');
    for (const [name, xs] of Object.entries(phases)) console.log(`  ${name.padEnd(38)} ${median(xs).toFixed(2).padStart(7)}`);
    const gateway = m('request through the gateway') - m('authorizer (direct call)') - m('endpoint handler (direct call)');
    console.log(`\nbreakdown of the request (p50s):`);
    console.log(`  overhead over bare DuckDB              ${(m('request through the gateway') - m('bare DuckDB')).toFixed(2).padStart(7)}`);
    console.log(`  authorizer                             ${m('authorizer (direct call)').toFixed(2).padStart(7)}`);
    console.log(`  gateway (HTTP, event, client)          ${gateway.toFixed(2).padStart(7)}`);
    console.log(`  middleware (handler − use case)        ${(m('endpoint handler (direct call)') - m('  use case (direct call)')).toFixed(2).padStart(7)}`);
    console.log(`  use case − bare DuckDB                 ${(m('  use case (direct call)') - m('bare DuckDB')).toFixed(2).padStart(7)}`);
    console.log(`    of which engine.run − bare           ${(m('  engine.run (direct call)') - m('bare DuckDB')).toFixed(2).padStart(7)}`);
    console.log(`  (phases of the gateway requests sum to ${phaseSum.toFixed(2)})`);
    console.log(`\n${machine()}`);
  } finally {
    await stack.stop();
  }
};

/** The polars endpoint's trivial query, layer by layer (see the module's comment). */
const tracePolars = async (stack: { baseUrl: string; apiKey: string; orgId: string }, deps: PolarsDeps): Promise<void> => {
  const tables = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'].map((t) => `${t}=tpch.${t}`);
  const request = { mode: 'query' as const, query: 'SELECT count(*) AS n FROM nation', tables, vcpus: 2 };
  const viaHttp = async () => {
    const r = await fetch(`${stack.baseUrl}/api/v1/warehouse/polars`, { method: 'POST', headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(request) });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${r.status} ${text}`);
  };
  const known = await deps.catalog.listTables(stack.orgId);
  const nation = known.find((t) => t.namespace === 'tpch' && t.table === 'nation');
  if (!nation || !deps.sandbox) throw new Error('no tpch.nation or no polars sandbox');
  const sandboxRun = () =>
    (deps.sandbox as NonNullable<typeof deps.sandbox>).run({
      orgId: stack.orgId,
      source: { kind: 'sql', sql: request.query },
      tables: [{ names: ['nation', 'tpch.nation'], metadataLocation: nation.metadataLocation, location: nation.metadataLocation.replace(/\/metadata\/[^/]+$/, '') }],
      catalog: 'lakeline',
      vcpus: 2,
      toFile: false,
      maxResultBytes: 5_000_000,
    } as never);
  const figures: Record<string, number[]> = {};
  for (let i = 0; i <= reps; i++) {
    const ms = [await timeIt(viaHttp), await timeIt(() => runPolars(deps, stack.orgId, request)), await timeIt(() => runPolars(deps, stack.orgId, { ...request, tables: ['nation=tpch.nation'] })), await timeIt(sandboxRun), await timeIt(() => deps.orgs.get(stack.orgId)), await timeIt(() => deps.orgs.addUsage(stack.orgId, 'polars', 0.001, 0))];
    if (i === 0) continue;
    ['request through the gateway', 'use case (direct call)', 'use case, only nation registered', '  sandbox run alone', '  store: orgs.get', '  store: metering write'].forEach((name, k) => (figures[name] ??= []).push(ms[k] as number));
  }
  console.log('polars, trivial query                    p50 ms');
  for (const [name, xs] of Object.entries(figures)) console.log(`${name.padEnd(40)} ${median(xs).toFixed(2).padStart(7)}`);
  console.log(`\n${machine()}`);
};

await main();
process.exit(0);
