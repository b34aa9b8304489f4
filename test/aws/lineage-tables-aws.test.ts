/**
 * The lineage tables' export in the AWS profile against the emulated account (ADR 0056): the
 * subscriber hands a batch to the lake writer Lambda (behind the Invoke stand-in) through the AWS
 * profile's own adapter, which commits `lineage.run_events` and `lineage.runs` to Glue and S3 in
 * the org's own databases; a redelivered batch adds nothing; compaction keeps every row.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { describeTable } from '#domain/lake/describe';
import { LINEAGE_TABLES_SUBSCRIBER, lineageTablesSubscriber } from '#domain/lineage-tables/feed-subscriber';
import { LakeWriterLineageTables } from '#domain/lineage-tables/lake-writer-store';
import { newRunId, runEventJson, stored } from '../unit/domain/lineage-graph/events.ts';
import { useAwsProfile, type AwsProfile } from './aws-profile.ts';
import { createEmulatedLake, type EmulatedLake } from './emulated-lake.ts';

let lake: EmulatedLake;
let aws: AwsProfile;

beforeAll(async () => {
  lake = await createEmulatedLake(inject('aws'));
  aws = await useAwsProfile(inject('aws'), lake);
}, 180_000);

afterAll(async () => {
  await lake.close();
});

const recordCount = async (orgId: string, table: string): Promise<number> => {
  const found = await lake.catalog.loadTable(orgId, { namespace: 'lineage', table });
  if (!found) throw new Error(`lineage.${table} is not in the catalog`);
  return Number(describeTable({ namespace: 'lineage', table }, await lake.storage.readText(found.metadataLocation)).record_count);
};

describe('the lineage tables export through the lake writer Lambda', () => {
  it('Should commit the batch to Glue once, merge its runs, and keep every row through compaction', async () => {
    // Prepare
    const runs = [newRunId(), newRunId()];
    const events = runs.flatMap((runId, i) => [
      stored(runEventJson({ eventType: 'START', time: `2026-03-0${1 + i}T10:00:00Z`, runId, job: `job_${i}` })),
      stored(runEventJson({ eventType: 'COMPLETE', time: `2026-03-0${1 + i}T10:05:00Z`, runId, job: `job_${i}` })),
    ]);
    const store = new LakeWriterLineageTables(lake.writer);
    const subscriber = lineageTablesSubscriber(() => store);
    // Act
    // The runs' STARTs, then every event again (the STARTs redelivered): two files a day, rows once.
    await subscriber.handle(aws.orgId, [events[0], events[2]].filter((e) => e !== undefined));
    await subscriber.handle(aws.orgId, events);
    const compacted = await store.compact(aws.orgId, 0);
    // Assess
    expect(subscriber.name).toBe(LINEAGE_TABLES_SUBSCRIBER);
    expect((await lake.catalog.listTables(aws.orgId, 'lineage')).map((t) => t.table).sort()).toEqual(['run_events', 'runs']);
    expect(await recordCount(aws.orgId, 'run_events')).toBe(4);
    expect(await recordCount(aws.orgId, 'runs')).toBe(2);
    expect(compacted).toMatchObject({ days: 2, filesRewritten: 4 });
    expect(compacted.snapshotsExpired).toBeGreaterThan(0);
    expect(await store.exportedMark(aws.orgId)).not.toBe('');
    expect((await lake.keys(`warehouse/`)).some((k) => k.includes('run_events/data/event_time_day=2026-03-01/'))).toBe(true);
  }, 180_000);
});
