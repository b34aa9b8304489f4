/**
 * @module pages/datasets/dataset-page
 * A dataset (`/datasets?namespace=&name=`): its fields, facets and the job that last wrote it
 * (`GET /api/v1/namespaces/{namespace}/datasets/{dataset}`), its versions as a schema history
 * (`…/versions`), each field's column lineage and the dataset's graph one click away.
 */
import { Link, useSearchParams } from 'react-router';
import type { DatasetVersions } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatTime } from '../../components/format.ts';
import { JsonView } from '../../components/json-view.tsx';
import { KeyRequired } from '../../components/key-required.tsx';
import { Progress } from '../../components/progress.tsx';
import { StateBadge } from '../../components/state-badge.tsx';
import { useAsync } from '../../components/use-async.ts';
import { datasetNodeId, fieldNodeId, jobHref, lineageHref, runHref } from '../lineage/lineage-links.ts';

type Version = DatasetVersions['versions'][number];

/** What changed in the schema from the previous (older) version: added and removed fields. */
const schemaChange = (version: Version, older: Version | undefined): string => {
  if (!older) return version.fields.length === 0 ? 'no schema' : `${version.fields.length} fields`;
  const before = new Map(older.fields.map((f) => [f.name, f.type]));
  const after = new Map(version.fields.map((f) => [f.name, f.type]));
  const added = [...after.keys()].filter((n) => !before.has(n));
  const removed = [...before.keys()].filter((n) => !after.has(n));
  const retyped = [...after.keys()].filter((n) => before.has(n) && before.get(n) !== after.get(n));
  const parts = [...added.map((n) => `+${n}`), ...removed.map((n) => `−${n}`), ...retyped.map((n) => `~${n}`)];
  return parts.length === 0 ? 'unchanged' : parts.join(' ');
};

const VersionHistory = ({ namespace, name }: { namespace: string; name: string }) => {
  const api = useApi();
  const versions = useAsync((signal) => api.datasetVersions(namespace, name, { limit: 200 }, { signal }), `${namespace}\u0000${name}`);
  if (versions.loading) return <Progress label="Reading the versions…" since={versions.startedAt} />;
  if (versions.error) return <ErrorPanel error={versions.error} />;
  const list = versions.data?.versions ?? [];
  if (list.length === 0) return <p className="muted">No versions: no run has written this dataset yet (it was only read).</p>;
  return (
    <table className="data-table" data-testid="versions-table">
      <thead>
        <tr>
          <th>Written</th>
          <th>Version</th>
          <th>By run</th>
          <th>Schema</th>
        </tr>
      </thead>
      <tbody>
        {list.map((v, i) => (
          <tr key={v.version}>
            <td>{formatTime(v.createdAt)}</td>
            <td className="mono">{v.version}</td>
            <td>
              <StateBadge state={v.createdByRun.state} />{' '}
              <Link to={runHref(v.createdByRun.id)} className="mono">
                {v.createdByRun.id.slice(0, 8)}
              </Link>
            </td>
            <td className="mono" title={v.fields.map((f) => `${f.name} ${f.type ?? ''}`).join(', ')}>
              {schemaChange(v, list[i + 1])}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

/** The dataset page. */
export const DatasetPage = () => {
  const api = useApi();
  const [search] = useSearchParams();
  const namespace = search.get('namespace') ?? '';
  const name = search.get('name') ?? '';
  const dataset = useAsync((signal) => api.dataset(namespace, name, { signal }), `${namespace}\u0000${name}`);
  if (!mayCall(api.credentials, 'GET /api/v1/namespaces/{namespace}/datasets/{dataset}')) return <KeyRequired what="The dataset page" routeKey="GET /api/v1/namespaces/{namespace}/datasets/{dataset}" />;
  const data = dataset.data;
  return (
    <div className="dataset-page">
      <div className="page-head">
        <h1>
          <span className="muted">{namespace}</span> / {name}
        </h1>
        <Link className="button" to={lineageHref({ node: datasetNodeId(namespace, name) })}>
          Lineage
        </Link>
      </div>
      {dataset.loading ? <Progress label="Reading the dataset…" since={dataset.startedAt} /> : null}
      {dataset.error ? <ErrorPanel error={dataset.error} /> : null}
      {data ? (
        <>
          <dl className="facts facts-grid" data-testid="dataset-facts">
            <dt>Type</dt>
            <dd>{data.type}</dd>
            <dt>Produced by</dt>
            <dd data-testid="produced-by">
              {data.producedBy ? <Link to={jobHref(data.producedBy.namespace, data.producedBy.name)}>{data.producedBy.name}</Link> : <span className="muted">no job wrote it yet</span>}
            </dd>
            <dt>Last modified</dt>
            <dd>{formatTime(data.lastModifiedAt)}</dd>
            <dt>Current version</dt>
            <dd className="mono">{data.currentVersion ?? '—'}</dd>
            <dt>Source</dt>
            <dd>{data.sourceName}</dd>
            <dt>Tags</dt>
            <dd>{data.tags.length > 0 ? data.tags.join(', ') : <span className="muted">none</span>}</dd>
          </dl>
          <h2>Fields</h2>
          {data.fields.length === 0 ? (
            <p className="muted">No schema: the producers of this dataset sent no schema facet.</p>
          ) : (
            <table className="data-table" data-testid="fields-table">
              <thead>
                <tr>
                  <th>Field</th>
                  <th>Type</th>
                  <th>Description</th>
                  <th>Tags</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.fields.map((f) => (
                  <tr key={f.name}>
                    <td className="mono">{f.name}</td>
                    <td className="mono">{f.type ?? '—'}</td>
                    <td>{f.description ?? ''}</td>
                    <td>{f.tags.join(', ')}</td>
                    <td>
                      <Link to={lineageHref({ column: fieldNodeId(namespace, name, f.name) })}>column lineage</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Facets</h2>
          <JsonView value={data.facets} label="Dataset facets" />
          <h2>Versions</h2>
          <VersionHistory namespace={namespace} name={name} />
        </>
      ) : null}
    </div>
  );
};
