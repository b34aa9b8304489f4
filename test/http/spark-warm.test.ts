/**
 * The warm Spark driver (ADR 0059) on a stack of its own: small jobs (inputs up to the limit, here
 * 1,000,000 bytes: `tpch.nation` and `orders` under it, `lineitem` above) run one after another in
 * one long-lived driver; big ones keep a JVM of their own. Two orgs' jobs in the one driver each
 * see only their own tables, as with separate runs; an aborted job stops the driver, and the next
 * small job starts a new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { orgWithKey, storesAt } from '../helpers/stores.ts';
import { SPARK_RUN_TIMEOUT_MS, sparkApi, sparkPids } from './spark-client.ts';
import { warehouseApi } from './warehouse-api.ts';

let stack: StackProcess;
let other: { token: string };

beforeAll(async () => {
  stack = await startStackProcess(tempHome('spark-warm'), 0, { LAKELINE_DEMO_DATA: '1', LAKELINE_SPARK_WARM_MAX_INPUT_BYTES: '1000000' });
  const stores = storesAt(stack.dynamodbEndpoint);
  try {
    other = await orgWithKey(stores, { name: 'warm neighbour', plan: 'pro', paymentMethod: true });
  } finally {
    stores.close();
  }
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

const job = (name: string, query: string, table = name) => ({ namespace: 'warm-it', name, query, output_table: `lakeline.warm_it.${table}` });

describe('small Spark jobs in the warm driver', () => {
  it("Should write each org's own rows when two orgs' jobs of the same table name follow each other in the one driver", async () => {
    // Prepare
    const mine = sparkApi(stack.baseUrl, stack.apiKey);
    const theirs = sparkApi(stack.baseUrl, other.token);

    // Act: the demo org's job first (it starts the driver), then the other org's, each writing
    // `warm_it.same`; then ours again, reading `warm_it.same` into another table.
    const first = await mine.submit(job('mine_1', 'select n_nationkey, n_name from tpch.nation where n_nationkey < 3', 'same'));
    const firstEnd = await mine.waitForEnd(first.body.run_id);
    const second = await theirs.submit(job('theirs_1', "select 42 as n_nationkey, 'NEIGHBOUR' as n_name", 'same'));
    const secondEnd = await theirs.waitForEnd(second.body.run_id);
    const third = await mine.submit(job('mine_2', 'select * from warm_it.same'));
    const thirdEnd = await mine.waitForEnd(third.body.run_id);

    // Assess: no JVM of their own; each wrote its own rows; ours never read the neighbour's.
    expect([firstEnd.state, secondEnd.state, thirdEnd.state]).toEqual(['COMPLETE', 'COMPLETE', 'COMPLETE']);
    expect([firstEnd.rows_written, secondEnd.rows_written, thirdEnd.rows_written]).toEqual([3, 1, 3]);
    expect(sparkPids(third.body.run_id)).toEqual([]);
    const ours = await warehouseApi(stack.baseUrl, stack.apiKey).query({ query: 'SELECT n_name FROM lakeline.warm_it.mine_2 ORDER BY 1' });
    const neighbours = await warehouseApi(stack.baseUrl, other.token).query({ query: 'SELECT n_name FROM lakeline.warm_it.same' });
    expect(ours.body.results?.rows).toEqual([['ALGERIA'], ['ARGENTINA'], ['BRAZIL']]);
    expect(neighbours.body.results?.rows).toEqual([['NEIGHBOUR']]);
  }, SPARK_RUN_TIMEOUT_MS * 2);

  it("Should refuse a table of the org whose job ran in the driver just before, as with runs of their own", async () => {
    // Prepare: the neighbour's table exists, and the neighbour's job ran in this driver.
    const theirs = sparkApi(stack.baseUrl, other.token);
    const mine = sparkApi(stack.baseUrl, stack.apiKey);
    await theirs.waitForEnd((await theirs.submit(job('theirs_2', "select 'secret' as s", 'private_t'))).body.run_id);

    // Act: the demo org names it; the firewall does not know it, so the request is refused first.
    const attempt = await mine.submit(job('mine_3', 'select * from warm_it.private_t'));

    // Assess
    expect(attempt.status).toBe(400);
    expect(JSON.stringify(attempt.body)).not.toContain('secret');
  }, SPARK_RUN_TIMEOUT_MS);

  it('Should stop the driver when its running job is aborted, and run the next small job in a new one', async () => {
    // Prepare: a cross join of small inputs that runs far longer than the test waits.
    const api = sparkApi(stack.baseUrl, stack.apiKey);
    const long = await api.submit(job('endless', 'select count(*) as n from tpch.nation a cross join tpch.orders b cross join tpch.orders c', 'never'));
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    // Act
    const aborted = await api.abort(long.body.run_id);
    const next = await api.submit(job('after_abort', 'select n_regionkey from tpch.nation where n_nationkey = 1'));
    const nextEnd = await api.waitForEnd(next.body.run_id);

    // Assess
    expect(aborted.body).toMatchObject({ state: 'ABORT', error: 'aborted by request' });
    expect(nextEnd).toMatchObject({ state: 'COMPLETE', rows_written: 1 });
    expect((await api.run(long.body.run_id)).body.state).toBe('ABORT');
  }, SPARK_RUN_TIMEOUT_MS * 2);
});

describe('big Spark jobs', () => {
  it('Should run a job whose inputs are above the limit in a JVM of its own', async () => {
    // Prepare
    const api = sparkApi(stack.baseUrl, stack.apiKey);

    // Act
    const big = await api.submit(job('big', 'select l_orderkey, l_quantity from tpch.lineitem'));
    let ownJvm = false;
    const watching = setInterval(() => (ownJvm ||= sparkPids(big.body.run_id).length > 0), 200);
    const end = await api.waitForEnd(big.body.run_id);
    clearInterval(watching);

    // Assess
    expect(end).toMatchObject({ state: 'COMPLETE', rows_written: 60175 });
    expect(ownJvm).toBe(true);
  }, SPARK_RUN_TIMEOUT_MS);
});
