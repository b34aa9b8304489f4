/**
 * @module pages/tables/tables-page
 * The lake's tables per namespace (`GET /api/v1/tables`).
 */
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { TableSummary } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { KeyRequired } from '../../components/key-required.tsx';
import { Progress } from '../../components/progress.tsx';
import { useAsync } from '../../components/use-async.ts';

const byNamespace = (tables: readonly TableSummary[]): Map<string, TableSummary[]> => {
  const groups = new Map<string, TableSummary[]>();
  for (const table of [...tables].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))) {
    groups.set(table.namespace, [...(groups.get(table.namespace) ?? []), table]);
  }
  return groups;
};

/** The tables page. */
export const TablesPage = () => {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const tables = useAsync((signal) => (mayCall(api.credentials, 'GET /api/v1/tables') ? api.tables(undefined, { signal }) : Promise.resolve([])), api.credentials.kind);
  const groups = useMemo(() => byNamespace(tables.data ?? []), [tables.data]);
  if (!mayCall(api.credentials, 'GET /api/v1/tables')) return <KeyRequired what="The tables page" routeKey="GET /api/v1/tables" />;

  const namespaces = [...groups.keys()];
  const chosen = search.get('namespace') ?? '';
  const shown = chosen ? [[chosen, groups.get(chosen) ?? []] as const] : [...groups.entries()];

  return (
    <div className="tables-page">
      <div className="page-head">
        <h1>Tables</h1>
        <label>
          Namespace{' '}
          <select name="namespace" value={chosen} onChange={(e) => setSearch(e.target.value ? { namespace: e.target.value } : {})}>
            <option value="">all namespaces</option>
            {namespaces.map((ns) => (
              <option key={ns} value={ns}>
                {ns} ({groups.get(ns)?.length ?? 0})
              </option>
            ))}
          </select>
        </label>
      </div>
      {tables.loading ? <Progress label="Reading the catalog…" since={tables.startedAt} /> : null}
      {tables.error ? <ErrorPanel error={tables.error} /> : null}
      {!tables.loading && !tables.error && namespaces.length === 0 ? (
        <EmptyState title="The lake has no tables yet">
          <p>
            Write one from the <Link to="/query">query console</Link> with a destination (for example <code>SELECT 1 AS one</code> into{' '}
            <code>analytics.first</code>), or load the TPC-H demo data: <code>npx lakeline demo load --org &lt;org id&gt; --scale 0.01</code>.
          </p>
        </EmptyState>
      ) : null}
      {shown.map(([namespace, list]) => (
        <section key={namespace} className="namespace-group" data-namespace={namespace}>
          <h2>{namespace}</h2>
          {list.length === 0 ? (
            <p className="muted">No tables in this namespace.</p>
          ) : (
            <ul className="table-list">
              {list.map((t) => (
                <li key={t.qualified_name}>
                  <Link to={`/tables/${encodeURIComponent(t.namespace)}/${encodeURIComponent(t.table)}`}>{t.table}</Link>
                  <span className="muted mono">{t.qualified_name}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
};
