/**
 * @module pages/events/event-detail
 * One stored event: its derived fields, its datasets, and the raw event exactly as ingested.
 */
import { useEffect } from 'react';
import type { LineageEvent } from '../../api/types.ts';
import { formatBytes, formatTime } from '../../components/format.ts';
import { JsonView } from '../../components/json-view.tsx';
import { StateBadge } from '../../components/state-badge.tsx';

const datasets = (list: LineageEvent['inputs']) => (list.length ? list.map((d) => `${d.namespace} / ${d.name}`).join('\n') : '—');

/** A side panel with the event; Escape or the close button closes it. */
export const EventDetail = ({ event, onClose }: { event: LineageEvent; onClose(): void }) => {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside className="side-panel" aria-label="Event detail" data-testid="event-detail">
      <div className="side-panel-head">
        <h2>
          <StateBadge state={event.run_state} /> {event.job_namespace} / {event.job_name}
        </h2>
        <button type="button" onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      <dl className="facts">
        <dt>Event id</dt>
        <dd>{event.id}</dd>
        <dt>Run id</dt>
        <dd>{event.run_id ?? '—'}</dd>
        <dt>Event time</dt>
        <dd>{formatTime(event.event_time)}</dd>
        <dt>Received</dt>
        <dd>{formatTime(event.received_at)}</dd>
        <dt>Producer</dt>
        <dd>{event.produced_by}</dd>
        <dt>Integration</dt>
        <dd>
          {event.integration} {event.integration_version}
        </dd>
        <dt>Schema</dt>
        <dd>
          {event.event_schema} {event.event_schema_version}
        </dd>
        <dt>Size</dt>
        <dd>{formatBytes(event.event_size_in_bytes)}</dd>
        {event.parent_run_id ? (
          <>
            <dt>Parent run</dt>
            <dd>
              {event.parent_job_namespace} / {event.parent_job_name} ({event.parent_run_id})
            </dd>
          </>
        ) : null}
        <dt>Inputs</dt>
        <dd className="pre-line">{datasets(event.inputs)}</dd>
        <dt>Outputs</dt>
        <dd className="pre-line">{datasets(event.outputs)}</dd>
      </dl>
      <h3>Raw event</h3>
      <JsonView value={event.event_raw} label="Raw event" />
    </aside>
  );
};
