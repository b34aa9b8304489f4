/**
 * @module alerts/signals
 * What an alert rule can read in one stored OpenLineage event: a run that ended badly or well,
 * a run's start, the datasets it wrote and how much (the `outputStatistics` output facet, or
 * `dataQualityMetrics` where a producer puts it on an output), and data-quality assertions (the
 * `dataQualityAssertions` facet dbt-ol, Great Expectations and Soda send, on a dataset's input
 * facets, and on its dataset facets where Airflow's manual lineage puts it).
 */
import type { FeedEvent } from '../feed/ports.ts';

/** A dataset by name. */
export interface DatasetName {
  readonly namespace: string;
  readonly name: string;
}

/** One assertion's outcome on a dataset. */
export interface AssertionOutcome {
  readonly dataset: DatasetName;
  readonly assertion: string;
  /** `null` when it tests the whole dataset. */
  readonly column: string | null;
  readonly success: boolean;
  readonly severity: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

const datasetsOf = (event: FeedEvent, side: 'inputs' | 'outputs'): Record<string, unknown>[] => {
  const list = event.event_raw[side];
  return Array.isArray(list) ? list.filter(isRecord) : [];
};

const nameOf = (dataset: Record<string, unknown>): DatasetName | undefined =>
  typeof dataset.namespace === 'string' && typeof dataset.name === 'string' ? { namespace: dataset.namespace, name: dataset.name } : undefined;

/** Every assertion the event reports, on its inputs and outputs (input facets and dataset facets). */
export const assertionsOf = (event: FeedEvent): AssertionOutcome[] => {
  const out: AssertionOutcome[] = [];
  const seen = new Set<string>();
  for (const dataset of [...datasetsOf(event, 'inputs'), ...datasetsOf(event, 'outputs')]) {
    const name = nameOf(dataset);
    if (!name) continue;
    for (const holder of [dataset.inputFacets, dataset.facets]) {
      const facet = isRecord(holder) ? holder.dataQualityAssertions : undefined;
      const assertions = isRecord(facet) && Array.isArray(facet.assertions) ? facet.assertions.filter(isRecord) : [];
      for (const a of assertions) {
        if (typeof a.assertion !== 'string' || typeof a.success !== 'boolean') continue;
        const column = typeof a.column === 'string' && a.column !== '' ? a.column : null;
        const id = `${name.namespace}\u0000${name.name}\u0000${column ?? ''}\u0000${a.assertion}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ dataset: name, assertion: a.assertion, column, success: a.success, severity: typeof a.severity === 'string' ? a.severity : null });
      }
    }
  }
  return out;
};

/** The datasets the event names as outputs. */
export const outputsOf = (event: FeedEvent): DatasetName[] => datasetsOf(event, 'outputs').flatMap((d) => nameOf(d) ?? []);

/** Rows and bytes the event's outputs report, summed (`null` when none reports it). */
export const writtenFiguresOf = (event: FeedEvent): { rows: number | null; bytes: number | null } => {
  let rows: number | null = null;
  let bytes: number | null = null;
  for (const dataset of datasetsOf(event, 'outputs')) {
    const facets = isRecord(dataset.outputFacets) ? dataset.outputFacets : {};
    const stats = isRecord(facets.outputStatistics) ? facets.outputStatistics : isRecord(facets.dataQualityMetrics) ? facets.dataQualityMetrics : undefined;
    if (!stats) continue;
    const r = numberOf(stats.rowCount);
    const b = numberOf(stats.size) ?? numberOf(stats.bytes);
    if (r !== null) rows = (rows ?? 0) + r;
    if (b !== null) bytes = (bytes ?? 0) + b;
  }
  return { rows, bytes };
};

/** The run's error message (`errorMessage` run facet), if the producer sent one. */
export const errorMessageOf = (event: FeedEvent): string | null => {
  const run = event.event_raw.run;
  const facets = isRecord(run) && isRecord(run.facets) ? run.facets : {};
  const facet = facets.errorMessage;
  return isRecord(facet) && typeof facet.message === 'string' ? facet.message.slice(0, 500) : null;
};
