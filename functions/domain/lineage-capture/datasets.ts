/**
 * @module lineage-capture/datasets
 * How lake tables are named in lineage. Naming.md names a dataset by where it lives: an Iceberg
 * table is its directory, so the namespace is the storage (`file` locally, `s3://<bucket>` in AWS)
 * and the name the path (the object key on S3). That is also how OpenLineage's Spark integration
 * names Iceberg tables, so lineage from Spark jobs on the same tables joins up. The name users
 * write in SQL (`lakeline.<namespace>.<table>`) rides along as a `symlinks` TABLE identifier, and
 * the catalog as a `catalog` facet.
 */
import type { LakeDataset } from '../core/lake-dataset.ts';
import { DEFAULT_CATALOG } from '../core/names.ts';
import { datasetIdentity } from './dataset-identity.ts';
import { facet } from './facets.ts';

/** Which Iceberg catalog holds the tables (the `catalog` facet's `type`). */
export type CatalogKind = 'jdbc' | 'glue';

export { datasetIdentity };

/** A dataset entry (input or output) of a run event, with its facets. */
export const datasetOf = (dataset: LakeDataset, catalogKind: CatalogKind) => ({
  ...datasetIdentity(dataset.location),
  facets: {
    schema: facet('schema', { fields: dataset.fields.map((f, i) => ({ name: f.name, type: f.type, ordinal_position: i + 1 })) }),
    symlinks: facet('symlinks', {
      identifiers: [{ namespace: DEFAULT_CATALOG, name: `${dataset.table.namespace}.${dataset.table.table}`, type: 'TABLE' }],
    }),
    catalog: facet('catalog', { framework: 'iceberg', type: catalogKind, name: DEFAULT_CATALOG, source: 'lakeline' }),
  },
});
