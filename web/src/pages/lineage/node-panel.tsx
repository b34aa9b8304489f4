/**
 * @module pages/lineage/node-panel
 * The side panel of a clicked graph node. A job: its latest run (state, times, duration), its
 * facets (`GET …/jobs/{job}`), inputs and outputs. A dataset: its fields (each opening its column
 * lineage), facets and last modification. Owners and tags show where facets carry them.
 */
import { Link } from 'react-router';
import type { DatasetData, JobData, LineageGraphNode } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatDuration, formatTime } from '../../components/format.ts';
import { JsonView } from '../../components/json-view.tsx';
import { StateBadge } from '../../components/state-badge.tsx';
import { useAsync } from '../../components/use-async.ts';
import { datasetHref, datasetNodeId, fieldNodeId, jobHref, lineageHref, runHref } from './lineage-links.ts';

const Facets = ({ facets, title = 'Facets' }: { facets: Record<string, unknown>; title?: string }) => {
  const names = Object.keys(facets).sort();
  if (names.length === 0) return <p className="muted">No {title.toLowerCase()}.</p>;
  return (
    <details className="facets" data-testid="panel-facets">
      <summary>
        {title}: {names.join(', ')}
      </summary>
      <JsonView value={facets} />
    </details>
  );
};

/** The owners an `ownership` facet names (`{owners: [{name, type}]}`), as `name (type)`. */
export const ownersOf = (facets: Record<string, unknown>): string[] => {
  const owners = (facets.ownership as { owners?: unknown } | undefined)?.owners;
  if (!Array.isArray(owners)) return [];
  return owners.flatMap((owner: unknown) => {
    const { name, type } = (owner ?? {}) as { name?: unknown; type?: unknown };
    return typeof name === 'string' ? [typeof type === 'string' && type ? `${name} (${type})` : name] : [];
  });
};

const Owners = ({ facets }: { facets: Record<string, unknown> }) => {
  const owners = ownersOf(facets);
  return owners.length === 0 ? null : <p data-testid="panel-owners">Owners: {owners.join(', ')}</p>;
};

const DatasetLinks = ({ ids }: { ids: readonly { namespace: string; name: string }[] }) =>
  ids.length === 0 ? (
    <span className="muted">none</span>
  ) : (
    <ul className="plain">
      {ids.map((d) => (
        <li key={`${d.namespace}:${d.name}`}>
          <Link to={lineageHref({ node: datasetNodeId(d.namespace, d.name) })}>
            <span className="muted">{d.namespace} /</span> {d.name}
          </Link>
        </li>
      ))}
    </ul>
  );

const JobPanel = ({ job }: { job: JobData }) => {
  const api = useApi();
  const full = useAsync((signal) => api.job(job.namespace, job.name, { signal }), `${job.namespace}\u0000${job.name}`);
  const run = job.latestRun;
  return (
    <>
      <h2>
        <span className="muted">job</span> {job.name}
      </h2>
      <dl className="facts">
        <dt>Namespace</dt>
        <dd>{job.namespace}</dd>
        <dt>Type</dt>
        <dd>{job.type}</dd>
        <dt>Latest run</dt>
        <dd data-testid="panel-latest-run">
          {run ? (
            <>
              <StateBadge state={run.state} /> <Link to={runHref(run.id)} className="mono">{run.id}</Link>
            </>
          ) : (
            <span className="muted">no run yet</span>
          )}
        </dd>
        {run ? (
          <>
            <dt>Started</dt>
            <dd>{formatTime(run.startedAt ?? run.createdAt)}</dd>
            <dt>Ended</dt>
            <dd>{formatTime(run.endedAt)}</dd>
            <dt>Duration</dt>
            <dd>{run.durationMs === null ? '—' : formatDuration(run.durationMs)}</dd>
          </>
        ) : null}
        {job.description ? (
          <>
            <dt>Description</dt>
            <dd>{job.description}</dd>
          </>
        ) : null}
      </dl>
      <h3>Inputs</h3>
      <div data-testid="panel-inputs">
        <DatasetLinks ids={job.inputs} />
      </div>
      <h3>Outputs</h3>
      <div data-testid="panel-outputs">
        <DatasetLinks ids={job.outputs} />
      </div>
      <h3>Job facets</h3>
      {full.error ? <ErrorPanel error={full.error} /> : full.data ? <Facets facets={full.data.facets} title="Job facets" /> : <p className="muted">Reading the job…</p>}
      {full.data ? <Owners facets={full.data.facets} /> : null}
      {full.data && full.data.tags.length > 0 ? <p data-testid="panel-tags">Tags: {full.data.tags.join(', ')}</p> : null}
      {run ? <Facets facets={run.facets} title="Run facets" /> : null}
      <p className="panel-links">
        <Link to={jobHref(job.namespace, job.name)}>Run history</Link>
      </p>
    </>
  );
};

const DatasetPanel = ({ dataset }: { dataset: DatasetData }) => {
  // A Tags column only when a `tags` facet tagged some column (most schemas carry none).
  const fieldTags = dataset.fields.some((f) => f.tags.length > 0);
  return (
  <>
    <h2>
      <span className="muted">dataset</span> {dataset.name}
    </h2>
    <dl className="facts">
      <dt>Namespace</dt>
      <dd>{dataset.namespace}</dd>
      <dt>Last modified</dt>
      <dd data-testid="panel-last-modified">{formatTime(dataset.lastModifiedAt)}</dd>
      {dataset.description ? (
        <>
          <dt>Description</dt>
          <dd>{dataset.description}</dd>
        </>
      ) : null}
      {dataset.tags.length > 0 ? (
        <>
          <dt>Tags</dt>
          <dd>{dataset.tags.join(', ')}</dd>
        </>
      ) : null}
    </dl>
    <h3>Fields</h3>
    {dataset.fields.length === 0 ? (
      <p className="muted">No schema: its producers sent no schema facet.</p>
    ) : (
      <table className="data-table" data-testid="panel-fields">
        <thead>
          <tr>
            <th>Field</th>
            <th>Type</th>
            {fieldTags ? <th>Tags</th> : null}
            <th />
          </tr>
        </thead>
        <tbody>
          {dataset.fields.map((f) => (
            <tr key={f.name}>
              <td className="mono">{f.name}</td>
              <td className="mono">{f.type ?? '—'}</td>
              {fieldTags ? <td data-testid="panel-field-tags">{f.tags.join(', ')}</td> : null}
              <td>
                <Link to={lineageHref({ column: fieldNodeId(dataset.namespace, dataset.name, f.name) })}>column lineage</Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
    <h3>Facets</h3>
    <Owners facets={dataset.facets} />
    <Facets facets={dataset.facets} />
    <p className="panel-links">
      <Link to={datasetHref(dataset.namespace, dataset.name)}>Dataset page</Link>
    </p>
  </>
  );
};

/** The panel of a graph node. */
export const NodePanel = ({ node, onClose }: { node: LineageGraphNode; onClose(): void }) => (
  <aside className="node-panel" data-testid="node-panel" data-node-id={node.id}>
    <button type="button" className="link-button panel-close" onClick={onClose} aria-label="Close the panel">
      close ✕
    </button>
    {node.type === 'JOB' ? <JobPanel job={node.data as JobData} /> : <DatasetPanel dataset={node.data as DatasetData} />}
  </aside>
);
