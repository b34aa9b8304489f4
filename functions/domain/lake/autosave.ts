/**
 * @module lake/autosave
 * Where `autoSaveByHash` keeps results: one Iceberg table per normalized query in the org's
 * reserved `autosave` namespace, named like the query's job (`autosave.q_<hash>`), so the saved
 * result of a lineage job is found by its name. While that table exists, the same query is
 * answered from it instead of being run again.
 */
import type { TableName } from '../core/names.ts';
import type { JobIdentity } from '../core/query-job.ts';

/** The namespace holding autosaved results. Other writers should treat it as reserved. */
export const AUTOSAVE_NAMESPACE = 'autosave';

/** The table holding a job's saved result. */
export const autosaveTable = (job: JobIdentity): TableName => ({ namespace: AUTOSAVE_NAMESPACE, table: job.name });

/** The statement that reads a saved result back, in its saved row order. */
export const readSavedSql = (table: TableName): string => `SELECT * FROM lakeline."${table.namespace}"."${table.table}"`;
