/**
 * @module pages/jobs/jobs-page
 * Jobs and runs: per namespace, jobs with their latest state and duration; a job's run history; a
 * run's page. Drawn from `GET /api/v1/namespaces/{namespace}/jobs…` (issue 14); until it exists the
 * page links to the job's events.
 */
import { Link, useParams } from 'react-router';
import { LineageApiPending } from '../../components/lineage-api-pending.tsx';

/** The jobs page (`/jobs`, `/jobs/:namespace`, `/jobs/:namespace/:job`). */
export const JobsPage = () => {
  const { namespace, job } = useParams();
  const endpoint = namespace ? `GET /api/v1/namespaces/${namespace}/jobs${job ? `/${job}/runs` : ''}` : 'GET /api/v1/namespaces';
  return (
    <div className="jobs-page">
      <div className="page-head">
        <h1>
          Jobs{namespace ? ` · ${namespace}` : ''}
          {job ? ` · ${job}` : ''}
        </h1>
      </div>
      <LineageApiPending title="Jobs and runs are not available yet" endpoint={endpoint}>
        {namespace ? (
          <p>
            <Link to={`/events?namespace=${encodeURIComponent(namespace)}${job ? `&job=${encodeURIComponent(job)}` : ''}`}>Events of {job ?? namespace}</Link>
          </p>
        ) : null}
      </LineageApiPending>
    </div>
  );
};
