/**
 * @module pages/query/run-follower
 * A SUBMITTED run followed to its end: polls `GET /api/v1/runs/{run_id}` (every second at first,
 * backing off to every 3 s), shows its state and elapsed time while it runs, can abort it, and at
 * the end shows its error, what it wrote, or its rows a page at a time.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Run } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatCount, formatDuration } from '../../components/format.ts';
import { Progress } from '../../components/progress.tsx';
import { ResultsTable } from '../../components/results-table.tsx';
import { StateBadge } from '../../components/state-badge.tsx';

const FIRST_POLL_MS = 1000;
const MAX_POLL_MS = 3000;
/** Rows per page of a finished batch read's results. */
export const RESULTS_PAGE_SIZE = 500;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Follows one run; `submittedAt` (epoch ms) starts the elapsed-time clock. */
export const RunFollower = ({ runId, submittedAt }: { runId: string; submittedAt: number }) => {
  const api = useApi();
  const [run, setRun] = useState<Run>();
  const [error, setError] = useState<unknown>();
  const [offset, setOffset] = useState(0);
  const [aborting, setAborting] = useState(false);
  const allowed = mayCall(api.credentials, 'GET /api/v1/runs/{run_id}');

  useEffect(() => {
    if (!allowed) return;
    const controller = new AbortController();
    const follow = async () => {
      let wait = FIRST_POLL_MS;
      for (;;) {
        const current = await api.run(runId, { offset, limit: RESULTS_PAGE_SIZE }, { signal: controller.signal });
        if (controller.signal.aborted) return;
        setRun(current);
        if (current.state !== 'RUNNING') return;
        await sleep(wait, controller.signal);
        if (controller.signal.aborted) return;
        wait = Math.min(MAX_POLL_MS, wait * 1.5);
      }
    };
    follow().catch((err: unknown) => {
      if (!controller.signal.aborted) setError(err);
    });
    return () => controller.abort();
  }, [api, runId, offset, allowed]);

  const abort = async () => {
    setAborting(true);
    try {
      setRun(await api.abortRun(runId));
    } catch (err) {
      setError(err);
    } finally {
      setAborting(false);
    }
  };

  if (!allowed) {
    return (
      <div className="run" data-testid="run">
        <p>
          Run <code>{runId}</code> was submitted. Following it needs an API key: <code>GET /api/v1/runs/{'{run_id}'}</code> does not accept the session cookie.
        </p>
      </div>
    );
  }

  const ended = run && run.state !== 'RUNNING';
  const page = run?.results_page;
  return (
    <div className="run" data-testid="run">
      <div className="run-head">
        <span>
          Run <code data-testid="run-id">{runId}</code>
        </span>
        {run ? (
          <span data-testid="run-state">
            <StateBadge state={run.state} />
          </span>
        ) : null}
        {run ? <span className="muted">engine {run.engine}</span> : null}
        {run?.timings.total_ms !== undefined ? <span className="muted">took {formatDuration(run.timings.total_ms)}</span> : null}
        {run?.state === 'RUNNING' ? (
          <button type="button" onClick={() => void abort()} disabled={aborting}>
            Abort
          </button>
        ) : null}
      </div>
      {!ended && !error ? (
        <Progress
          label={run ? `Running on ${run.engine}…` : 'Submitted; waiting for the run…'}
          since={submittedAt}
          detail={run?.timings.startup_ms !== undefined ? `engine ready after ${formatDuration(run.timings.startup_ms)}` : undefined}
        />
      ) : null}
      {error ? <ErrorPanel error={error} /> : null}
      {run?.state === 'FAIL' || run?.state === 'ABORT' ? (
        <div className="error-panel" role="alert">
          <div className="error-title">The run {run.state === 'FAIL' ? 'failed' : 'was aborted'}</div>
          <pre className="error-words" data-testid="run-error">
            {run.error ?? '(no reason given)'}
          </pre>
        </div>
      ) : null}
      {run?.state === 'COMPLETE' && run.output_table ? (
        <p className="success" data-testid="run-written">
          Wrote {run.rows_written !== undefined ? formatCount(run.rows_written) : 'its'} rows to <code>{run.output_table}</code> ({run.write_mode ?? 'overwrite'}).{' '}
          <TableLink qualified={run.output_table} />
        </p>
      ) : null}
      {run?.state === 'COMPLETE' && run.results ? (
        <>
          <div className="results-meta">
            {formatCount(run.row_count ?? run.results.rows.length)} rows
            {page ? ` · showing ${page.offset + 1}–${page.offset + run.results.rows.length}` : ''}
          </div>
          <ResultsTable result={run.results} />
          <div className="pager">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - RESULTS_PAGE_SIZE))}>
              ← Previous rows
            </button>
            <button type="button" disabled={page?.next_offset === undefined} onClick={() => page?.next_offset !== undefined && setOffset(page.next_offset)}>
              Next rows →
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
};

/** A link to a written table's page (`lakeline.ns.t` or `ns.t`). */
const TableLink = ({ qualified }: { qualified: string }) => {
  const parts = qualified.split('.');
  const [namespace, table] = parts.slice(-2);
  if (!namespace || !table) return null;
  return <Link to={`/tables/${encodeURIComponent(namespace)}/${encodeURIComponent(table)}`}>Open the table</Link>;
};
