/**
 * @module query/plan
 * The first step of `POST /api/v1/query`: from a checked request to a {@link RoutedPlan}. The org
 * and a snapshot of its catalog; the SQL firewall reads the statement in the dialect of the engine
 * that will run it and resolves every table against that snapshot; each table's metadata is loaded
 * and its input estimated (the snapshot's size, or the planned files of a partition filter); and
 * `routing/decide.ts` picks engine, mode and size. Nothing runs and nothing is checked against the
 * bill here: `explain` answers the plan's decision; `run-interactive.ts` and `submit.ts` run the
 * plan as it is, without deriving any of it again.
 */
import { DomainError, UnauthorizedError, ValidationError } from '../errors.ts';
import { DEFAULT_CATALOG, qualifiedName, type TableName } from '../core/names.ts';
import type { Catalog, CatalogTable, LakeStorage } from '../lake/ports.ts';
import { catalogResolver, findTable, loadInputTables, type LoadedTable } from '../lake/query-tables.ts';
import { queryJob, type JobIdentity } from '../core/query-job.ts';
import type { Org } from '../orgs/org.ts';
import { planOf } from '../core/plans.ts';
import type { OrgStore } from '../orgs/ports.ts';
import { literalScans } from '../polars/script-tables.ts';
import { decideRoute, type InputEstimate, type Route, type RoutedAction, type RoutedWrite, type RoutingContext } from '../routing/decide.ts';
import { ownTargetQuery } from '../routing/own-target.ts';
import { partitionLayout, partitionPredicates, planFiles } from '../routing/partition-pruning.ts';
import type { ManifestReader } from '../routing/ports.ts';
import { refuseReserved, type CheckedRoutedRequest } from '../routing/request.ts';
import { aliasTables, polarsAlias } from '../routing/table-aliases.ts';
import type { BandRow } from '../routing/table.ts';
import { analyzeSql } from '../sql/analyze.ts';
import type { AnalyzeSqlOptions, QualifiedName, SqlAnalysis, SqlDialect, StatementType, TableRef } from '../sql/types.ts';
import type { PolarsTable, QueryEngines } from './ports.ts';

/** What planning needs. */
export interface PlanDeps {
  readonly orgs: Pick<OrgStore, 'get'>;
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  /** Reads manifests for the planned-files estimate; without it every estimate is the snapshot's size. */
  readonly manifests?: ManifestReader;
  readonly routingTable: readonly BandRow[];
  /** The engines this deployment configures (the decision asks only which are there). */
  readonly engines: QueryEngines;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

/** A write, with its table name and whether the statement said IF NOT EXISTS. */
export type PlannedWrite = RoutedWrite & { readonly name: TableName; readonly ifNotExists: boolean };

/** An SQL request's statement, as the firewall read it. */
export interface PlannedStatement {
  /** The firewall's reading of the whole statement, in `dialect`. */
  readonly analysis: SqlAnalysis;
  readonly dialect: SqlDialect;
  /** The SQL an engine runs: the statement itself, or the query of an own-target statement. */
  readonly runSql: string;
  readonly write?: PlannedWrite;
  /** For pinned polars: `runSql` as polars runs it, table references replaced by their aliases. */
  readonly polarsSql?: string;
}

/** What every plan knows, whatever it runs. */
interface PlanCommon {
  readonly orgId: string;
  readonly org: Org;
  readonly request: CheckedRoutedRequest;
  /** The snapshot of the org's catalog the request's tables were resolved against. */
  readonly known: readonly CatalogTable[];
  /** The lineage job: the normalized statement's hash, or the script's. */
  readonly job: JobIdentity;
  /** Every table the request reads, with its current metadata. */
  readonly inputs: readonly LoadedTable[];
  /** The input estimates the decision was made on. */
  readonly estimates: readonly InputEstimate[];
  /** The routing decision (its `action` is this plan's `kind`, with what the action needs below). */
  readonly route: Route;
  /** The tables as a polars run registers them. */
  readonly polarsTables: readonly PolarsTable[];
}

/** The action's own part of a plan: the action of `K`, without its `kind`. */
type ActionOf<K extends RoutedAction['kind']> = Omit<Extract<RoutedAction, { kind: K }>, 'kind'> & { readonly kind: K };

/** A read answered within the request: an SQL statement on DuckDB or polars, or a polars script. */
export type InteractivePlan = PlanCommon &
  ActionOf<'interactive'> &
  (
    | { readonly statement: PlannedStatement; readonly script?: undefined }
    | { readonly script: string; readonly statement?: undefined }
  );

/** A Spark run that writes the request's destination or the statement's own target. */
export type BatchWritePlan = PlanCommon & ActionOf<'batch-write'> & { readonly statement: PlannedStatement; readonly write: PlannedWrite };

/** A Spark run whose rows land in the run's results table. */
export type BatchReadPlan = PlanCommon & ActionOf<'batch-read'> & { readonly statement: PlannedStatement; readonly write?: undefined };

/** A bloom run whose rows land in the run's results table. */
export type BloomReadPlan = PlanCommon & ActionOf<'bloom-read'> & { readonly statement: PlannedStatement; readonly write?: undefined };

/** Everything known about a routed request once it is planned: one variant per action, each with what its action needs. */
export type RoutedPlan = InteractivePlan | BatchWritePlan | BatchReadPlan | BloomReadPlan;

/**
 * Plans a routed request.
 *
 * @throws {UnauthorizedError} (401) for an org that does not exist
 * @throws {ValidationError} (400) refused SQL, unknown tables, a statement with its own target and a destination
 * @throws {CapabilityError} (400) the pinned engine cannot run the request
 */
export async function planRoutedQuery(deps: PlanDeps, orgId: string, request: CheckedRoutedRequest): Promise<RoutedPlan> {
  const [org, known] = await Promise.all([deps.orgs.get(orgId), deps.catalog.listTables(orgId)]);
  if (!org) throw new UnauthorizedError(`organization ${orgId} does not exist`);
  const context: RoutingContext = {
    table: deps.routingTable,
    configured: { polars: deps.engines.polars !== undefined, spark: deps.engines.spark !== undefined, bloom: deps.engines.bloom !== undefined },
    plan: planOf(org),
  };
  const common = { orgId, org, request, known };
  const planned = request.source.kind === 'script' ? await planScript(deps, known, request, request.source, context) : await planStatement(deps, known, request, request.source.sql, context);
  return withAction({ ...common, ...planned });
}

/** A plan before its action is spelled out: the statement or script, and the route. */
type Planned = Omit<PlanCommon, 'orgId' | 'org' | 'request' | 'known'> & ({ readonly statement: PlannedStatement; readonly script?: undefined } | { readonly script: string; readonly statement?: undefined });

/**
 * The plan of the route's action, each variant with what its action needs. A batch or bloom
 * action is only ever decided for an SQL statement (a script runs interactively or is refused),
 * and a batch write only for a statement with a write: anything else is a routing bug.
 */
const withAction = (planned: PlanCommon & Omit<Planned, keyof PlanCommon>): RoutedPlan => {
  const { statement, script, ...common } = planned;
  const action = common.route.action;
  if (script !== undefined) {
    if (action.kind !== 'interactive') throw new Error(`routing chose ${action.kind} for a script`);
    return { ...common, ...action, script };
  }
  if (!statement) throw new Error('a plan has a statement or a script');
  if (action.kind === 'interactive') return { ...common, ...action, statement };
  if (action.kind === 'batch-write') {
    if (!statement.write) throw new Error('routing chose a batch write for a statement that writes nothing');
    return { ...common, ...action, statement, write: statement.write };
  }
  return { ...common, ...action, statement };
};

/** The polars endpoint's rule: the registered tables, plus the tables a script scans by a literal name. */
const planScript = async (
  deps: PlanDeps,
  known: readonly CatalogTable[],
  request: CheckedRoutedRequest,
  source: Extract<CheckedRoutedRequest['source'], { kind: 'script' }>,
  context: RoutingContext,
): Promise<Planned> => {
  const registered = source.tables.map((t, i) => ({ alias: t.alias as string | undefined, found: existing(known, t.table, `tables.${i}`) }));
  const scanned = literalScans(source.script)
    .map(({ text, table }) => ({ alias: undefined, found: existing(known, table, `scan("${text}")`) }))
    .filter(({ found }) => !registered.some((r) => r.found === found));
  const reads = [...registered, ...scanned];
  const inputs = await loadInputTables(deps.storage, known, reads.map(({ found }) => ({ namespace: found.namespace, table: found.table })));
  const write = request.destination ? destinationWrite(request) : undefined;
  const sized = snapshotEstimates(inputs);
  return {
    script: source.script,
    job: queryJob(`script:${source.script}`),
    inputs,
    estimates: sized,
    route: decideRoute({ engine: request.engine, kind: 'script', ...(write ? { write } : {}), inputs: sized }, context),
    polarsTables: reads.map(({ alias }, i) => ({ ...(alias === undefined ? {} : { alias }), table: inputs[i] as LoadedTable })),
  };
};

const planStatement = async (deps: PlanDeps, known: readonly CatalogTable[], request: CheckedRoutedRequest, sql: string, context: RoutingContext): Promise<Planned> => {
  // The statement is read in the dialect of the engine that will run it: Spark SQL when Spark is
  // pinned, Trino SQL (Athena's dialect) when bloom is, DuckDB's otherwise (the interactive engine
  // of `auto`; Spark reads a write's query again as Spark SQL when it is submitted, `submit.ts`).
  const dialect: SqlDialect = request.engine === 'spark' ? 'spark' : request.engine === 'bloom' ? 'trino' : 'duckdb';
  const options = { defaultCatalog: DEFAULT_CATALOG, resolveTable: catalogResolver(known), resolveTarget: targetResolver(known) };
  const analysis = analyzeSql(sql, { dialect, ...options });
  // Passed the firewall as DuckDB SQL, but polars SQL cannot read it: a capability question.
  const polarsRefusal = request.engine === 'polars' ? refusal(sql, 'polars', options) : undefined;
  // Passed the firewall as DuckDB SQL, but not as Trino SQL: bloom is not a choice for it; `auto` asks before choosing bloom.
  const trinoRefusal = deps.engines.bloom !== undefined && request.engine === 'auto' && analysis.kind === 'read' && !request.destination ? refusal(sql, 'trino', options) : undefined;
  const { write, runSql } = writeOf(request, sql, dialect, analysis);
  const inputs = await loadInputTables(deps.storage, known, analysis.inputTables);
  const sized = write ? snapshotEstimates(inputs) : await plannedEstimates(deps, inputs, sql, dialect);
  const route = decideRoute(
    { engine: request.engine, kind: 'query', ...(write ? { write } : {}), inputs: sized, ...(polarsRefusal ? { polarsRefusal } : {}), ...(trinoRefusal ? { trinoRefusal } : {}) },
    context,
  );
  const names = inputs.map((t) => t.engine.name);
  return {
    statement: {
      analysis,
      dialect,
      runSql,
      ...(write ? { write } : {}),
      ...(request.engine === 'polars' ? { polarsSql: aliasTables(runSql, 'polars', names) } : {}),
    },
    job: queryJob(analysis.normalizedSql),
    inputs,
    estimates: sized,
    route,
    // polars SQL resolves plain names only: each table under its alias, the SQL rewritten to match.
    polarsTables: inputs.map((t) => ({ alias: polarsAlias(t.engine.name), table: t })),
  };
};

/** Why the firewall in another dialect refuses the statement, or undefined when it accepts it. */
const refusal = (sql: string, dialect: SqlDialect, options: Omit<AnalyzeSqlOptions, 'dialect'>): string | undefined => {
  try {
    analyzeSql(sql, { dialect, ...options });
    return undefined;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return err.message;
  }
};

/** The write of a statement with its own target, or of the request's destination, and the SQL the engine runs. */
const writeOf = (request: CheckedRoutedRequest, sql: string, dialect: SqlDialect, analysis: SqlAnalysis): { write?: PlannedWrite; runSql: string } => {
  if (analysis.kind === 'write-own-target' && analysis.target) {
    if (request.destination) throw new ValidationError('destination: the statement writes its own target table; send either such a statement or a destination, not both');
    const statementType = analysis.statementType as Exclude<StatementType, 'SELECT'>;
    const own = ownTargetQuery(sql, dialect, statementType);
    const name = { namespace: analysis.target.namespace, table: analysis.target.table };
    return { write: { via: 'statement', table: qualifiedName(name), mode: own.mode, statementType, name, ifNotExists: analysis.target.ifNotExists === true }, runSql: own.sql };
  }
  return request.destination ? { write: { ...destinationWrite(request), name: request.destination, ifNotExists: false }, runSql: sql } : { runSql: sql };
};

/** Resolves a write target: the caller's own namespaces, never a reserved one. */
const targetResolver =
  (known: readonly CatalogTable[]) =>
  (ref: TableRef): QualifiedName | undefined => {
    if ((ref.catalog ?? DEFAULT_CATALOG).toLowerCase() !== DEFAULT_CATALOG || ref.namespace === undefined) return undefined;
    refuseReserved('query', { namespace: ref.namespace, table: ref.table });
    const found = findTable(known, { namespace: ref.namespace, table: ref.table });
    return { catalog: DEFAULT_CATALOG, namespace: found?.namespace ?? ref.namespace, table: found?.table ?? ref.table };
  };

const destinationWrite = (request: CheckedRoutedRequest): RoutedWrite => ({
  via: 'destination',
  table: qualifiedName(request.destination as TableName),
  mode: request.writeMode,
});

/** A table of the org's catalog snapshot, or 400 naming the field that named it. */
const existing = (known: readonly CatalogTable[], name: TableName, field: string): CatalogTable => {
  const found = findTable(known, name);
  if (!found) throw new ValidationError(`${field}: table ${qualifiedName(name)} does not exist`);
  return found;
};

const snapshotEstimates = (inputs: readonly LoadedTable[]): InputEstimate[] =>
  inputs.map((t) => ({ table: qualifiedName(t.engine.name), bytes: Number(t.description.size_bytes), source: 'snapshot' as const }));

/**
 * The estimate of a read of one partitioned table that filters on its partition columns: the size
 * of the files the filter can match. Anything else, or any failure reading the manifests (logged),
 * falls back to the snapshot's size: a larger estimate only picks a larger band.
 */
const plannedEstimates = async (deps: PlanDeps, inputs: readonly LoadedTable[], sql: string, dialect: SqlDialect): Promise<InputEstimate[]> => {
  const plain = snapshotEstimates(inputs);
  const table = inputs[0];
  if (!deps.manifests || inputs.length !== 1 || !table || table.description.partition_spec.length === 0) return plain;
  const predicates = partitionPredicates(sql, dialect);
  if (predicates.length === 0) return plain;
  try {
    const layout = partitionLayout(await deps.storage.readText(table.engine.metadataLocation));
    if (!layout.manifestList || layout.fields.size === 0) return plain;
    const planned = planFiles(await deps.manifests.files(layout.manifestList), layout, predicates);
    if (!planned) return plain;
    const snapshotBytes = (plain[0] as InputEstimate).bytes;
    return [{ table: qualifiedName(table.engine.name), bytes: planned.bytes, source: 'planned', planned: { kept: planned.kept, total: planned.total, columns: planned.columns, snapshotBytes } }];
  } catch (err) {
    deps.warn('planned files not read; the snapshot size is the estimate', { table: qualifiedName(table.engine.name), error: err });
    return plain;
  }
};
