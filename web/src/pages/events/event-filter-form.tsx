/**
 * @module pages/events/event-filter-form
 * The events filters: time range, run states, job namespace and name, run id, integrations,
 * sort, order and page size. Edits are a draft until applied.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { RUN_STATES } from '../../api/types.ts';
import { PAGE_SIZES, RANGES, type EventFilters, type RangeId } from './event-filters.ts';

/** The filter form; `onApply` gets the new filters (paging back to the first page). */
export const EventFilterForm = ({ filters, onApply, onClear }: { filters: EventFilters; onApply(next: EventFilters): void; onClear(): void }) => {
  const [draft, setDraft] = useState(filters);
  useEffect(() => setDraft(filters), [filters]);
  const set = <K extends keyof EventFilters>(name: K, value: EventFilters[K]) => setDraft((d) => ({ ...d, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, offset: 0 });
  };

  return (
    <form className="filters" onSubmit={submit} aria-label="Event filters">
      <div className="filter-row">
        <label>
          Time range
          <select name="range" value={draft.range} onChange={(e) => set('range', e.target.value as RangeId)}>
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        {draft.range === 'custom' ? (
          <>
            <label>
              From
              <input type="datetime-local" name="from" step="1" value={draft.from} onChange={(e) => set('from', e.target.value)} />
            </label>
            <label>
              To (exclusive)
              <input type="datetime-local" name="to" step="1" value={draft.to} onChange={(e) => set('to', e.target.value)} />
            </label>
          </>
        ) : null}
        <label>
          Namespace contains
          <input name="namespace" value={draft.namespace} onChange={(e) => set('namespace', e.target.value)} placeholder="any" />
        </label>
        <label>
          Job contains
          <input name="job" value={draft.job} onChange={(e) => set('job', e.target.value)} placeholder="any" />
        </label>
        <label>
          Run id
          <input name="run" value={draft.run} onChange={(e) => set('run', e.target.value)} placeholder="any" size={38} />
        </label>
        <label>
          Integrations
          <input name="integrations" value={draft.integrations} onChange={(e) => set('integrations', e.target.value)} placeholder="spark, airflow…" />
        </label>
      </div>
      <div className="filter-row">
        <fieldset className="states">
          <legend>States</legend>
          {RUN_STATES.map((state) => (
            <label key={state} className="check">
              <input
                type="checkbox"
                name="states"
                value={state}
                checked={draft.states.includes(state)}
                onChange={(e) => set('states', e.target.checked ? [...draft.states, state] : draft.states.filter((s) => s !== state))}
              />
              {state}
            </label>
          ))}
        </fieldset>
        <label>
          Sort by
          <select name="sort_by" value={draft.sortBy} onChange={(e) => set('sortBy', e.target.value as EventFilters['sortBy'])}>
            <option value="EVENT_TIME">event time</option>
            <option value="EVENT_SIZE_IN_BYTES">event size</option>
          </select>
        </label>
        <label>
          Order
          <select name="order" value={draft.order} onChange={(e) => set('order', e.target.value as EventFilters['order'])}>
            <option value="DESC">descending</option>
            <option value="ASC">ascending</option>
          </select>
        </label>
        <label>
          Page size
          <select name="limit" value={draft.limit} onChange={(e) => set('limit', Number(e.target.value))}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button type="button" onClick={onClear}>
            Clear
          </button>
        </div>
      </div>
    </form>
  );
};
