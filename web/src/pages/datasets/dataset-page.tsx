/**
 * @module pages/datasets/dataset-page
 * A dataset: its schema, versions and the jobs that read and write it, drawn from
 * `GET /api/v1/namespaces/{namespace}/datasets/{name}` (issue 14), with its lineage graph one click away.
 */
import { Link, useParams } from 'react-router';
import { LineageApiPending } from '../../components/lineage-api-pending.tsx';

/** The dataset page (`/datasets/:namespace/:name`, both URI-encoded). */
export const DatasetPage = () => {
  const { namespace = '', name = '' } = useParams();
  return (
    <div className="dataset-page">
      <div className="page-head">
        <h1>
          <span className="muted">{namespace}</span> / {name}
        </h1>
        <Link className="button" to={`/lineage?node=${encodeURIComponent(`dataset:${namespace}:${name}`)}`}>
          Lineage
        </Link>
      </div>
      <LineageApiPending title="Datasets are not available yet" endpoint={`GET /api/v1/namespaces/${namespace}/datasets/${name}`} />
    </div>
  );
};
