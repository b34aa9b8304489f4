/**
 * @module runs/deps
 * What the run use cases need, composed once per process (`composition/use-cases.ts`, `runDepsOf`).
 */
import type { Catalog, LakeStorage } from '../lake/ports.ts';
import type { LineageSink } from '../lineage-capture/ports.ts';
import type { OrgStore } from '../orgs/ports.ts';
import type { RunStore, SparkEngine } from './ports.ts';

/** Dependencies of the run use cases. */
export interface RunDeps {
  readonly runs: RunStore;
  readonly orgs: Pick<OrgStore, 'get' | 'addUsage'>;
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  readonly engine: SparkEngine;
  readonly lineage: LineageSink;
  /**
   * Whether the platform bills runs itself and reports it with each run's end (EMR's billed
   * utilization arrives with the terminal state change, also after an abort). Otherwise usage is
   * the vCPUs that served the run times its wall-clock time.
   */
  readonly meteredByPlatform: boolean;
  /** Problems that must not fail a request (lineage, metering) are logged here. */
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
  readonly now: () => Date;
  readonly newRunId: () => string;
}
