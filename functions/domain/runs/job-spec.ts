/**
 * @module runs/job-spec
 * The job spec: the one document the Spark job script (`jobs/spark/run_job.py`) reads, written by
 * whichever engine starts it. Its shape is the contract between this service and the script
 * (`jobs/spark/lakeline_spark/spec.py` validates it again on the other side).
 */
import { catalogNameForOrg } from '../core/names.ts';
import type { SparkJob } from './ports.ts';

/** Version of the spec format both sides agree on. */
export const JOB_SPEC_VERSION = 1;

/** Where the org's catalog is, as the job must configure it. */
export type JobCatalog =
  /** The local SQL catalog (Iceberg JdbcCatalog over the SQLite file). */
  | { readonly type: 'jdbc'; readonly uri: string; readonly warehouseRoot: string }
  /** Glue: an org's namespace `ns` is the database `org_<id>__ns`. */
  | { readonly type: 'glue'; readonly warehouseRoot: string };

/** The spec document of one run. */
export const jobSpecDocument = (job: SparkJob, catalog: JobCatalog, resultUri: string) => {
  const name = catalogNameForOrg(job.orgId);
  const warehouse = `${catalog.warehouseRoot.replace(/\/+$/, '')}/${name}`;
  return {
    version: JOB_SPEC_VERSION,
    run_id: job.runId,
    sql: job.sql,
    output: { namespace: job.output.namespace, table: job.output.table },
    mode: job.mode,
    catalog:
      catalog.type === 'jdbc'
        ? { name, type: 'jdbc', uri: catalog.uri, warehouse, namespace_prefix: '' }
        : { name, type: 'glue', warehouse, namespace_prefix: `${name}__` },
    result_uri: resultUri,
  };
};
