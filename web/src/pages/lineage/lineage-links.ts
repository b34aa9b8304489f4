/**
 * @module pages/lineage/lineage-links
 * The console's links to lineage things. Jobs and datasets travel in the query string, not the
 * path: their names hold dots (`public.orders`), and a path whose last segment has a dot is a
 * file to the console's server, not a page.
 */
import { datasetNodeId as nodeIdOfDataset } from '../../../../functions/domain/lineage-capture/dataset-identity.ts';

/** The lineage page's settings, all in its URL. */
export interface LineageSettings {
  /** `job:<ns>:<name>` or `dataset:<ns>:<name>`. */
  readonly node?: string;
  readonly depth?: string;
  readonly direction?: string;
  readonly asOf?: string;
  readonly runId?: string;
  /** `datasetField:<ns>:<dataset>:<field>` or `dataset:…`: the column graph instead. */
  readonly column?: string;
  readonly mode?: string;
}

const withQuery = (path: string, params: Record<string, string | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

/** The lineage page with these settings. */
export const lineageHref = (settings: LineageSettings): string => withQuery('/lineage', { ...settings });
/** A namespace's jobs. */
export const namespaceHref = (namespace: string): string => withQuery('/jobs', { namespace });
/** A job's runs. */
export const jobHref = (namespace: string, job: string): string => withQuery('/jobs', { namespace, job });
/** A run's page. */
export const runHref = (runId: string): string => `/lineage-runs/${encodeURIComponent(runId)}`;
/** A dataset's page. */
export const datasetHref = (namespace: string, name: string): string => withQuery('/datasets', { namespace, name });
/** The node id of a job. */
export const jobNodeId = (namespace: string, name: string): string => `job:${namespace}:${name}`;
/** The node id of a dataset. */
export const datasetNodeId = (namespace: string, name: string): string => nodeIdOfDataset({ namespace, name });
/** The node id of a dataset's field. */
export const fieldNodeId = (namespace: string, dataset: string, field: string): string => `datasetField:${namespace}:${dataset}:${field}`;
