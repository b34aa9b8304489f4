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

const VERSION_SUFFIX = /#([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
// Marquez's rule for ids with more `:` than parts: a colon followed by `//` (a URI scheme) or by
// digits (a port) does not separate parts.
const SEPARATOR = /:(?!\/\/|\d+)/g;

/**
 * Parses a node id the way Marquez 0.51 does (`NodeId.parts`): split on `:`; when that gives more
 * parts than the type has, only colons not followed by `//` or digits separate, and the last part
 * takes the rest (`dataset:postgresql://host:5432/db:my_table`, `job:org://team:my-job`,
 * `dataset:ns:my_struct<a:bigint>`). A trailing `#<uuid>` is a version.
 *
 * @param parameter - the query parameter named in errors
 * @param allowed - node types the endpoint accepts
 * @throws {ValidationError} naming the parameter, for an empty value, an unknown type or missing parts
 */
export function parseNodeId(value: string, parameter: string, allowed: readonly NodeType[]): NodeId {
  const prefix = value.slice(0, value.indexOf(':'));
  const spec = value.includes(':') ? PREFIXES[prefix] : undefined;
  if (spec === undefined || !allowed.includes(spec.type)) {
    const names = Object.entries(PREFIXES).filter(([, s]) => allowed.includes(s.type)).map(([p]) => `'${p}:'`);
    throw new ValidationError(`${parameter}: must start with ${names.join(' or ')}`);
  }
  const versionMatch = VERSION_SUFFIX.exec(value);
  const body = versionMatch ? value.slice(0, versionMatch.index) : value;
  let parts = body.split(':');
  if (parts.length > spec.parts) parts = splitOutsideUris(body, spec.parts);
  if (parts.length < spec.parts || parts.slice(1).some((p) => p === '')) {
    const shape = spec.type === 'DATASET_FIELD' ? 'datasetField:<namespace>:<dataset>:<field>' : `${prefix}:<namespace>:<name>`;
    throw new ValidationError(`${parameter}: must be ${shape}`);
  }
  const version = versionMatch?.[1]?.toLowerCase();
  const [, namespace, name, field] = parts as [string, string, string, string?];
  const versioned = version === undefined ? {} : { version };
  if (spec.type === 'DATASET_FIELD') return { type: spec.type, namespace, name, field: field as string, ...versioned };
  return { type: spec.type, namespace, name, ...versioned };
}

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
