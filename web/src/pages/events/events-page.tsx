/**
 * @module pages/events/events-page
 * The events API as a table: every filter of the contract, paging by offset, and the raw event
 * on click. Filters live in the URL.
 */
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useApi } from '../../auth/auth-context.tsx';
import type { LineageEvent } from '../../api/types.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatBytes, formatTime } from '../../components/format.ts';
import { ProducerSetup } from '../../components/producer-setup.tsx';
import { Progress } from '../../components/progress.tsx';
import { StateBadge } from '../../components/state-badge.tsx';
import { useAsync } from '../../components/use-async.ts';
import { EventDetail } from './event-detail.tsx';
import { EventFilterForm } from './event-filter-form.tsx';
import { filtersFromSearch, isFiltered, searchFromFilters, toEventsParams, type EventFilters } from './event-filters.ts';

/** The events page. */
export const EventsPage = () => {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const [selected, setSelected] = useState<LineageEvent>();
  const apply = useCallback((next: EventFilters) => setSearch(searchFromFilters(next)), [setSearch]);
  const closeDetail = useCallback(() => setSelected(undefined), []);

  const events = useAsync((signal) => api.events(toEventsParams(filters, new Date()), { signal }), `${api.credentials.kind}|${search.toString()}`);
  const rows = events.data ?? [];

  return (
    <div className="events-page">
      <div className="page-head">
        <h1>Events</h1>
        <button type="button" onClick={events.reload}>
          Refresh
        </button>
      </div>
      <EventFilterForm filters={filters} onApply={apply} onClear={() => setSearch(new URLSearchParams())} />
      {events.loading ? <Progress label="Loading events…" since={events.startedAt} /> : null}
      {events.error ? <ErrorPanel error={events.error} /> : null}
      {!events.loading && !events.error && rows.length === 0 ? (
        filters.offset > 0 ? (
          <EmptyState title="No more events">
            <p>This page is past the last event.</p>
            <button type="button" onClick={() => apply({ ...filters, offset: 0 })}>
              Back to the first page
            </button>
          </EmptyState>
        ) : isFiltered(filters) ? (
          <EmptyState title="No events match these filters">
            <p>Widen the time range or clear a filter.</p>
            <button type="button" onClick={() => setSearch(new URLSearchParams())}>
              Clear filters
            </button>
            <details>
              <summary>How to send events to lakeline</summary>
              <ProducerSetup />
            </details>
          </EmptyState>
        ) : (
          <EmptyState title="No lineage events yet">
            <ProducerSetup />
          </EmptyState>
        )
      ) : null}
      {rows.length > 0 ? (
        <>
          <div className="table-scroll">
            <table className="data-table events-table" data-testid="events-table">
              <thead>
                <tr>
                  <th scope="col">Event time</th>
                  <th scope="col">State</th>
                  <th scope="col">Job</th>
                  <th scope="col">Run</th>
                  <th scope="col">Integration</th>
                  <th scope="col">In → out</th>
                  <th scope="col" className="number-cell">
                    Size
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((event) => (
                  <tr key={event.id} className={selected?.id === event.id ? 'selected clickable' : 'clickable'} onClick={() => setSelected(event)} data-event-id={event.id}>
                    <td className="nowrap">{formatTime(event.event_time)}</td>
                    <td>
                      <StateBadge state={event.run_state} />
                    </td>
                    <td>
                      <span className="muted">{event.job_namespace}</span> / {event.job_name}
                    </td>
                    <td>
                      {event.run_id ? (
                        <button
                          type="button"
                          className="link-button mono"
                          title="Show only this run's events"
                          onClick={(e) => {
                            e.stopPropagation();
                            apply({ ...filters, run: event.run_id ?? '', offset: 0 });
                          }}
                        >
                          {event.run_id.slice(0, 8)}
                        </button>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>
                      {event.integration} <span className="muted">{event.integration_version}</span>
                    </td>
                    <td>
                      {event.inputs.length} → {event.outputs.length}
                    </td>
                    <td className="number-cell">{formatBytes(event.event_size_in_bytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager" data-testid="pager">
            <button type="button" disabled={filters.offset === 0} onClick={() => apply({ ...filters, offset: Math.max(0, filters.offset - filters.limit) })}>
              ← Previous
            </button>
            <span>
              Events {filters.offset + 1}–{filters.offset + rows.length}
            </span>
            <button type="button" disabled={rows.length < filters.limit} onClick={() => apply({ ...filters, offset: filters.offset + filters.limit })}>
              Next →
            </button>
          </div>
        </>
      ) : null}
      {selected ? <EventDetail event={selected} onClose={closeDetail} /> : null}
    </div>
  );
};
