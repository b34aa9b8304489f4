/**
 * POST /api/v1/query with `engine: auto` and the routing table's bloom row, on a stack of its own
 * whose interactive limit is moved down to 200 KB (`LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES`), so
 * TPC-H SF 0.01's lineitem falls in band `l`: a plain-SQL read there is decided for bloom, a read
 * the firewall refuses in Trino mode (DuckDB's `QUALIFY`) for Spark, with reasons saying so, and a
 * small read stays on DuckDB. Explain only: no run starts, so no Trino server is needed here (the
 * runs themselves are `bloom.test.ts`'s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { routedApi, type RoutedApi } from './routed-api.ts';

const LIMIT_BYTES = 200_000;
let stack: StackProcess;
let api: RoutedApi;

beforeAll(async () => {
  stack = await startStackProcess(tempHome('bloom-routing'), 0, { LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES: String(LIMIT_BYTES) });
  api = routedApi(stack.baseUrl, stack.apiKey);
});

afterAll(async () => {
  await stack?.stop();
});

describe.skipIf(process.env.LAKELINE_BLOOM === '0')('engine auto: the bloom row of the routing table', () => {
  it('Should decide a plain-SQL read of band l for bloom, as a batch run, with the reason', async () => {
    // Act
    const explained = await api.query({ query: 'SELECT l_returnflag, count(*) AS n FROM tpch.lineitem GROUP BY l_returnflag', explain: true });

    // Assess
    expect(explained.status, JSON.stringify(explained.body)).toBe(200);
    expect(explained.body.engine_decision).toMatchObject({ engine: 'bloom', execution_mode: 'batch', size_band: 'l', input_tables: ['lakeline.tpch.lineitem'] });
    expect(explained.body.engine_decision?.reasons).toContainEqual(expect.stringMatching(/whose reads run on bloom/));
  });

  it('Should leave a read Trino cannot take on Spark, saying why', async () => {
    // Act
    const explained = await api.query({ query: 'SELECT l_orderkey FROM tpch.lineitem QUALIFY row_number() OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) = 1', explain: true });

    // Assess
    expect(explained.status, JSON.stringify(explained.body)).toBe(200);
    expect(explained.body.engine_decision?.engine).toBe('spark');
    expect(explained.body.engine_decision?.reasons).toContainEqual(expect.stringMatching(/Trino mode refuses this statement .* so Spark runs it/));
  });

  it('Should keep a small read on DuckDB and a write on Spark', async () => {
    // Act
    const small = await api.query({ query: 'SELECT count(*) AS n FROM tpch.nation', explain: true });
    const write = await api.query({ query: 'SELECT * FROM tpch.lineitem', destination: 'scratch.copy', explain: true });

    // Assess
    expect(small.body.engine_decision).toMatchObject({ engine: 'duckdb', execution_mode: 'interactive' });
    expect(write.body.engine_decision).toMatchObject({ engine: 'spark', execution_mode: 'batch' });
  });
});
