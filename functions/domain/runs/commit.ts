/**
 * @module runs/commit
 * A run's outcome follows the catalog: a run that writes a table is COMPLETE if and only if its
 * commit is in the catalog. Its engine's report (a result document, EMR's state, a statement's
 * status) says what it knows, but a process can die between committing and reporting, and a
 * report can claim a write that never landed; so before a run ends, the table is looked at.
 *
 * How a commit is tied to its run: the Spark job writes the run id into the snapshot summary of
 * its commit (`lakeline.run-id`, `jobs/spark/lakeline_spark/write.py`); a results table of a
 * batch read or a bloom run is named after its run (`lakeline_results.r_<run>`) and created by
 * one atomic CTAS, so its existence is its commit.
 */
import type { Catalog, LakeStorage } from '../lake/ports.ts';
import { describeTable } from '../lake/describe.ts';
import type { Run, RunOutcome } from './run.ts';

/** The snapshot summary property that carries the id of the run that committed the snapshot. */
export const RUN_ID_PROPERTY = 'lakeline.run-id';

/** What a committed write added, from its snapshot's summary. */
export interface CommittedWrite {
  readonly snapshotId: string;
  readonly rowsWritten: number;
  readonly bytesWritten: number;
  readonly filesWritten: number;
}

/** What the check needs: the catalog and the files it points at. */
export type CommitDeps = { readonly catalog: Catalog; readonly storage: LakeStorage };

const count = (value: string | undefined): number => {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/**
 * The commit of a run, found in the catalog, or undefined when the catalog holds none (no such
 * table, or no snapshot of this run). Runs that write no table have none.
 */
export async function findCommit(deps: CommitDeps, run: Run): Promise<CommittedWrite | undefined> {
  if (!run.outputTable) return undefined;
  const table = await deps.catalog.loadTable(run.orgId, run.outputTable);
  if (!table) return undefined;
  const description = describeTable(run.outputTable, await deps.storage.readText(table.metadataLocation));
  // A results table exists only through its run's one CTAS: its current snapshot is the commit.
  const snapshot = run.results
    ? description.snapshots.find((s) => s.snapshot_id === description.current_snapshot_id)
    : description.snapshots.find((s) => s.summary[RUN_ID_PROPERTY] === run.runId);
  if (!snapshot) return undefined;
  return {
    snapshotId: snapshot.snapshot_id,
    rowsWritten: count(run.results ? snapshot.summary['total-records'] : snapshot.summary['added-records']),
    bytesWritten: count(run.results ? snapshot.summary['total-files-size'] : snapshot.summary['added-files-size']),
    filesWritten: count(run.results ? snapshot.summary['total-data-files'] : snapshot.summary['added-data-files']),
  };
}

/**
 * The outcome to record for a run, given what its engine reported and what the catalog holds:
 * - a commit of the run exists: COMPLETE with what the commit added, whatever was reported (the
 *   process may have died after committing, or failed afterwards reading its own statistics);
 * - no commit, reported COMPLETE: FAIL (the report claims a write the catalog does not have);
 * - otherwise the report as it is (FAIL or ABORT, with nothing of the run visible in the table).
 * Runs without an output table are left to their report.
 */
export async function outcomeFollowingCatalog(deps: CommitDeps, run: Run, reported: RunOutcome): Promise<RunOutcome> {
  if (!run.outputTable) return reported;
  const commit = await findCommit(deps, run);
  if (commit) {
    const { error: _error, ...rest } = reported;
    return { ...rest, state: 'COMPLETE', rowsWritten: commit.rowsWritten, bytesWritten: commit.bytesWritten, filesWritten: commit.filesWritten };
  }
  if (reported.state !== 'COMPLETE') return reported;
  return { ...reported, state: 'FAIL', error: 'the engine reported success, but the catalog holds no commit of this run; nothing of it was written' };
}
