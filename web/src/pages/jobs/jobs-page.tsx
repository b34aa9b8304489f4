/**
 * @module pages/jobs/jobs-page
 * Jobs and runs: the namespaces (`/jobs`), a namespace's jobs with their latest state and duration
 * (`/jobs?namespace=`), and a job's run history with a duration chart (`/jobs?namespace=&job=`),
 * drawn from `GET /api/v1/namespaces[/{namespace}/jobs[/{job}/runs]]`.
 */
import { Link, useSearchParams } from 'react-router';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatDuration, formatTime } from '../../components/format.ts';
import { KeyRequired } from '../../components/key-required.tsx';
import { ProducerSetup } from '../../components/producer-setup.tsx';
import { Progress } from '../../components/progress.tsx';
import { StateBadge } from '../../components/state-badge.tsx';
import { useAsync } from '../../components/use-async.ts';
import { jobHref, jobNodeId, lineageHref, namespaceHref, runHref } from '../lineage/lineage-links.ts';
import { DurationChart } from './duration-chart.tsx';

const NamespaceList = () => {
  const api = useApi();
  const namespaces = useAsync((signal) => api.namespaces({ limit: 1000 }, { signal }), 'namespaces');
  if (namespaces.loading) return <Progress label="Reading the namespaces…" since={namespaces.startedAt} />;
  if (namespaces.error) return <ErrorPanel error={namespaces.error} />;
  const list = namespaces.data?.namespaces ?? [];
  if (list.length === 0)
    return (
      <EmptyState title="No jobs yet">
        <p>Jobs appear here when an OpenLineage producer sends their run events to lakeline:</p>
        <ProducerSetup />
      </EmptyState>
    );
  return (
    <table className="data-table" data-testid="namespaces-table">
      <thead>
        <tr>
          <th>Namespace</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        {list.map((ns) => (
          <tr key={ns.name}>
            <td>
              <Link to={namespaceHref(ns.name)}>{ns.name}</Link>
            </td>
            <td>{formatTime(ns.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

const JobList = ({ namespace }: { namespace: string }) => {
  const api = useApi();
  const jobs = useAsync((signal) => api.jobs(namespace, { limit: 1000 }, { signal }), namespace);
  if (jobs.loading) return <Progress label="Reading the jobs…" since={jobs.startedAt} />;
  if (jobs.error) return <ErrorPanel error={jobs.error} />;
  const list = jobs.data?.jobs ?? [];
  if (list.length === 0)
    return (
      <EmptyState title={`No jobs in ${namespace}`}>
        <p>
          Datasets of this namespace may still be read and written by jobs of others: see the <Link to="/lineage">lineage</Link>.
        </p>
      </EmptyState>
    );
  return (
    <table className="data-table" data-testid="jobs-table">
      <thead>
        <tr>
          <th>Job</th>
          <th>Type</th>
          <th>Latest run</th>
          <th>Started</th>
          <th className="number-cell">Duration</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {list.map((job) => (
          <tr key={job.name} data-job={job.name} className={job.latestRun?.state === 'FAILED' ? 'run-failed' : undefined}>
            <td>
              <Link to={jobHref(namespace, job.name)}>{job.name}</Link>
            </td>
            <td>{job.type}</td>
            <td>{job.latestRun ? <StateBadge state={job.latestRun.state} /> : <span className="muted">none</span>}</td>
            <td>{formatTime(job.latestRun?.startedAt ?? job.latestRun?.createdAt)}</td>
            <td className="number-cell">{job.latestRun?.durationMs === null || job.latestRun?.durationMs === undefined ? '—' : formatDuration(job.latestRun.durationMs)}</td>
            <td>
              <Link to={lineageHref({ node: jobNodeId(namespace, job.name) })}>lineage</Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

const RunHistory = ({ namespace, job }: { namespace: string; job: string }) => {
  const api = useApi();
  const runs = useAsync((signal) => api.jobRuns(namespace, job, { limit: 500 }, { signal }), `${namespace}\u0000${job}`);
  if (runs.loading) return <Progress label="Reading the runs…" since={runs.startedAt} />;
  if (runs.error) return <ErrorPanel error={runs.error} />;
  const list = runs.data?.runs ?? [];
  if (list.length === 0) return <EmptyState title="This job has no runs yet" />;
  const failed = list.filter((r) => r.state === 'FAILED').length;
  return (
    <>
      <p className="results-meta">
        <span>{runs.data?.totalCount ?? list.length} runs</span>
        <span data-testid="failed-count">{failed} failed</span>
      </p>
      <DurationChart runs={list} />
      <table className="data-table" data-testid="runs-table">
        <thead>
          <tr>
            <th>Run</th>
            <th>State</th>
            <th>Started</th>
            <th>Ended</th>
            <th className="number-cell">Duration</th>
          </tr>
        </thead>
        <tbody>
          {list.map((run) => (
            <tr key={run.id} data-run-id={run.id} className={run.state === 'FAILED' ? 'run-failed' : undefined}>
              <td className="mono">
                <Link to={runHref(run.id)}>{run.id}</Link>
              </td>
              <td>
                <StateBadge state={run.state} />
              </td>
              <td>{formatTime(run.startedAt ?? run.createdAt)}</td>
              <td>{formatTime(run.endedAt)}</td>
              <td className="number-cell">{run.durationMs === null ? '—' : formatDuration(run.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
};

/** The jobs page (`/jobs`, `/jobs?namespace=`, `/jobs?namespace=&job=`). */
export const JobsPage = () => {
  const api = useApi();
  const [search] = useSearchParams();
  const namespace = search.get('namespace') ?? '';
  const job = search.get('job') ?? '';
  if (!mayCall(api.credentials, 'GET /api/v1/namespaces')) return <KeyRequired what="The jobs page" routeKey="GET /api/v1/namespaces" />;
  return (
    <div className="jobs-page">
      <div className="page-head">
        <h1>
          <Link to="/jobs">Jobs</Link>
          {namespace ? (
            <>
              {' '}
              · <Link to={namespaceHref(namespace)}>{namespace}</Link>
            </>
          ) : null}
          {job ? ` · ${job}` : null}
        </h1>
        {namespace && job ? (
          <Link className="button" to={lineageHref({ node: jobNodeId(namespace, job) })}>
            Lineage
          </Link>
        ) : null}
      </div>
      {namespace && job ? <RunHistory namespace={namespace} job={job} /> : namespace ? <JobList namespace={namespace} /> : <NamespaceList />}
    </div>
  );
};
