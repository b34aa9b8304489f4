/**
 * @module pages/lineage/lineage-search
 * The search box of the lineage page: jobs and datasets whose names hold the typed text
 * (`GET /api/v1/search`), each a link to its graph.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../auth/auth-context.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatTime } from '../../components/format.ts';
import { useAsync } from '../../components/use-async.ts';
import { lineageHref } from './lineage-links.ts';

/** A search box with its hits below it. */
export const LineageSearch = () => {
  const api = useApi();
  const [typed, setTyped] = useState('');
  const [asked, setAsked] = useState('');
  const hits = useAsync((signal) => (asked ? api.search({ q: asked, limit: 20 }, { signal }) : Promise.resolve(undefined)), asked);
  return (
    <section className="lineage-search">
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(typed.trim());
        }}
      >
        <label>
          Search jobs and datasets
          <input type="search" name="q" value={typed} placeholder="e.g. orders" onChange={(e) => setTyped(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={typed.trim() === ''}>
          Search
        </button>
      </form>
      {hits.error ? <ErrorPanel error={hits.error} /> : null}
      {hits.data ? (
        hits.data.results.length === 0 ? (
          <p className="muted" data-testid="search-empty">
            No job or dataset name holds “{asked}”. Try part of a name, or send OpenLineage events for it first (<Link to="/events">events</Link> lists what lakeline received).
          </p>
        ) : (
          <ul className="search-results" data-testid="search-results">
            {hits.data.results.map((hit) => (
              <li key={hit.nodeId}>
                <span className={`kind-tag kind-${hit.type.toLowerCase()}`}>{hit.type === 'JOB' ? 'job' : 'dataset'}</span>{' '}
                <Link to={lineageHref({ node: hit.nodeId })}>
                  <span className="muted">{hit.namespace} /</span> {hit.name}
                </Link>{' '}
                <span className="muted">updated {formatTime(hit.updatedAt)}</span>
              </li>
            ))}
            {hits.data.totalCount > hits.data.results.length ? <li className="muted">…and {hits.data.totalCount - hits.data.results.length} more: type more of the name.</li> : null}
          </ul>
        )
      ) : null}
    </section>
  );
};
