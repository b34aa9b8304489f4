/**
 * @module pages/lineage/graph-controls
 * The graph's settings: depth, direction, `asOf` (a date-time picker, UTC), one run of the job
 * (its runs from `GET …/jobs/{job}/runs`) and compact or full nodes. Each change goes to the URL.
 */
import { useApi } from '../../auth/auth-context.tsx';
import { formatTime } from '../../components/format.ts';
import { useAsync } from '../../components/use-async.ts';
import type { LineageSettings } from './lineage-links.ts';
import { parseNodeId } from './lineage-node.ts';

/** `2020-10-01T00:00:00Z` → `2020-10-01T00:00` (the picker's value, read as UTC). */
const pickerValue = (iso: string | undefined): string => {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 16);
};

/** The picker's `2020-10-01T00:00` as UTC ISO-8601. */
const isoOf = (value: string): string | undefined => (value ? `${value}:00Z` : undefined);

/** The controls above the graph. */
export const GraphControls = ({
  settings,
  onChange,
  focus,
}: {
  settings: LineageSettings;
  onChange(next: LineageSettings): void;
  /** The node's namespace and name as the graph answered them (where its id splits is the API's to say, ADR 0043). */
  focus?: { readonly namespace: string; readonly name: string } | undefined;
}) => {
  const api = useApi();
  const parsed = settings.node ? parseNodeId(settings.node) : undefined;
  const node = parsed && focus ? { ...parsed, namespace: focus.namespace, name: focus.name } : undefined;
  const isJob = node?.type === 'job';
  const runs = useAsync(
    (signal) => (node && isJob ? api.jobRuns(node.namespace, node.name, { limit: 100 }, { signal }) : Promise.resolve(undefined)),
    `${settings.node ?? ''}\u0000${node?.namespace ?? ''}`,
  );
  const set = (change: Partial<LineageSettings>) => onChange({ ...settings, ...change });
  return (
    <form className="graph-controls filters" onSubmit={(e) => e.preventDefault()} aria-label="Graph settings">
      <label>
        Depth
        <input type="number" name="depth" min={0} max={100} value={settings.depth ?? '20'} onChange={(e) => set({ depth: e.target.value === '20' ? undefined : e.target.value })} />
      </label>
      <label>
        Direction
        <select name="direction" value={settings.direction ?? 'both'} onChange={(e) => set({ direction: e.target.value === 'both' ? undefined : e.target.value })}>
          <option value="both">both</option>
          <option value="upstream">upstream</option>
          <option value="downstream">downstream</option>
        </select>
      </label>
      <label>
        As of (UTC)
        <input type="datetime-local" name="asOf" value={pickerValue(settings.asOf)} onChange={(e) => set({ asOf: isoOf(e.target.value), runId: undefined })} />
      </label>
      {isJob ? (
        <label>
          Run
          <select name="runId" value={settings.runId ?? ''} onChange={(e) => set({ runId: e.target.value || undefined, asOf: undefined })}>
            <option value="">latest (every run)</option>
            {(runs.data?.runs ?? []).map((run) => (
              <option key={run.id} value={run.id}>
                {formatTime(run.startedAt ?? run.createdAt)} · {run.state} · {run.id.slice(0, 8)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label>
        Nodes
        <select name="mode" value={settings.mode === 'compact' ? 'compact' : 'full'} onChange={(e) => set({ mode: e.target.value === 'compact' ? 'compact' : undefined })}>
          <option value="full">full</option>
          <option value="compact">compact</option>
        </select>
      </label>
      {settings.asOf || settings.runId ? (
        <button type="button" onClick={() => set({ asOf: undefined, runId: undefined })}>
          Back to now
        </button>
      ) : null}
    </form>
  );
};
