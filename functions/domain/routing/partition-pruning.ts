/**
 * @module routing/partition-pruning
 * A tighter input estimate for a read that filters on a table's partition columns: instead of the
 * snapshot's `total-files-size`, the size of the files whose partition values can match the
 * filter (the "planned files"). Deliberately narrow, and conservative everywhere else: one table,
 * no joins, a WHERE that is a conjunction of comparisons of a column with literals, identity
 * partitions. A file is dropped only when a predicate is certainly false for its partition value;
 * anything not understood keeps the file, so the estimate never falls below what the query reads.
 */
import { parseSql } from '../sql/parser.ts';
import type { SqlDialect } from '../sql/types.ts';

/** A comparison of a column with literals, from the WHERE clause. */
export interface PartitionPredicate {
  /** The column, lower case. */
  readonly column: string;
  readonly op: 'eq' | 'in' | 'lt' | 'lte' | 'gt' | 'gte' | 'between';
  readonly values: readonly (string | number)[];
}

/** One live file of the current snapshot, as the manifests list it. */
export interface ManifestFile {
  readonly sizeBytes: number;
  /** Partition values by partition field name (dates as ISO text, as Avro's logical types read). */
  readonly partition: Readonly<Record<string, unknown>>;
}

/** Port: reads the live files of a snapshot from its manifest list (Avro). */
export interface ManifestReader {
  files(manifestListLocation: string): Promise<ManifestFile[]>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const only = (v: Json | undefined): [string, Json] | undefined => {
  if (!isObj(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 ? [keys[0] as string, v[keys[0] as string] as Json] : undefined;
};

/** `{literal: {literal_type, value}}` → its value (numbers as numbers), else undefined. */
const literalOf = (v: Json | undefined): string | number | undefined => {
  const node = only(v);
  if (!node || node[0] !== 'literal' || !isObj(node[1])) return undefined;
  const { literal_type: type, value } = node[1];
  if (typeof value !== 'string') return undefined;
  if (type === 'number') return Number.isFinite(Number(value)) ? Number(value) : undefined;
  return type === 'string' || type === 'date' ? value : undefined;
};

/** `{column: {name: {name}, table?: {name}}}` → the column name, if unqualified or qualified by `names`. */
const columnOf = (v: Json | undefined, names: ReadonlySet<string>): string | undefined => {
  const node = only(v);
  if (!node || node[0] !== 'column' || !isObj(node[1])) return undefined;
  const { name, table } = node[1];
  if (!isObj(name) || typeof name.name !== 'string') return undefined;
  if (table !== undefined && table !== null && (!isObj(table) || typeof table.name !== 'string' || !names.has(table.name.toLowerCase()))) return undefined;
  return name.name.toLowerCase();
};

const FLIP: Readonly<Record<string, PartitionPredicate['op']>> = { eq: 'eq', lt: 'gt', lte: 'gte', gt: 'lt', gte: 'lte' };

const predicateOf = (v: Json, names: ReadonlySet<string>): PartitionPredicate | undefined => {
  const node = only(v);
  if (!node || !isObj(node[1])) return undefined;
  const [op, args] = node;
  if (op in FLIP) {
    const left = columnOf(args.left, names);
    const right = literalOf(args.right);
    if (left !== undefined && right !== undefined) return { column: left, op: op as PartitionPredicate['op'], values: [right] };
    const flippedColumn = columnOf(args.right, names);
    const flippedValue = literalOf(args.left);
    if (flippedColumn !== undefined && flippedValue !== undefined) return { column: flippedColumn, op: FLIP[op] as PartitionPredicate['op'], values: [flippedValue] };
    return undefined;
  }
  if (op === 'in' && !args.not && Array.isArray(args.expressions)) {
    const column = columnOf(args.this, names);
    const values = args.expressions.map(literalOf);
    return column !== undefined && values.length > 0 && values.every((x) => x !== undefined) ? { column, op: 'in', values: values as (string | number)[] } : undefined;
  }
  if (op === 'between' && !args.not) {
    const column = columnOf(args.this, names);
    const low = literalOf(args.low);
    const high = literalOf(args.high);
    return column !== undefined && low !== undefined && high !== undefined ? { column, op: 'between', values: [low, high] } : undefined;
  }
  return undefined;
};

const conjuncts = (v: Json): Json[] => {
  const node = only(v);
  if (node && node[0] === 'and' && isObj(node[1])) return [...conjuncts(node[1].left as Json), ...conjuncts(node[1].right as Json)];
  if (node && node[0] === 'paren' && isObj(node[1])) return conjuncts(node[1].this as Json);
  return [v];
};

/**
 * The column-with-literal predicates of a single-table SELECT's WHERE conjunction, or an empty list
 * when the statement has another shape (joins, several tables, set operations, no WHERE).
 */
export const partitionPredicates = (sql: string, dialect: SqlDialect): PartitionPredicate[] => {
  let ast: Json[];
  try {
    ast = parseSql(sql, dialect) as Json[];
  } catch {
    return [];
  }
  const select = only(ast[0]);
  if (!select || select[0] !== 'select' || !isObj(select[1])) return [];
  const body = select[1];
  const from = isObj(body.from) ? body.from.expressions : undefined;
  if (!Array.isArray(from) || from.length !== 1 || (Array.isArray(body.joins) && body.joins.length > 0) || !isObj(body.where_clause)) return [];
  const table = only(from[0]);
  if (!table || table[0] !== 'table' || !isObj(table[1])) return [];
  const names = new Set<string>();
  const { name, alias } = table[1];
  if (isObj(name) && typeof name.name === 'string') names.add(name.name.toLowerCase());
  if (isObj(alias) && typeof alias.name === 'string') names.add(alias.name.toLowerCase());
  return conjuncts(body.where_clause.this as Json).flatMap((c) => predicateOf(c, names) ?? []);
};

/** What a table's metadata says about pruning: its current manifest list and identity partition fields. */
export interface PartitionLayout {
  readonly manifestList?: string;
  /** Partition field name → source column (lower case), over every spec the table has had. */
  readonly identityFields: ReadonlyMap<string, string>;
}

/** Reads the pruning layout from a table's `metadata.json` text. */
export const partitionLayout = (metadataText: string): PartitionLayout => {
  const meta = JSON.parse(metadataText) as {
    'current-snapshot-id'?: number | null;
    snapshots?: { 'snapshot-id': number; 'manifest-list'?: string }[];
    schemas?: { 'schema-id': number; fields: { id: number; name: string }[] }[];
    'current-schema-id'?: number;
    'partition-specs'?: { fields: { 'source-id': number; name: string; transform: string }[] }[];
  };
  const schema = meta.schemas?.find((s) => s['schema-id'] === meta['current-schema-id']);
  const columns = new Map((schema?.fields ?? []).map((f) => [f.id, f.name.toLowerCase()]));
  const identityFields = new Map<string, string>();
  for (const spec of meta['partition-specs'] ?? []) {
    for (const field of spec.fields) {
      const column = columns.get(field['source-id']);
      if (field.transform === 'identity' && column) identityFields.set(field.name, column);
    }
  }
  const manifestList = meta.snapshots?.find((s) => s['snapshot-id'] === meta['current-snapshot-id'])?.['manifest-list'];
  return { identityFields, ...(manifestList ? { manifestList } : {}) };
};

const compare = (a: unknown, b: string | number): number | undefined => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // ISO dates and strings compare as text; a number against text is not understood.
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
};

/** Whether a partition value certainly fails a predicate (anything not understood: false). */
const excludes = (value: unknown, p: PartitionPredicate): boolean => {
  if (value === undefined || value === null) return false;
  const c = (i: number): number | undefined => compare(value, p.values[i] as string | number);
  const first = c(0);
  switch (p.op) {
    case 'eq':
      return first !== undefined && first !== 0;
    case 'in':
      return p.values.every((_, i) => {
        const ci = c(i);
        return ci !== undefined && ci !== 0;
      });
    case 'lt':
      return first !== undefined && first >= 0;
    case 'lte':
      return first !== undefined && first > 0;
    case 'gt':
      return first !== undefined && first <= 0;
    case 'gte':
      return first !== undefined && first < 0;
    case 'between': {
      const high = c(1);
      return (first !== undefined && first < 0) || (high !== undefined && high > 0);
    }
  }
};

/** The files a filter can match, and their size. */
export interface PlannedFiles {
  readonly bytes: number;
  readonly kept: number;
  readonly total: number;
  /** The partition columns the filter constrained. */
  readonly columns: readonly string[];
}

/**
 * Keeps the files whose identity partition values can satisfy every predicate on a partition
 * column. Returns undefined when no predicate is on a partition column (nothing to plan).
 */
export const planFiles = (files: readonly ManifestFile[], layout: PartitionLayout, predicates: readonly PartitionPredicate[]): PlannedFiles | undefined => {
  const onPartitions = [...layout.identityFields].flatMap(([field, column]) => predicates.filter((p) => p.column === column).map((p) => ({ field, p })));
  if (onPartitions.length === 0) return undefined;
  const kept = files.filter((f) => !onPartitions.some(({ field, p }) => excludes(f.partition[field], p)));
  return {
    bytes: kept.reduce((sum, f) => sum + f.sizeBytes, 0),
    kept: kept.length,
    total: files.length,
    columns: [...new Set(onPartitions.map(({ p }) => p.column))],
  };
};
