/**
 * @module pages/lineage/lineage-node
 * Lineage graph node ids in Marquez's form (ARCHITECTURE.md §5): `job:<namespace>:<name>`,
 * `dataset:<namespace>:<name>`, `datasetField:<namespace>:<name>:<field>`. Namespaces may hold
 * colons themselves (`s3://bucket`), so a dataset id is split at the colon after the scheme's.
 */

/** A parsed node id. */
export interface LineageNode {
  readonly type: 'job' | 'dataset' | 'datasetField';
  readonly namespace: string;
  readonly name: string;
}

/** Parses a node id; undefined when it is not one. */
export const parseNodeId = (id: string): LineageNode | undefined => {
  const match = /^(job|dataset|datasetField):(.+)$/.exec(id);
  if (!match) return undefined;
  const type = match[1] as LineageNode['type'];
  const rest = match[2] as string;
  // A namespace with a URI scheme (`s3://bucket`, `postgres://host:5432`) keeps its own colons.
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/:]+(?::\d+)?/i.exec(rest);
  const cut = scheme ? rest.indexOf(':', scheme[0].length) : rest.indexOf(':');
  if (cut <= 0) return undefined;
  return { type, namespace: rest.slice(0, cut), name: rest.slice(cut + 1) };
};

/** What the console needs of a graph node to find the asked one. */
interface GraphNodeLike {
  readonly id: string;
  readonly type: string;
  readonly data: { readonly name: string; readonly physicalName?: string };
}

/**
 * The node of a graph answer that stands for the asked id: the node with that id, else — when the
 * id names a dataset by the name its events used and the graph names it by its `TABLE` symlink
 * (ADR 0047) — the one dataset node whose other name (`physicalName`) the id ends with.
 */
export const focusNodeOf = <N extends GraphNodeLike>(nodes: readonly N[], nodeId: string): N | undefined => {
  const exact = nodes.find((n) => n.id === nodeId);
  if (exact || !nodeId.startsWith('dataset:')) return exact;
  const aliased = nodes.filter((n) => n.type === 'DATASET' && n.data.physicalName !== undefined && n.data.physicalName !== n.data.name && nodeId.endsWith(`:${n.data.physicalName}`));
  return aliased.length === 1 ? aliased[0] : undefined;
};
