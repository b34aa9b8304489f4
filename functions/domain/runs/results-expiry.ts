/**
 * @module results-expiry
 * Results tables (`lakeline_results.r_<run id>`: the rows of a routed read that ran as a batch
 * run on Spark or bloom) are there to be paged through the runs API, not kept: after a retention
 * period they are dropped, files and all, through the lake writer. A table's age is the time of
 * its last change (`last-updated-ms` of its current Iceberg metadata), so a table is never dropped
 * while a run is still writing it. The runs API then answers the run without `results`.
 */
import type { Catalog, LakeStorage, LakeWriter } from '../lake/ports.ts';
import type { OrgStore } from '../orgs/ports.ts';
import { RESULTS_NAMESPACE } from '../core/names.ts';

/** How long results tables are kept unless configured otherwise (`LAKELINE_RESULTS_TTL_DAYS`). */
export const DEFAULT_RESULTS_TTL_DAYS = 7;

/** What {@link expireResultTables} needs. */
export interface ResultsExpiryDeps {
  readonly orgs: Pick<OrgStore, 'list'>;
  readonly catalog: Pick<Catalog, 'listTables'>;
  readonly storage: LakeStorage;
  readonly writer: Pick<LakeWriter, 'drop'>;
}

/** What one sweep did. */
export interface ExpiryReport {
  /** `org/namespace.table` of each dropped table. */
  readonly dropped: string[];
  /** Results tables younger than the retention period. */
  readonly kept: number;
  /** Tables that could not be read or dropped (the next sweep tries again). */
  readonly failed: { readonly table: string; readonly error: string }[];
}

/** Milliseconds of a retention period given in days. */
export const retentionMs = (days: number): number => {
  if (!Number.isFinite(days) || days <= 0) throw new RangeError(`the results retention must be a positive number of days, not ${days}`);
  return days * 86_400_000;
};

/** The time of a table's last change, from its metadata document. */
const lastUpdatedMs = (metadataText: string): number => {
  const value = (JSON.parse(metadataText) as { 'last-updated-ms'?: unknown })['last-updated-ms'];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('the table metadata has no last-updated-ms');
  return value;
};

/**
 * Drops every org's results tables last changed more than `maxAgeMs` before `now`. One table's
 * failure does not stop the sweep; it is reported and retried next time.
 */
export async function expireResultTables(deps: ResultsExpiryDeps, now: Date, maxAgeMs: number): Promise<ExpiryReport> {
  const dropped: string[] = [];
  const failed: { table: string; error: string }[] = [];
  let kept = 0;
  const cutoff = now.getTime() - maxAgeMs;
  for (const org of await deps.orgs.list()) {
    for (const table of await deps.catalog.listTables(org.orgId, RESULTS_NAMESPACE)) {
      const name = `${org.orgId}/${table.namespace}.${table.table}`;
      try {
        if (lastUpdatedMs(await deps.storage.readText(table.metadataLocation)) >= cutoff) {
          kept += 1;
          continue;
        }
        // Purged: a results table is nobody's data once expired, and its files would stay forever.
        await deps.writer.drop(org.orgId, { namespace: table.namespace, table: table.table }, { purge: true });
        dropped.push(name);
      } catch (err) {
        failed.push({ table: name, error: (err as Error).message });
      }
    }
  }
  return { dropped, kept, failed };
}
