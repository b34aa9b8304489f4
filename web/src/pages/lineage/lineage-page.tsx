/**
 * @module pages/lineage/lineage-page
 * Lineage: search a job or dataset, then its graph (`?node=<node id>`). The graph, its search and
 * its panels come with the lineage graph API (issue 14); until then the page names the node asked
 * for and links to its events.
 */
import { Link, useSearchParams } from 'react-router';
import { LineageApiPending } from '../../components/lineage-api-pending.tsx';
import { parseNodeId } from './lineage-node.ts';

/** The lineage page. */
export const LineagePage = () => {
  const [search] = useSearchParams();
  const nodeId = search.get('node') ?? '';
  const node = nodeId ? parseNodeId(nodeId) : undefined;
  return (
    <div className="lineage-page">
      <div className="page-head">
        <h1>Lineage</h1>
      </div>
      {nodeId ? (
        <dl className="facts" data-testid="lineage-node">
          <dt>Node</dt>
          <dd className="mono wrap">{nodeId}</dd>
          {node ? (
            <>
              <dt>Type</dt>
              <dd>{node.type}</dd>
              <dt>Namespace</dt>
              <dd className="mono wrap">{node.namespace}</dd>
              <dt>Name</dt>
              <dd className="mono wrap">{node.name}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <LineageApiPending title="The lineage graph is not available yet" endpoint="GET /api/v1/lineage?nodeId=…">
        {node?.type === 'job' ? (
          <p>
            <Link to={`/events?namespace=${encodeURIComponent(node.namespace)}&job=${encodeURIComponent(node.name)}`}>Events of this job</Link>
          </p>
        ) : null}
      </LineageApiPending>
    </div>
  );
};
