/**
 * @module lineage-graph/ids
 * Identities in the lineage read model: deterministic UUIDs for jobs, datasets, namespaces, job
 * versions, dataset versions and the synthetic runs of JobEvents (so a rebuild gives the same ids
 * as incremental maintenance), and Marquez's node ids (`job:ns:name`, `dataset:ns:name`,
 * `datasetField:ns:name:field`) with Marquez's parsing rules for namespaces holding `://` and `:`.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../errors.ts';

/** A dataset or job named by its OpenLineage identity. */
export interface QualifiedName {
  readonly namespace: string;
  readonly name: string;
}

/**
 * A UUID (RFC 9562 version 8) made of the first 128 bits of SHA-256 over a domain tag and the
 * parts, NUL-separated: the same construction as event ids (`lineage/event-id.ts`), one tag per
 * kind so that a job and a dataset with the same name never share an id.
 */
const hashUuid = (kind: string, parts: readonly string[]): string => {
  const hash = createHash('sha256').update(`lakeline/lineage-${kind}/v1\n`).update(parts.join('\u0000')).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x80;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/**
 * Remembers the ids of recent names: the consumer and the graph compute the same few thousand ids
 * over and over (measured: hashing was a tenth of the consumer's CPU). Bounded; cleared when full.
 */
const memo = (kind: string): ((name: QualifiedName) => string) => {
  const known = new Map<string, string>();
  return (name) => {
    const key = `${name.namespace}\u0000${name.name}`;
    let id = known.get(key);
    if (id === undefined) {
      if (known.size >= 100_000) known.clear();
      known.set(key, (id = hashUuid(kind, [name.namespace, name.name])));
    }
    return id;
  };
};

/** The id of a job. */
export const jobIdOf: (job: QualifiedName) => string = memo('job');

/** The id of a dataset name (each name a dataset is sent under has its own id; symlinks join them at read time). */
export const datasetIdOf: (dataset: QualifiedName) => string = memo('dataset');

/** The id of a namespace. */
export const namespaceIdOf = (namespace: string): string => hashUuid('namespace', [namespace]);

/** The id of a tag name (its key in the tag list). */
export const tagIdOf = (tag: string): string => hashUuid('tag', [tag]);

/** The version a run made of a dataset it wrote: one per (dataset name, run). */
export const datasetVersionIdOf = (dataset: QualifiedName, runId: string): string => hashUuid('dataset-version', [dataset.namespace, dataset.name, runId]);

/**
 * A job version, as Marquez computes it: a function of the job and the datasets it read and wrote,
 * so runs with the same inputs and outputs share a version.
 */
export const jobVersionIdOf = (job: QualifiedName, inputs: readonly QualifiedName[], outputs: readonly QualifiedName[]): string => {
  const names = (refs: readonly QualifiedName[]) => refs.map((r) => `${r.namespace}\u0001${r.name}`).sort();
  return hashUuid('job-version', [job.namespace, job.name, 'in', ...names(inputs), 'out', ...names(outputs)]);
};

/** The run id standing for a JobEvent (static lineage): a job version with no run, keyed by the event. */
export const staticRunIdOf = (eventId: string): string => hashUuid('static-run', [eventId]);

/** Node types of Marquez's graphs. */
export type NodeType = 'DATASET' | 'JOB' | 'DATASET_FIELD';

/** A parsed node id. */
export type NodeId =
  | { readonly type: 'JOB'; readonly namespace: string; readonly name: string; readonly version?: string }
  | { readonly type: 'DATASET'; readonly namespace: string; readonly name: string; readonly version?: string }
  | { readonly type: 'DATASET_FIELD'; readonly namespace: string; readonly name: string; readonly field: string; readonly version?: string };

/** `job:<namespace>:<name>`. */
export const jobNodeId = (job: QualifiedName): string => `job:${job.namespace}:${job.name}`;
/** `dataset:<namespace>:<name>`. */
export const datasetNodeId = (dataset: QualifiedName): string => `dataset:${dataset.namespace}:${dataset.name}`;
/** `datasetField:<namespace>:<dataset>:<field>`. */
export const datasetFieldNodeId = (dataset: QualifiedName, field: string): string => `datasetField:${dataset.namespace}:${dataset.name}:${field}`;

const PREFIXES: Readonly<Record<string, { type: NodeType; parts: number }>> = {
  job: { type: 'JOB', parts: 3 },
  dataset: { type: 'DATASET', parts: 3 },
  datasetField: { type: 'DATASET_FIELD', parts: 4 },
};

/**
 * Most `:` a node id may hold after its type: each is a place the id might split, and each reading
 * is a key the endpoint reads when Marquez's guess names nothing (in one batch, ADR 0043). A job or
 * dataset id has one reading per colon (16 at most); a field id one per pair of colons (28 for 8:
 * an `arn:aws:…` namespace holds 4 and a name may hold one).
 */
export const MAX_NODE_ID_COLONS = { JOB: 16, DATASET: 16, DATASET_FIELD: 8 } as const satisfies Record<NodeType, number>;

const VERSION_SUFFIX = /#([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
// Marquez's rule for ids with more `:` than parts: a colon followed by `//` (a URI scheme) or by
// digits (a port) does not separate parts.
const SEPARATOR = /:(?!\/\/|\d+)/g;

const typeOf = (value: string, parameter: string, allowed: readonly NodeType[]): { prefix: string; spec: { type: NodeType; parts: number } } => {
  const prefix = value.slice(0, value.indexOf(':'));
  const spec = value.includes(':') ? PREFIXES[prefix] : undefined;
  if (spec === undefined || !allowed.includes(spec.type)) {
    const names = Object.entries(PREFIXES).filter(([, s]) => allowed.includes(s.type)).map(([p]) => `'${p}:'`);
    throw new ValidationError(`${parameter}: must start with ${names.join(' or ')}`);
  }
  return { prefix, spec };
};

/** Every way to cut `rest` at `cuts` of its colons into non-empty parts, in order of the cut positions. */
const allSplits = (rest: string, cuts: number): string[][] => {
  const colons = [...rest.matchAll(/:/g)].map((m) => m.index);
  const out: string[][] = [];
  const walk = (from: number, start: number, parts: string[]): void => {
    if (parts.length === cuts) {
      const last = rest.slice(start);
      if (last !== '') out.push([...parts, last]);
      return;
    }
    for (let k = from; k < colons.length; k++) {
      const at = colons[k] as number;
      const part = rest.slice(start, at);
      if (part !== '') walk(k + 1, at + 1, [...parts, part]);
    }
  };
  walk(0, 0, []);
  return out;
};

const nodeOf = (type: NodeType, parts: readonly string[], version: string | undefined): NodeId => {
  const [namespace, name, field] = parts as [string, string, string?];
  const versioned = version === undefined ? {} : { version };
  if (type === 'DATASET_FIELD') return { type, namespace, name, field: field as string, ...versioned };
  return { type, namespace, name, ...versioned } as NodeId;
};

/**
 * Every reading of a node id: each way its colons can separate a namespace, a name (and a field)
 * that are not empty. Marquez's guess (`parseNodeId`) comes first, then the others by the position
 * of their cuts. A namespace or name may hold `:` (`file:/tmp/x`, `hdfs://host:8020`,
 * `arn:aws:…`), so only what exists tells the readings apart: the endpoints take the first that
 * does (`resolve-node-id.ts`, ADR 0043). A trailing `#<uuid>` is a version when the rest still
 * reads as a node id.
 *
 * @throws {ValidationError} naming the parameter, for an unknown type, no reading, or more colons
 * than `MAX_NODE_ID_COLONS`
 */
export function nodeIdReadings(value: string, parameter: string, allowed: readonly NodeType[]): NodeId[] {
  const { prefix, spec } = typeOf(value, parameter, allowed);
  const colons = value.length - value.replaceAll(':', '').length - 1;
  if (colons > MAX_NODE_ID_COLONS[spec.type]) {
    throw new ValidationError(`${parameter}: holds more than ${MAX_NODE_ID_COLONS[spec.type]} ':' after '${prefix}:' (too many readings to resolve)`);
  }
  const versionMatch = VERSION_SUFFIX.exec(value);
  const readAt = (body: string, version: string | undefined): NodeId[] => {
    const rest = body.slice(prefix.length + 1);
    const splits = allSplits(rest, spec.parts - 2);
    if (splits.length === 0) return [];
    const guess = marquezSplit(body, spec.parts).slice(1);
    const key = (parts: readonly string[]) => parts.join('\u0000');
    const guessed = splits.find((parts) => key(parts) === key(guess));
    const ordered = guessed ? [guessed, ...splits.filter((parts) => parts !== guessed)] : splits;
    return ordered.map((parts) => nodeOf(spec.type, parts, version));
  };
  const versioned = versionMatch ? readAt(value.slice(0, versionMatch.index), versionMatch[1]?.toLowerCase()) : [];
  const readings = versioned.length > 0 ? versioned : readAt(value, undefined);
  if (readings.length === 0) {
    const shape = spec.type === 'DATASET_FIELD' ? 'datasetField:<namespace>:<dataset>:<field>' : `${prefix}:<namespace>:<name>`;
    throw new ValidationError(`${parameter}: must be ${shape}`);
  }
  return readings;
}

/**
 * Parses a node id the way Marquez 0.51 does (`NodeId.parts`) where that reading is one: split on
 * `:`; when that gives more parts than the type has, only colons not followed by `//` or digits
 * separate, and the last part takes the rest (`dataset:postgresql://host:5432/db:my_table`,
 * `job:org://team:my-job`, `dataset:ns:my_struct<a:bigint>`). A trailing `#<uuid>` is a version.
 * It is the first of `nodeIdReadings`.
 *
 * @param parameter - the query parameter named in errors
 * @param allowed - node types the endpoint accepts
 * @throws {ValidationError} naming the parameter, for an empty value, an unknown type or missing parts
 */
export function parseNodeId(value: string, parameter: string, allowed: readonly NodeType[]): NodeId {
  return nodeIdReadings(value, parameter, allowed)[0] as NodeId;
}

/** Marquez's split of `type:…` into the type's parts (possibly fewer, or with empty ones). */
const marquezSplit = (body: string, expected: number): string[] => {
  const parts = body.split(':');
  return parts.length > expected ? splitOutsideUris(body, expected) : parts;
};

const splitOutsideUris = (value: string, expected: number): string[] => {
  const parts: string[] = [];
  let previous = 0;
  for (const match of value.matchAll(SEPARATOR)) {
    if (parts.length === expected - 1) break;
    parts.push(value.slice(previous, match.index));
    previous = match.index + match[0].length;
  }
  parts.push(value.slice(previous));
  return parts;
};

/**
 * A regular expression (source, no anchors) for the text after `type:` of an id of `parts` names
 * with at most `maxColons` colons: exactly the texts that have a reading (`nodeIdReadings`), so the
 * OpenAPI document's pattern and the parser agree. For each colon count, each way to cut needs
 * some segments between colons non-empty; the least demanding ways are kept.
 */
export function nodeIdRestPattern(parts: 2 | 3, maxColons: number): string {
  const alternatives: string[] = [];
  const allOptional: number[] = [];
  for (let k = parts - 1; k <= maxColons; k++) {
    // Segments s0..sk between colons; cutting at colons c1 < … (1-based) needs each part non-empty:
    // a part made of a single segment needs that segment.
    const needs: Array<Set<number>> = [];
    const cutsOf = (from: number, chosen: number[]): void => {
      if (chosen.length === parts - 1) {
        const bounds = [0, ...chosen, k + 1];
        const need = new Set<number>();
        for (let p = 0; p + 1 < bounds.length; p++) if ((bounds[p + 1] as number) - (bounds[p] as number) === 1) need.add(bounds[p] as number);
        needs.push(need);
        return;
      }
      for (let c = from; c <= k; c++) cutsOf(c + 1, [...chosen, c]);
    };
    cutsOf(1, []);
    const minimal = needs.filter((n) => !needs.some((m) => m !== n && m.size < n.size && [...m].every((x) => n.has(x))));
    const unique = [...new Map(minimal.map((n) => [[...n].sort().join(','), n])).values()];
    if (unique.some((n) => n.size === 0)) {
      allOptional.push(k);
      continue;
    }
    for (const need of unique) {
      alternatives.push(Array.from({ length: k + 1 }, (_, i) => (need.has(i) ? '[^:]+' : '[^:]*')).join(':'));
    }
  }
  if (allOptional.length > 0) {
    const [low, high] = [allOptional[0] as number, allOptional.at(-1) as number];
    alternatives.push(`[^:]*(?::[^:]*){${low === high ? low : `${low},${high}`}}`);
  }
  return alternatives.join('|');
}
