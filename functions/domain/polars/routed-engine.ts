/**
 * @module polars/routed-engine
 * The polars sandbox as the routed endpoint's polars engine ({@link polarsEngineOf}): the router
 * does its own plan checks, firewall and metering, so this only maps its request onto a sandbox run.
 */
import { ValidationError } from '../errors.ts';
import type { TabularResult } from '../lake/engine.ts';
import type { LoadedTable } from '../lake/query-tables.ts';
import { DEFAULT_MAX_RESULT_BYTES } from './run-polars.ts';
import { POLARS_TIERS, type PolarsTier } from './sandbox.ts';
import type { PolarsSandbox } from './ports.ts';

/** The smallest tier with at least `vcpus` (the largest when none is). */
export const tierFor = (vcpus: number): PolarsTier => POLARS_TIERS.find((t) => t >= vcpus) ?? 32;

/** A polars run as the routed endpoint asks for it (its `PolarsRunRequest`). */
export interface RoutedPolarsRun {
  readonly orgId: string;
  readonly source: { readonly kind: 'sql'; readonly sql: string } | { readonly kind: 'script'; readonly script: string };
  /** Each table under its alias when it has one, and under its own `namespace.table` name. */
  readonly tables: readonly { readonly alias?: string; readonly table: LoadedTable }[];
  readonly vcpus: number;
  readonly timeoutMs: number;
}

/** The sandbox as the routed endpoint's polars engine: the caller has checked plan, SQL and tables. */
export const polarsEngineOf = (sandbox: PolarsSandbox) => ({
  version: (): Promise<string> => sandbox.version(),
  run: async (request: RoutedPolarsRun): Promise<{ results: TabularResult; compute: { vcpus: number; mode: string; instanceType: string }; executionMs: number }> => {
    if (request.tables.length === 0 && request.source.kind === 'sql') throw new ValidationError('a polars query needs registered tables');
    const started = performance.now();
    const result = await sandbox.run({
      orgId: request.orgId,
      source: request.source.kind === 'sql' ? request.source : { kind: 'script', script: request.source.script, params: {} },
      tables: request.tables.map(({ alias, table }) => ({
        names: [...(alias === undefined ? [] : [alias]), `${table.engine.name.namespace}.${table.engine.name.table}`],
        metadataLocation: table.engine.metadataLocation,
        location: table.engine.location,
      })),
      catalog: 'lakeline',
      vcpus: tierFor(request.vcpus),
      toFile: false,
      maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
      timeoutMs: request.timeoutMs,
    });
    return { results: result.results, compute: { ...result.compute }, executionMs: performance.now() - started };
  },
});
