/**
 * @module lineage-capture/dataset-identity
 * The OpenLineage identity of a lake table's location (Naming.md) and the lineage graph's node id
 * for it. Dependency-free, so the console (`web/`) links a table to its lineage node with the very
 * function that names the table in the events lakeline emits.
 */

/** The OpenLineage identity of a location, per Naming.md. */
export const datasetIdentity = (location: string): { namespace: string; name: string } => {
  const s3 = /^s3a?:\/\/([^/]+)\/?(.*)$/.exec(location);
  if (s3) return { namespace: `s3://${s3[1]}`, name: (s3[2] ?? '').replace(/\/+$/, '') };
  const file = /^file:(?:\/\/)?(\/.*)$/.exec(location);
  const path = file ? (file[1] as string) : location;
  return { namespace: 'file', name: decodeURI(path.replace(/^\/+/, '/')).replace(/(.)\/+$/, '$1') };
};

/**
 * The lineage graph's node id of a dataset (Marquez's form, ARCHITECTURE.md §5): `dataset:<namespace>:<name>`.
 * @example datasetNodeId({ namespace: 's3://lake', name: 'warehouse/org_1/tpch/nation' }) // 'dataset:s3://lake:warehouse/org_1/tpch/nation'
 */
export const datasetNodeId = (identity: { readonly namespace: string; readonly name: string }): string => `dataset:${identity.namespace}:${identity.name}`;
