/**
 * @module routing/partition-pruning
 * A tighter input estimate for a read that filters on a table's partition columns: instead of the
 * snapshot's `total-files-size`, the size of the files whose partition values can match the
 * filter (the "planned files"). Deliberately narrow, and conservative everywhere else: one table,
 * no joins, a WHERE that is a conjunction of comparisons of a column with literals, identity
 * partitions and the temporal transforms (year, month, day, hour; see temporal-transforms.ts).
 * A file is dropped only when a predicate is certainly false for its partition value; anything not
 * understood keeps the file, so the estimate never falls below what the query reads.
 */
import { parseSql } from '../sql/parser.ts';
import type { SqlDialect } from '../sql/types.ts';
import type { ManifestFile } from './ports.ts';
import { isTemporalTransform, isTimestampType, literalInstants, ordinalOf, partitionOrdinal, type TemporalTransform } from './temporal-transforms.ts';

/** A comparison of a column with literals, from the WHERE clause. */
export interface PartitionPredicate {
  /** The column, lower case. */
  readonly column: string;
  readonly op: 'eq' | 'in' | 'lt' | 'lte' | 'gt' | 'gte' | 'between';
  readonly values: readonly (string | number)[];
  /**
   * A value was written as a timestamp (`TIMESTAMP '…'`, a cast): only the temporal transforms read
   * it, since as text it does not order like the partition values identity partitions hold.
   */
  readonly timeLiteral?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const only = (v: Json | undefined): [string, Json] | undefined => {
  if (!isObj(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 ? [keys[0] as string, v[keys[0] as string] as Json] : undefined;
};

/** A literal's value (numbers as numbers), and whether it was written as a timestamp. */
interface Literal {
  readonly value: string | number;
  readonly time: boolean;
}

/**
 * `{literal: {literal_type, value}}` → its value; a timestamp literal and a cast of a text literal
 * to a date or timestamp (`TIMESTAMPTZ '…'` parses as one) are marked as time. Else undefined.
 */
const literalOf = (v: Json | undefined): Literal | undefined => {
  const node = only(v);
  if (node && node[0] === 'cast' && isObj(node[1]) && isObj(node[1].to) && ['date', 'timestamp'].includes(String(node[1].to.data_type))) {
    const inner = literalOf(node[1].this);
    return inner && typeof inner.value === 'string' ? { value: inner.value, time: true } : undefined;
  }
  if (!node || node[0] !== 'literal' || !isObj(node[1])) return undefined;
  const { literal_type: type, value } = node[1];
  if (typeof value !== 'string') return undefined;
  if (type === 'number') return Number.isFinite(Number(value)) ? { value: Number(value), time: false } : undefined;
  if (type === 'timestamp') return { value, time: true };
  return type === 'string' || type === 'date' ? { value, time: false } : undefined;
};

/** A predicate of a column and its literals. */
const predicate = (column: string, op: PartitionPredicate['op'], literals: readonly Literal[]): PartitionPredicate => ({
  column,
  op,
  values: literals.map((l) => l.value),
  ...(literals.some((l) => l.time) ? { timeLiteral: true } : {}),
});

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
    if (left !== undefined && right !== undefined) return predicate(left, op as PartitionPredicate['op'], [right]);
    const flippedColumn = columnOf(args.right, names);
    const flippedValue = literalOf(args.left);
    if (flippedColumn !== undefined && flippedValue !== undefined) return predicate(flippedColumn, FLIP[op] as PartitionPredicate['op'], [flippedValue]);
    return undefined;
  }
  if (op === 'in' && !args.not && Array.isArray(args.expressions)) {
    const column = columnOf(args.this, names);
    const values = args.expressions.map(literalOf);
    return column !== undefined && values.length > 0 && values.every((x) => x !== undefined) ? predicate(column, 'in', values as Literal[]) : undefined;
  }
  if (op === 'between' && !args.not) {
    const column = columnOf(args.this, names);
    const low = literalOf(args.low);
    const high = literalOf(args.high);
    return column !== undefined && low !== undefined && high !== undefined ? predicate(column, 'between', [low, high]) : undefined;
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

/** A partition field the planner can read: an identity or temporal transform of a column. */
export interface PrunableField {
  /** The source column, lower case. */
  readonly column: string;
  /** The source column's Iceberg type (`string`, `date`, `timestamptz`, …; `nested` for structs). */
  readonly columnType: string;
  readonly transform: 'identity' | TemporalTransform;
}

/** What a table's metadata says about pruning: its current manifest list and prunable partition fields. */
export interface PartitionLayout {
  readonly manifestList?: string;
  /** Partition field name → its source column and transform, over every spec the table has had. */
  readonly fields: ReadonlyMap<string, PrunableField>;
}

/** Reads the pruning layout from a table's `metadata.json` text. */
export const partitionLayout = (metadataText: string): PartitionLayout => {
  const meta = JSON.parse(metadataText) as {
    'current-snapshot-id'?: number | null;
    snapshots?: { 'snapshot-id': number; 'manifest-list'?: string }[];
    schemas?: { 'schema-id': number; fields: { id: number; name: string; type: unknown }[] }[];
    'current-schema-id'?: number;
    'partition-specs'?: { fields: { 'source-id': number; name: string; transform: string }[] }[];
  };
  const schema = meta.schemas?.find((s) => s['schema-id'] === meta['current-schema-id']);
  const columns = new Map((schema?.fields ?? []).map((f) => [f.id, { column: f.name.toLowerCase(), columnType: typeof f.type === 'string' ? f.type : 'nested' }]));
  const fields = new Map<string, PrunableField>();
  for (const spec of meta['partition-specs'] ?? []) {
    for (const field of spec.fields) {
      const source = columns.get(field['source-id']);
      // bucket[N], truncate[W] and void are not read: their files are always kept.
      if (source && (field.transform === 'identity' || isTemporalTransform(field.transform))) fields.set(field.name, { ...source, transform: field.transform });
    }
  }
  const manifestList = meta.snapshots?.find((s) => s['snapshot-id'] === meta['current-snapshot-id'])?.['manifest-list'];
  return { fields, ...(manifestList ? { manifestList } : {}) };
};

const compare = (a: unknown, b: string | number): number | undefined => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // ISO dates and strings compare as text; a number against text is not understood.
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
};

/**
 * Whether an identity partition value certainly fails a predicate (anything not understood:
 * false). Values of timestamp columns are not compared: as text they need not order like time.
 */
const identityExcludes = (value: unknown, field: PrunableField, p: PartitionPredicate): boolean => {
  if (value === undefined || value === null || p.timeLiteral || isTimestampType(field.columnType)) return false;
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

/** Inclusive ranges of ordinals; `±Infinity` for an open end. */
type Ranges = readonly (readonly [number, number])[];

/**
 * The ordinals of a temporal transform that a predicate on its source column allows, or undefined
 * when a literal is not understood. The transforms are monotonic, so `ts < L` allows
 * `day(ts) <= day(L)` and so on (Iceberg's inclusive projection).
 */
const allowedOrdinals = (field: PrunableField & { transform: TemporalTransform }, p: PartitionPredicate): Ranges | undefined => {
  const spans: [number, number][] = [];
  for (const value of p.values) {
    const instants = typeof value === 'string' ? literalInstants(value, field.columnType) : undefined;
    if (instants === undefined) return undefined;
    spans.push([ordinalOf(instants[0], field.transform), ordinalOf(instants[1], field.transform)]);
  }
  const [first, second] = spans as [[number, number], [number, number] | undefined];
  switch (p.op) {
    case 'eq':
    case 'in':
      return spans;
    case 'lt':
    case 'lte':
      return [[Number.NEGATIVE_INFINITY, first[1]]];
    case 'gt':
    case 'gte':
      return [[first[0], Number.POSITIVE_INFINITY]];
    case 'between':
      return second === undefined ? undefined : [[first[0], second[1]]];
  }
};

/** Whether a file's partition value certainly fails one predicate (anything not understood: false). */
type Excluder = (partition: Readonly<Record<string, unknown>>) => boolean;

/**
 * The test of one predicate against one partition field, prepared once for all the files: a
 * temporal field's allowed ordinals are computed here, not per file.
 */
const excluderOf = (name: string, field: PrunableField, p: PartitionPredicate): Excluder => {
  if (field.transform === 'identity') return (partition) => identityExcludes(partition[name], field, p);
  const transform = field.transform;
  const allowed = allowedOrdinals({ ...field, transform }, p);
  if (allowed === undefined) return () => false;
  return (partition) => {
    const ordinal = partitionOrdinal(partition[name], transform);
    return ordinal !== undefined && !allowed.some(([low, high]) => ordinal >= low && ordinal <= high);
  };
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
 * Keeps the files whose partition values can satisfy every predicate on a partition's source
 * column. Returns undefined when no predicate is on such a column (nothing to plan).
 */
export const planFiles = (files: readonly ManifestFile[], layout: PartitionLayout, predicates: readonly PartitionPredicate[]): PlannedFiles | undefined => {
  const onPartitions = [...layout.fields].flatMap(([name, field]) => predicates.filter((p) => p.column === field.column).map((p) => ({ name, field, p })));
  if (onPartitions.length === 0) return undefined;
  const excluders = onPartitions.map(({ name, field, p }) => excluderOf(name, field, p));
  const kept = files.filter((f) => !excluders.some((excludes) => excludes(f.partition)));
  return {
    bytes: kept.reduce((sum, f) => sum + f.sizeBytes, 0),
    kept: kept.length,
    total: files.length,
    columns: [...new Set(onPartitions.map(({ p }) => p.column))],
  };
};
