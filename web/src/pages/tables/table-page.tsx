/**
 * @module pages/tables/table-page
 * One lake table (`GET /api/v1/tables/{namespace}/{table}`): size and row count, schema with field
 * ids and types, partitioning, snapshots over time; its lineage and a query one click away.
 */
import { Link, useParams } from 'react-router';
import { datasetIdentity, datasetNodeId } from '../../../../functions/domain/lineage-capture/dataset-identity.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatBytes, formatCount, formatTime } from '../../components/format.ts';
import { KeyRequired } from '../../components/key-required.tsx';
import { Progress } from '../../components/progress.tsx';
import { useAsync } from '../../components/use-async.ts';
import { SnapshotChart } from './snapshot-chart.tsx';

/** The console path of a table's lineage graph: its node as lakeline's own events name it. */
export const lineagePathOf = (location: string): string => `/lineage?node=${encodeURIComponent(datasetNodeId(datasetIdentity(location)))}`;

/** The table page. */
export const TablePage = () => {
  const api = useApi();
  const { namespace = '', table = '' } = useParams();
  const allowed = mayCall(api.credentials, 'GET /api/v1/tables/{namespace}/{table}');
  const described = useAsync(
    (signal) => (allowed ? api.table(namespace, table, { signal }) : Promise.resolve(undefined)),
    `${api.credentials.kind}|${namespace}|${table}`,
  );
  if (!allowed) return <KeyRequired what="The table page" routeKey="GET /api/v1/tables/{namespace}/{table}" />;
  const t = described.data;
  const snapshots = [...(t?.snapshots ?? [])].sort((a, b) => b.timestamp.localeCompare(a.timestamp));

  return (
    <div className="table-page">
      <div className="page-head">
        <h1>
          <Link to={`/tables?namespace=${encodeURIComponent(namespace)}`} className="muted">
            {namespace}
          </Link>{' '}
          . {table}
        </h1>
        {t ? (
          <div className="head-actions">
            <Link className="button" to={lineagePathOf(t.location)} data-testid="lineage-link">
              Lineage
            </Link>
            <Link className="button" to={`/query?sql=${encodeURIComponent(`SELECT * FROM ${namespace}.${table} LIMIT 100`)}`}>
              Query
            </Link>
          </div>
        ) : null}
      </div>
      {described.loading ? <Progress label="Reading the table's metadata…" since={described.startedAt} /> : null}
      {described.error ? <ErrorPanel error={described.error} /> : null}
      {t ? (
        <>
          <dl className="facts facts-grid" data-testid="table-facts">
            <dt>Rows</dt>
            <dd data-testid="record-count">{formatCount(t.record_count)}</dd>
            <dt>Size</dt>
            <dd title={`${t.size_bytes} bytes`}>{formatBytes(t.size_bytes)}</dd>
            <dt>Data files</dt>
            <dd>
              {t.data_file_count}
              {t.delete_file_count ? ` (+${t.delete_file_count} delete files)` : ''}
            </dd>
            <dt>Current snapshot</dt>
            <dd className="mono">
              {t.current_snapshot_id ?? 'none'} <span className="muted">{formatTime(t.current_snapshot_time)}</span>
            </dd>
            <dt>Format</dt>
            <dd>Iceberg v{t.format_version}</dd>
            <dt>Location</dt>
            <dd className="mono wrap">{t.location}</dd>
          </dl>

          <h2>Schema</h2>
          <table className="data-table" data-testid="schema-table">
            <thead>
              <tr>
                <th scope="col">Field id</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
              </tr>
            </thead>
            <tbody>
              {t.schema.map((f) => (
                <tr key={f.id}>
                  <td className="number-cell">{f.id}</td>
                  <td className="mono">{f.name}</td>
                  <td className="mono">{f.type}</td>
                  <td>{f.required ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>

          <h2>Partitioning</h2>
          {t.partition_spec.length === 0 ? (
            <p data-testid="partitioning">Unpartitioned.</p>
          ) : (
            <table className="data-table" data-testid="partitioning">
              <thead>
                <tr>
                  <th scope="col">Partition field</th>
                  <th scope="col">Transform</th>
                  <th scope="col">Source column (field id)</th>
                </tr>
              </thead>
              <tbody>
                {t.partition_spec.map((p) => (
                  <tr key={p.field_id}>
                    <td className="mono">{p.name}</td>
                    <td className="mono">{p.transform}</td>
                    <td className="mono">
                      {p.source_column ?? '?'} ({p.source_id})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}

          <h2>Snapshots</h2>
          <SnapshotChart snapshots={t.snapshots} />
          <table className="data-table" data-testid="snapshots-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Snapshot id</th>
                <th scope="col">Operation</th>
                <th scope="col" className="number-cell">
                  Added records
                </th>
                <th scope="col" className="number-cell">
                  Total records
                </th>
                <th scope="col" className="number-cell">
                  Total size
                </th>
              </tr>
            </thead>
            <tbody>
              {snapshots.map((s) => (
                <tr key={s.snapshot_id}>
                  <td className="nowrap">{formatTime(s.timestamp)}</td>
                  <td className="mono">{s.snapshot_id}</td>
                  <td>{s.operation ?? '—'}</td>
                  <td className="number-cell">{formatCount(s.summary['added-records'] ?? '—')}</td>
                  <td className="number-cell">{formatCount(s.summary['total-records'] ?? '—')}</td>
                  <td className="number-cell">{s.summary['total-files-size'] ? formatBytes(s.summary['total-files-size']) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
};
