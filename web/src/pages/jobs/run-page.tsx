/**
 * @module pages/jobs/run-page
 * A run of a job (`/lineage-runs/:runId`): its state and times, parent and children, the dataset
 * versions it read and wrote, its merged facets (`GET /api/v1/lineage-runs/{runId}`), and its
 * events in order with the raw event of each (`GET /api/v1/events?run=`).
 */
import { Link, useParams } from 'react-router';
import type { LineageRun } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatDuration, formatTime } from '../../components/format.ts';
import { JsonView } from '../../components/json-view.tsx';
import { KeyRequired } from '../../components/key-required.tsx';
import { Progress } from '../../components/progress.tsx';
import { StateBadge } from '../../components/state-badge.tsx';
import { useAsync } from '../../components/use-async.ts';
import { datasetHref, jobHref, lineageHref, runHref } from '../lineage/lineage-links.ts';

// Every event a run can have: the whole time range of the events API, oldest first.
const ALL_TIME = { start: 0, end: 32503680000 } as const;

const Versions = ({ versions, testId }: { versions: LineageRun['inputDatasetVersions']; testId: string }) =>
  !versions || versions.length === 0 ? (
    <p className="muted">none</p>
  ) : (
    <table className="data-table" data-testid={testId}>
      <thead>
        <tr>
          <th>Dataset</th>
          <th>Version</th>
        </tr>
      </thead>
      <tbody>
        {versions.map(({ datasetVersionId: v }) => (
          <tr key={`${v.namespace}:${v.name}:${v.version}`}>
            <td>
              <Link to={datasetHref(v.namespace, v.name)}>
                <span className="muted">{v.namespace} /</span> {v.name}
              </Link>
            </td>
            <td className="mono">{v.version}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );

const RunEvents = ({ runId }: { runId: string }) => {
  const api = useApi();
  const events = useAsync((signal) => api.events({ ...ALL_TIME, run: runId, sort_by: 'EVENT_TIME', order: 'ASC', limit: 1000 }, { signal }), runId);
  if (events.loading) return <Progress label="Reading the run's events…" since={events.startedAt} />;
  if (events.error) return <ErrorPanel error={events.error} />;
  return (
    <ol className="run-events" data-testid="run-events">
      {(events.data ?? []).map((event) => (
        <li key={event.id} data-state={event.run_state}>
          <details>
            <summary>
              {formatTime(event.event_time)} <StateBadge state={event.run_state} />
            </summary>
            <JsonView value={event.event_raw} label="Raw event" />
          </details>
        </li>
      ))}
    </ol>
  );
};

/** The run page. */
export const RunPage = () => {
  const api = useApi();
  const { runId = '' } = useParams();
  const run = useAsync((signal) => api.lineageRun(runId, { signal }), runId);
  if (!mayCall(api.credentials, 'GET /api/v1/lineage-runs/{runId}')) return <KeyRequired what="The run page" routeKey="GET /api/v1/lineage-runs/{runId}" />;
  const data = run.data;
  return (
    <div className="run-page">
      <div className="page-head">
        <h1>
          Run <span className="mono">{runId}</span>
        </h1>
        {data ? (
          <Link className="button" to={lineageHref({ node: `job:${data.job.namespace}:${data.job.name}`, runId })}>
            This run's lineage
          </Link>
        ) : null}
      </div>
      {run.loading ? <Progress label="Reading the run…" since={run.startedAt} /> : null}
      {run.error ? <ErrorPanel error={run.error} /> : null}
      {data ? (
        <>
          <dl className="facts facts-grid" data-testid="run-facts">
            <dt>Job</dt>
            <dd>
              <Link to={jobHref(data.job.namespace, data.job.name)}>
                <span className="muted">{data.job.namespace} /</span> {data.job.name}
              </Link>
            </dd>
            <dt>State</dt>
            <dd data-testid="run-state">
              <StateBadge state={data.state} />
            </dd>
            <dt>Started</dt>
            <dd>{formatTime(data.startedAt ?? data.createdAt)}</dd>
            <dt>Ended</dt>
            <dd>{formatTime(data.endedAt)}</dd>
            <dt>Duration</dt>
            <dd>{data.durationMs === null ? '—' : formatDuration(data.durationMs)}</dd>
            <dt>Job version</dt>
            <dd className="mono">{data.jobVersion.version}</dd>
            <dt>Parent</dt>
            <dd data-testid="run-parent">
              {data.parent ? (
                <>
                  <Link to={jobHref(data.parent.job.namespace, data.parent.job.name)}>{data.parent.job.name}</Link>
                  {data.parent.runId ? (
                    <>
                      {' '}
                      (<Link to={runHref(data.parent.runId)} className="mono">{data.parent.runId}</Link>)
                    </>
                  ) : null}
                </>
              ) : (
                <span className="muted">none</span>
              )}
            </dd>
            <dt>Children</dt>
            <dd data-testid="run-children">
              {data.children.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                <ul className="plain">
                  {data.children.map((child) => (
                    <li key={child.runId}>
                      <StateBadge state={child.state} /> {child.job.name} <Link to={runHref(child.runId)} className="mono">{child.runId}</Link>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
          <h2>Inputs</h2>
          <Versions versions={data.inputDatasetVersions} testId="run-inputs" />
          <h2>Outputs</h2>
          <Versions versions={data.outputDatasetVersions} testId="run-outputs" />
          <h2>Run facets (merged)</h2>
          <JsonView value={data.facets} label="Run facets" />
          <h2>Job facets</h2>
          <JsonView value={data.jobFacets} label="Job facets" />
          <h2>Events</h2>
          <RunEvents runId={runId} />
        </>
      ) : null}
    </div>
  );
};
