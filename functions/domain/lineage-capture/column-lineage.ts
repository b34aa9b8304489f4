/**
 * @module lineage-capture/column-lineage
 * The `columnLineage` facet (ColumnLineageDatasetFacet 1-2-0) of a table a lakeline query writes,
 * from its SQL and its resolved input tables. The pinned SQL library (`@polyglot-sql/sdk`, the
 * firewall's parser) gives the per-column `inputFields` with DIRECT transformations (IDENTITY for
 * a copied column, TRANSFORMATION or AGGREGATION for a computed one); the dataset-wide `dataset`
 * entries — the columns that shape every row: INDIRECT JOIN, FILTER, GROUP_BY, SORT, WINDOW — are
 * filled here from its query analysis, which the library's facet leaves out. Hash functions and
 * COUNT are marked as masking, as the spec's examples do.
 *
 * Lineage must never fail a query: whatever the library cannot read gives no facet (`undefined`).
 * The COMPLETE events of every run that writes a table carry it: interactive runs through
 * `withRunLineage` ({@link withColumnLineage}), Spark runs from the facet built at submission
 * (`runs/submit.ts`, kept on the run, so the functions that end runs do not bundle the parser).
 */
import { analyzeQuery, Dialect, generate, init, isInitialized, openLineageColumnLineage, outputColumnsWithSchema, parse, type ColumnUseContext } from '@polyglot-sql/sdk';
import { DEFAULT_CATALOG } from '../core/names.ts';
import { ownTargetQuery } from '../routing/own-target.ts';
import { lexSql } from '../sql/lexer.ts';
import { SQL_DIALECTS, type SqlDialect, type StatementType } from '../sql/types.ts';
import type { LakeDataset } from '../core/lake-dataset.ts';
import { datasetIdentity } from './datasets.ts';
import type { ColumnLineageFacet, InputField, Transformation } from './column-lineage-facet.ts';
import { facet, PRODUCER } from './facets.ts';
import type { QueryOutput, QueryRun } from './run-events.ts';

if (!isInitialized()) await init();

export type { ColumnLineageFacet, InputField, Transformation };

/** What the facet is built from. */
export interface ColumnLineageRequest {
  /** The statement as the caller sent it: a query (written to a destination), a CTAS, or an INSERT. */
  readonly sql: string;
  readonly dialect: SqlDialect;
  /** The tables it reads, resolved (names, locations, columns). */
  readonly inputs: readonly LakeDataset[];
  /** The table it writes; its columns, when known, name the output columns by position. */
  readonly output: LakeDataset;
}

/** How a column used outside the select list shapes the result (OpenLineage's INDIRECT subtypes). */
const INDIRECT_SUBTYPE: Readonly<Record<ColumnUseContext, string>> = {
  join: 'JOIN',
  filter: 'FILTER',
  having: 'FILTER',
  qualify: 'FILTER',
  set_operation_filter: 'FILTER',
  group: 'GROUP_BY',
  order: 'SORT',
  aggregate_order: 'SORT',
  window_partition: 'WINDOW',
  window_order: 'WINDOW',
  window_frame: 'WINDOW',
};

// Functions whose result hides its input (OpenLineage: "hash for TRANSFORMATION and count for AGGREGATION").
const MASKING = /^\s*(?:md5|sha1|sha2|sha224|sha256|sha384|sha512|hash|xxhash32|xxhash64|murmur3|crc32|count)\s*\(/i;

const STATEMENTS: ReadonlyArray<[RegExp, Exclude<StatementType, 'SELECT'>]> = [
  [/^create\s+or\s+replace\b/, 'CREATE_OR_REPLACE_TABLE_AS'],
  [/^create\b/, 'CREATE_TABLE_AS'],
  [/^insert\s+overwrite\b/, 'INSERT_OVERWRITE'],
  [/^insert\b/, 'INSERT'],
];

/** The query part of a statement: the statement itself when it is a query. */
function queryOf(sql: string, dialect: SqlDialect): string | undefined {
  const words = (lexSql(sql, dialect).statements[0] ?? []).filter((t) => t.kind === 'word').slice(0, 3).map((t) => t.value).join(' ');
  const statement = STATEMENTS.find(([pattern]) => pattern.test(words))?.[1];
  if (statement === undefined) return sql;
  try {
    return ownTargetQuery(sql, dialect, statement).sql;
  } catch {
    return undefined;
  }
}

const PARSER_DIALECT: Readonly<Record<SqlDialect, Dialect>> = { duckdb: Dialect.DuckDB, polars: Dialect.DuckDB, spark: Dialect.Spark, trino: Dialect.Trino };
type Node = Record<string, unknown>;
const SET_OPERATIONS = ['union', 'intersect', 'except'];

/**
 * The query with every unnamed select-list expression aliased `_col_<ordinal>` (the name the
 * library's output-column analysis gives it): the library's facet drops the inputs of unnamed
 * columns (`SELECT o_total * 1.2 FROM …`), which are common in INSERTs. The query unchanged when
 * its shape is not understood.
 */
function nameUnnamedColumns(query: string, dialect: SqlDialect): string {
  try {
    const parsed = parse(query, PARSER_DIALECT[dialect]);
    const root = (parsed.ast as Node[] | undefined)?.[0];
    let node: Node | undefined = root;
    // A set operation takes its column names from its leftmost branch.
    for (let key = Object.keys(node ?? {})[0]; node && key && SET_OPERATIONS.includes(key); key = Object.keys(node ?? {})[0]) {
      const op = node[key] as Node;
      node = (op.left ?? op.this) as Node | undefined;
    }
    const select = node?.select as { expressions?: Node[] } | undefined;
    if (!root || !Array.isArray(select?.expressions)) return query;
    let changed = false;
    select.expressions = select.expressions.map((e, i) => {
      if (['alias', 'column', 'star'].includes(Object.keys(e)[0] ?? '')) return e;
      changed = true;
      return { alias: { this: e, alias: { name: `_col_${i}`, quoted: false, trailing_comments: [] }, column_aliases: [], alias_explicit_as: true, pre_alias_comments: [], trailing_comments: [] } };
    });
    if (!changed) return query;
    const generated = generate([root], PARSER_DIALECT[dialect]);
    return generated.success && typeof generated.sql?.[0] === 'string' ? generated.sql[0] : query;
  } catch {
    return query;
  }
}

/** The names a statement may use for a table: `table`, `namespace.table`, `lakeline.namespace.table`. */
const namesOf = (dataset: LakeDataset): string[] => [dataset.table.table, `${dataset.table.namespace}.${dataset.table.table}`, `${DEFAULT_CATALOG}.${dataset.table.namespace}.${dataset.table.table}`];


/**
 * Builds the `columnLineage` facet of the table a query writes, or `undefined` when the SQL cannot
 * be read for lineage (the query itself is unaffected).
 *
 * @example columnLineageFacet({ sql: 'CREATE TABLE a.b AS SELECT id FROM s.t', dialect: 'duckdb', inputs: [t], output: b })
 */
export function columnLineageFacet(request: ColumnLineageRequest): ColumnLineageFacet | undefined {
  const statementQuery = queryOf(request.sql, request.dialect);
  if (statementQuery === undefined) return undefined;
  const query = nameUnnamedColumns(statementQuery, request.dialect);
  const mappings: Record<string, { namespace: string; name: string }> = {};
  const tables: Array<{ name: string; columns: Array<{ name: string; type: string }> }> = [];
  for (const input of request.inputs) {
    for (const name of namesOf(input)) {
      mappings[name] = datasetIdentity(input.location);
      tables.push({ name, columns: input.fields.map((f) => ({ name: f.name, type: f.type })) });
    }
  }
  const output = datasetIdentity(request.output.location);
  const schema = { tables };
  let direct: ReturnType<typeof openLineageColumnLineage>;
  let uses: ReturnType<typeof analyzeQuery>;
  let columns: ReturnType<typeof outputColumnsWithSchema>;
  try {
    direct = openLineageColumnLineage(query, { dialect: request.dialect === 'polars' ? 'duckdb' : request.dialect, producer: PRODUCER, datasetMappings: mappings, outputDataset: output, schema } as Parameters<typeof openLineageColumnLineage>[1]);
    uses = analyzeQuery(query, { dialect: request.dialect === 'polars' ? 'duckdb' : request.dialect, schema } as Parameters<typeof analyzeQuery>[1]);
    columns = outputColumnsWithSchema(query, schema as Parameters<typeof outputColumnsWithSchema>[1], request.dialect === 'polars' ? 'duckdb' : request.dialect);
  } catch {
    return undefined;
  }
  if (!direct.success || !direct.facet) return undefined;

  // The library names columns as the select list does; the written table's columns are positional.
  const ordered = columns.success ? (columns.output?.columns ?? []) : [];
  const target = request.output.fields;
  const rename = new Map<string, string>();
  if (ordered.length === target.length) ordered.forEach((c, i) => c.kind === 'named' && rename.set(c.name, (target[i] as { name: string }).name));

  const fields: Record<string, { inputFields: InputField[] }> = {};
  for (const [name, column] of Object.entries(direct.facet.fields)) {
    fields[rename.get(name) ?? name] = {
      inputFields: column.inputFields.map((f) => ({
        namespace: f.namespace,
        name: f.name,
        field: f.field,
        transformations: (f.transformations ?? []).map((t) => {
          const description = t.description ?? '';
          return { type: t.type === 'INDIRECT' ? 'INDIRECT' : 'DIRECT', subtype: t.subtype, description, masking: Boolean(t.masking) || MASKING.test(description.replace(/^\s*select\s+/i, '')) } as Transformation;
        }),
      })),
    };
  }

  const dataset = new Map<string, { namespace: string; name: string; field: string; transformations: Transformation[] }>();
  for (const use of uses.success ? (uses.analysis?.columnUses ?? []) : []) {
    const subtype = INDIRECT_SUBTYPE[use.context];
    // An ORDER BY inside a subquery or CTE does not order the result.
    if (subtype === undefined || (subtype === 'SORT' && use.scopePath !== 'root')) continue;
    for (const ref of use.references) {
      const identity = ref.table === undefined ? undefined : mappings[ref.table];
      if (identity === undefined || ref.sourceKind !== 'table') continue;
      const key = `${identity.namespace}\u0000${identity.name}\u0000${ref.column}`;
      const entry = dataset.get(key) ?? { ...identity, field: ref.column, transformations: [] };
      if (!entry.transformations.some((t) => t.subtype === subtype)) entry.transformations.push({ type: 'INDIRECT', subtype, description: use.expressionSql, masking: false });
      dataset.set(key, entry);
    }
  }
  const sortedDataset = [...dataset.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
  return facet('columnLineage', { fields, dataset: sortedDataset });
}

/**
 * The table a run wrote, with the `columnLineage` facet of its SQL (left as it is when the run's
 * language is not SQL, a polars script, or the SQL cannot be read for lineage).
 */
export function withColumnLineage(run: Pick<QueryRun, 'sql' | 'dialect' | 'inputs'>, output: QueryOutput): QueryOutput {
  const dialect = SQL_DIALECTS.find((d) => d === run.dialect);
  if (dialect === undefined) return output;
  const columnLineage = columnLineageFacet({ sql: run.sql, dialect, inputs: run.inputs, output: output.dataset });
  return columnLineage ? { ...output, columnLineage } : output;
}
