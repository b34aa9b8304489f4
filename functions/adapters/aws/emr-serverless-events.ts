/**
 * @module emr-serverless-events
 * Turns an "EMR Serverless Job Run State Change" event into a run outcome. The event says only
 * which job run changed state; `GetJobRun` gives its name (the run id), its bill and why it
 * stopped, and the job's result document (in S3) gives what it wrote or Spark's own error.
 */
import { GetJobRunCommand, type EMRServerlessClient, type JobRun } from '@aws-sdk/client-emr-serverless';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { outcomeFromResult } from '#domain/runs/job-result';
import type { RunStateReport, RunStateReports } from '#domain/runs/ports';
import type { RunOutcome } from '#domain/runs/run';
import { parseS3Uri, RESULT_URI_TAG, RUN_ID_TAG } from './emr-serverless.ts';

/** The detail-type of the events this module reads. */
export const JOB_RUN_STATE_CHANGE = 'EMR Serverless Job Run State Change';

/** Job run states that end a run. */
export const TERMINAL_STATES = ['SUCCESS', 'FAILED', 'CANCELLED'] as const;

/** The part of an event this module needs. */
export interface JobRunStateChange {
  readonly applicationId: string;
  readonly jobRunId: string;
  readonly state: string;
}

/** Reads a state-change event; undefined for any other event. */
export const parseStateChange = (event: unknown): JobRunStateChange | undefined => {
  const e = event as { source?: unknown; 'detail-type'?: unknown; detail?: Record<string, unknown> } | null;
  if (!e || e.source !== 'aws.emr-serverless' || e['detail-type'] !== JOB_RUN_STATE_CHANGE || !e.detail) return undefined;
  const { applicationId, jobRunId, state } = e.detail;
  if (typeof applicationId !== 'string' || typeof jobRunId !== 'string' || typeof state !== 'string') return undefined;
  return { applicationId, jobRunId, state };
};

/** A job run as lakeline sees it. */
export interface ObservedRun {
  readonly runId: string;
  /** Set once the job run has ended. */
  readonly outcome?: RunOutcome;
}

const vcpuSecondsOf = (run: JobRun): number | undefined => {
  const hours = run.billedResourceUtilization?.vCPUHour ?? run.totalResourceUtilization?.vCPUHour;
  return hours === undefined ? undefined : Math.round(hours * 3600 * 1000) / 1000;
};

/** Reads EMR job runs and the results their jobs wrote: the state reports of the deployment's EMR application. */
export class EmrRunObserver implements RunStateReports {
  constructor(
    private readonly emr: EMRServerlessClient,
    private readonly s3: S3Client,
    /** The deployment's application: events about any other application's job runs are not ours. */
    private readonly applicationId: string,
  ) {}

  /** The report a state-change event carries about one of the application's runs. */
  async read(event: unknown): Promise<RunStateReport | undefined> {
    const change = parseStateChange(event);
    if (!change || change.applicationId !== this.applicationId) return undefined;
    const observed = await this.observe(change);
    return observed && { ...observed, running: change.state === 'RUNNING' };
  }

  /** The run behind a job run and, when it has ended, its outcome. Undefined for job runs lakeline did not start. */
  async observe(change: JobRunStateChange): Promise<ObservedRun | undefined> {
    const { jobRun } = await this.emr.send(new GetJobRunCommand({ applicationId: change.applicationId, jobRunId: change.jobRunId }));
    const runId = jobRun?.tags?.[RUN_ID_TAG] ?? jobRun?.name;
    if (!jobRun || !runId) return undefined;
    const state = jobRun.state ?? change.state;
    if (!(TERMINAL_STATES as readonly string[]).includes(state)) return { runId };

    const vcpuSeconds = vcpuSecondsOf(jobRun);
    const startedAt = jobRun.startedAt?.getTime();
    const reported = await this.result(jobRun.tags?.[RESULT_URI_TAG]);
    const base = {
      ...(vcpuSeconds === undefined ? {} : { vcpuSeconds }),
      timings: { ...(startedAt === undefined ? {} : { startedAt }), ...(reported?.timings ?? {}) },
      ...(reported?.engineVersion ? { engineVersion: reported.engineVersion } : {}),
    };
    if (state === 'CANCELLED') return { runId, outcome: { ...base, state: 'ABORT', error: jobRun.stateDetails || 'the job run was cancelled' } };
    if (reported) return { runId, outcome: { ...reported, ...base } };
    const why = state === 'SUCCESS' ? 'EMR reported success but the job recorded no result (or it could not be read)' : jobRun.stateDetails || 'the job run failed';
    return { runId, outcome: { ...base, state: 'FAIL', error: why } };
  }

  private async result(uri: string | undefined): Promise<RunOutcome | undefined> {
    if (!uri) return undefined;
    const { bucket, key } = parseS3Uri(uri);
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return outcomeFromResult(await out.Body?.transformToString('utf8'));
    } catch (err) {
      // Without s3:ListBucket (not granted: it would list every org's run files) a missing object
      // answers AccessDenied rather than NoSuchKey; both mean the job wrote no result.
      if (['NoSuchKey', 'AccessDenied'].includes((err as { name?: string }).name ?? '')) return undefined;
      throw err;
    }
  }
}
