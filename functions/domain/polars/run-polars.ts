/**
 * @module polars/run-polars
 * The use case of `POST /api/v1/warehouse/polars`: checks the request, the plan (402 without a
 * payment method, 403 above the plan's sandbox cap), resolves the input tables against the org's
 * catalog (the SQL through the firewall, `read_*` table functions and unregistered names refused),
 * runs polars in the sandbox, writes `destination` through the lake writer and meters the usage.
 * Captures no lineage (the contract says so). The routed endpoint reuses it through {@link runPolars}
 * and `routed-engine.ts`.
 */
import { CapabilityError, UnauthorizedError, ValidationError } from '../errors.ts';
import type { Catalog, CatalogTable, LakeStorage, LakeWriter } from '../lake/ports.ts';
import { DEFAULT_CATALOG, parseTableName, refuseLineageWrite, type TableName } from '../core/names.ts';
import type { OrgStore } from '../orgs/ports.ts';
import { requireComputeAccess, VCPU_SECOND_PRICE_USD } from '../core/plans.ts';
import type { TabularResult } from '../lake/engine.ts';
import { findTable, loadTable } from '../lake/query-tables.ts';
import { literalScans } from './script-tables.ts';
import { analyzeSql } from '../sql/analyze.ts';
import type { QualifiedName, TableRef as SqlTableRef } from '../sql/types.ts';
import { POLARS_TIERS, type PolarsTier, type SandboxResult, type SandboxTable } from './sandbox.ts';
import type { PolarsSandbox } from './ports.ts';

/** A table registration as the request gives it. */
export type PolarsTableRef = string | { readonly alias: string; readonly table: string };

/** The request, as the schema parsed it (`PolarsRequest`). */
export interface PolarsRequestInput {
  readonly mode: 'query' | 'script';
  readonly query?: string | undefined;
  readonly tables?: readonly PolarsTableRef[] | undefined;
  readonly script?: string | undefined;
  readonly params?: Readonly<Record<string, string>> | undefined;
  readonly distributed?: boolean | undefined;
  readonly instanceType?: string | undefined;
  readonly clusterSize?: number | undefined;
  readonly vcpus?: number | undefined;
  readonly catalog?: string | undefined;
  readonly destination?: string | undefined;
  readonly saveMode?: 'overwrite' | 'append' | undefined;
}

/** The contract's `PolarsResponse` (always `success: true`: failures are errors). */
export interface PolarsResponse {
  readonly success: true;
  readonly results?: TabularResult;
  readonly row_count: number;
  readonly execution_time: string;
  readonly saved?: { readonly table: string; readonly rows_written: number; readonly mode: 'overwrite' | 'append' };
  readonly compute: { readonly mode: string; readonly distributed: boolean; readonly instanceType: string | null; readonly clusterSize: number | null };
}

/** What the use case needs. */
export interface PolarsDeps {
  readonly orgs: Pick<OrgStore, 'get' | 'addUsage'>;
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  /** Absent when this deployment cannot run polars at all. */
  readonly sandbox?: PolarsSandbox;
  /** Absent where the lake writer cannot read the sandbox's result files: `destination` is refused. */
  readonly writer?: Pick<LakeWriter, 'write'>;
  /** Largest inline result, in bytes of JSON (Lambda answers at most 6 MB). */
  readonly maxResultBytes?: number;
}

/** Inline results stop at 5 MB of JSON, as on the other endpoints. */
export const DEFAULT_MAX_RESULT_BYTES = 5 * 1024 * 1024;

/** The namespace the firewall gives bare names; only registered aliases resolve in it. */
const ALIAS_NAMESPACE = '__registered__';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The contract's duration text. */
const formatMs = (ms: number): string => `${Math.max(0, Math.round(ms))}ms`;

/** A registration: the alias and the table it names. */
interface Registration {
  readonly alias: string;
  readonly name: TableName;
}

const parseRegistration = (ref: PolarsTableRef, index: number): Registration => {
  const field = `tables[${index}]`;
  if (typeof ref === 'string') {
    const eq = ref.indexOf('=');
    if (eq < 0) throw new ValidationError(`${field}: must be alias=namespace.table`);
    const alias = ref.slice(0, eq);
    if (!IDENT.test(alias)) throw new ValidationError(`${field}: alias '${alias}' must be an identifier`);
    return { alias, name: parseTableName(field, ref.slice(eq + 1)) };
  }
  if (!IDENT.test(ref.alias)) throw new ValidationError(`${field}.alias: '${ref.alias}' must be an identifier`);
  return { alias: ref.alias, name: parseTableName(`${field}.table`, ref.table) };
};

/** Checks the fields that depend on `mode`; returns the tier. */
const checkShape = (request: PolarsRequestInput): PolarsTier => {
  const vcpus = request.vcpus ?? 2;
  if (!(POLARS_TIERS as readonly number[]).includes(vcpus)) throw new ValidationError(`vcpus: must be one of ${POLARS_TIERS.join(', ')}`);
  if (request.mode === 'query') {
    if (!request.query) throw new ValidationError('query: is required when mode is query');
    if (!request.tables || request.tables.length === 0) throw new ValidationError('tables: register at least one table when mode is query (alias=namespace.table)');
    if (request.script !== undefined) throw new ValidationError('script: not allowed when mode is query; use mode script');
    if (request.params !== undefined) throw new ValidationError('params: only scripts take params; use mode script');
  } else {
    if (!request.script) throw new ValidationError('script: is required when mode is script');
    if (request.query !== undefined) throw new ValidationError('query: not allowed when mode is script; use mode query');
  }
  if (!request.distributed && (request.instanceType !== undefined || request.clusterSize !== undefined)) {
    throw new ValidationError('instanceType and clusterSize apply only when distributed is true');
  }
  return vcpus as PolarsTier;
};

/**
 * The catalog the request names: the service's default, in any case (the OpenAPI document's
 * pattern says the same). The org's internal catalog name is never shown to callers (ADR 0003),
 * so it is not a name they may use.
 */
const checkCatalog = (catalog: string | undefined): string => {
  if (catalog === undefined || catalog.toLowerCase() === DEFAULT_CATALOG) return DEFAULT_CATALOG;
  throw new ValidationError(`catalog: '${catalog}' is not available; use ${DEFAULT_CATALOG} (your organization's catalog)`);
};

const lookup = (known: readonly CatalogTable[], name: TableName, field: string): CatalogTable => {
  const table = findTable(known, name);
  if (!table) throw new ValidationError(`${field}: table ${name.namespace}.${name.table} does not exist`);
  return table;
};

/** The firewall over a query: only the registered aliases are tables. Returns the aliases it reads. */
const checkQuery = (sql: string, registrations: readonly Registration[]): Set<string> => {
  const aliases = new Map(registrations.map((r) => [r.alias.toLowerCase(), r.alias]));
  const resolveTable = (ref: SqlTableRef): QualifiedName | undefined => {
    if ((ref.catalog ?? DEFAULT_CATALOG) !== DEFAULT_CATALOG || ref.namespace !== ALIAS_NAMESPACE) return undefined;
    const alias = aliases.get(ref.table);
    return alias === undefined ? undefined : { catalog: DEFAULT_CATALOG, namespace: ALIAS_NAMESPACE, table: alias };
  };
  const analysis = analyzeSql(sql, { dialect: 'polars', defaultCatalog: DEFAULT_CATALOG, defaultNamespace: ALIAS_NAMESPACE, resolveTable });
  if (analysis.kind !== 'read') throw new ValidationError('the polars endpoint runs queries only; write tables with destination');
  return new Set(analysis.inputTables.map((t) => t.table));
};

/** The tables a run may read, each under every name the request uses for it. */
const sandboxTables = async (deps: PolarsDeps, known: readonly CatalogTable[], request: PolarsRequestInput): Promise<SandboxTable[]> => {
  const byTable = new Map<string, { table: CatalogTable; names: Set<string> }>();
  const add = (table: CatalogTable, name: string): void => {
    const key = `${table.namespace}.${table.table}`;
    const entry = byTable.get(key) ?? { table, names: new Set([key]) };
    entry.names.add(name);
    byTable.set(key, entry);
  };
  const registrations = (request.tables ?? []).map(parseRegistration);
  const seen = new Set<string>();
  const resolved = registrations.map((r, i) => {
    if (seen.has(r.alias.toLowerCase())) throw new ValidationError(`tables[${i}]: alias '${r.alias}' is registered twice`);
    seen.add(r.alias.toLowerCase());
    return { alias: r.alias, table: lookup(known, r.name, `tables[${i}]`) };
  });
  // A query gets only the registered tables its SQL reads (fewer files to link and scans to plan);
  // a script may scan any registered alias by a computed name, so it gets them all.
  const used = request.mode === 'query' ? checkQuery(request.query as string, registrations) : undefined;
  for (const { alias, table } of resolved) if (!used || used.has(alias)) add(table, alias);
  if (request.mode === 'script') {
    for (const { text, table } of literalScans(request.script as string)) add(lookup(known, table, `scan("${text}")`), `${table.namespace}.${table.table}`);
  }
  return Promise.all(
    [...byTable.values()].map(async ({ table, names }) => {
      const loaded = await loadTable(deps.storage, table);
      return { names: [...names], metadataLocation: table.metadataLocation, location: loaded.engine.location };
    }),
  );
};

/**
 * Runs one polars request for an org.
 *
 * @throws {UnauthorizedError} (401) when the org does not exist
 * @throws {ValidationError} (400) for an invalid request, a refused statement or script, or a run that failed
 * @throws {PaymentRequiredError} (402) without a payment method
 * @throws {ForbiddenError} (403) above the plan's sandbox cap or at the credit limit
 * @throws {CapabilityError} (400) for `distributed` (not configured) or a destination this deployment cannot write
 * @throws {ServiceUnavailableError} (503) when no sandbox can isolate the run here
 */
export async function runPolars(deps: PolarsDeps, orgId: string, request: PolarsRequestInput): Promise<PolarsResponse> {
  const started = performance.now();
  const vcpus = checkShape(request);
  const catalog = checkCatalog(request.catalog);
  const destination = request.destination === undefined ? undefined : parseTableName('destination', request.destination);
  if (destination) refuseLineageWrite('destination', destination);
  const [org, known] = await Promise.all([deps.orgs.get(orgId), deps.catalog.listTables(orgId)]);
  if (!org) throw new UnauthorizedError(`organization ${orgId} does not exist`);
  requireComputeAccess(org, 'polars', vcpus);
  if (request.distributed) {
    // Never run locally while claiming distribution: without a Polars Cloud account there is no run.
    throw new CapabilityError('distributed execution is not configured in this deployment; run without distributed (the local sandbox) or ask the operator to configure Polars Cloud', {
      details: 'distributed: true needs Polars Cloud credentials in the deployment; none are configured',
    });
  }
  if (!deps.sandbox) throw new CapabilityError('the polars sandbox is not available in this deployment');
  if (destination && !deps.writer) throw new CapabilityError('destination is not available in this deployment yet: its lake writer cannot read the sandbox results');
  const tables = await sandboxTables(deps, known, request);

  const source = request.mode === 'query' ? { kind: 'sql' as const, sql: request.query as string } : { kind: 'script' as const, script: request.script as string, params: request.params ?? {} };
  const runStarted = performance.now();
  const result = await deps.sandbox.run({ orgId, source, tables, catalog, vcpus, toFile: destination !== undefined, maxResultBytes: deps.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES });
  const runSeconds = (performance.now() - runStarted) / 1000;
  try {
    const saved = destination ? await save(deps, orgId, destination, result, request.saveMode ?? 'overwrite') : undefined;
    await meter(deps, orgId, result.compute.vcpus * runSeconds);
    return {
      success: true,
      results: result.results,
      row_count: result.rowCount,
      execution_time: formatMs(performance.now() - started),
      ...(saved ? { saved } : {}),
      compute: { mode: result.compute.mode, distributed: false, instanceType: result.compute.instanceType, clusterSize: null },
    };
  } finally {
    await result.file?.release();
  }
}

const save = async (deps: PolarsDeps, orgId: string, destination: TableName, result: SandboxResult, mode: 'overwrite' | 'append') => {
  if (!result.file) throw new Error('the sandbox returned no result file for a destination');
  const written = await (deps.writer as Pick<LakeWriter, 'write'>).write({ orgId, namespace: destination.namespace, table: destination.table, parquet: [result.file.path], mode });
  return { table: `${destination.namespace}.${destination.table}`, rows_written: written.rowsWritten, mode };
};

/** Usage is metered even though no lineage is captured; a failed write of it never fails the run. */
const meter = async (deps: PolarsDeps, orgId: string, vcpuSeconds: number): Promise<void> => {
  await deps.orgs.addUsage(orgId, 'polars', vcpuSeconds, vcpuSeconds * VCPU_SECOND_PRICE_USD.polars).catch(() => undefined);
};
