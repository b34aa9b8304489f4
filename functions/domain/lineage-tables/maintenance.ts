/**
 * @module lineage-tables/maintenance
 * The lineage tables' scheduled upkeep (ADR 0056), run hourly with the results expiry: every org's
 * small export files are rewritten into one file per day and old snapshots expire, so a month of a
 * busy org's events reads as about thirty files; where a retention is set, days before it are
 * deleted (whole partitions, nothing rewritten).
 */
import type { OrgStore } from '../orgs/ports.ts';
import type { CompactionOutcome, LineageTablesStore } from './ports.ts';

/** What the upkeep needs. */
export interface LineageTablesMaintenanceDeps {
  readonly orgs: Pick<OrgStore, 'list'>;
  readonly tables: LineageTablesStore;
}

/** What one run did. */
export interface MaintenanceReport {
  readonly compacted: { readonly orgId: string; readonly outcome: CompactionOutcome }[];
  readonly failed: { readonly orgId: string; readonly error: string }[];
}

/** The first day kept by a retention of `days` (UTC, `YYYY-MM-DD`). */
export const firstDayKept = (now: Date, days: number): string => new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);

/** Compacts (and, with `retentionDays`, expires) every org's lineage tables; one org's failure stops no other. */
export async function maintainLineageTables(deps: LineageTablesMaintenanceDeps, now: Date, retentionDays?: number): Promise<MaintenanceReport> {
  const compacted: MaintenanceReport['compacted'] = [];
  const failed: MaintenanceReport['failed'] = [];
  for (const org of await deps.orgs.list()) {
    try {
      if (retentionDays !== undefined) await deps.tables.expire(org.orgId, firstDayKept(now, retentionDays));
      const outcome = await deps.tables.compact(org.orgId);
      if (outcome.filesRewritten > 0 || outcome.snapshotsExpired > 0 || outcome.runsRewritten) compacted.push({ orgId: org.orgId, outcome });
    } catch (err) {
      failed.push({ orgId: org.orgId, error: (err as Error).message });
    }
  }
  return { compacted, failed };
}
