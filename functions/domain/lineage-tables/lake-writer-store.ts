/**
 * @module lineage-tables/lake-writer-store
 * {@link LineageTablesStore} over the lake writer's protocol (`lineage_export`, `lineage_mark`,
 * `lineage_drop` in `functions/lakewriter/lakewriter/lineage_tables.py`), whatever carries it: the
 * subprocess locally, the Lambda in AWS.
 */
import type { ProtocolLakeWriter } from '../lake/lake-writer-protocol.ts';
import type { CompactionOutcome, ExportOutcome, LineageTablesStore } from './ports.ts';
import type { RunEventRow } from './rows.ts';

/** The lineage tables, written by the lake writer. */
export class LakeWriterLineageTables implements LineageTablesStore {
  constructor(private readonly writer: ProtocolLakeWriter) {}

  async export(orgId: string, rows: readonly RunEventRow[], mark: string): Promise<ExportOutcome> {
    const r = await this.writer.command('lineage_export', { org_id: orgId, rows, mark });
    return { appended: Number(r.appended), runsWritten: Number(r.runs_written), mark: String(r.mark) };
  }

  async exportedMark(orgId: string): Promise<string> {
    return String((await this.writer.command('lineage_mark', { org_id: orgId })).mark ?? '');
  }

  async compact(orgId: string, snapshotAgeHours = 24): Promise<CompactionOutcome> {
    const r = await this.writer.command('lineage_compact', { org_id: orgId, snapshot_age_hours: snapshotAgeHours });
    return { days: Number(r.days), filesRewritten: Number(r.files_rewritten), runsRewritten: r.runs_rewritten === true, snapshotsExpired: Number(r.snapshots_expired) };
  }

  async expire(orgId: string, beforeDay: string): Promise<void> {
    await this.writer.command('lineage_expire', { org_id: orgId, before: beforeDay });
  }

  async drop(orgId: string): Promise<readonly string[]> {
    return ((await this.writer.command('lineage_drop', { org_id: orgId })).dropped as string[] | undefined) ?? [];
  }
}
