/**
 * @module poll-run
 * Polls a run through `GET /api/v1/runs/{id}` until it has ended, for the HTTP suites that
 * start runs (Spark, the routed endpoint's batch reads).
 */

/** Calls `get` about once a second until the run has ended (left QUEUED and RUNNING); fails on a non-200 or at the deadline. */
export async function waitForRunEnd<R extends { state?: string }>(
  get: (runId: string) => Promise<{ status: number; body: R }>,
  runId: string,
  timeoutMs: number,
): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await get(runId);
    if (status !== 200) throw new Error(`GET run ${runId}: ${status} ${JSON.stringify(body)}`);
    if (body.state !== 'RUNNING' && body.state !== 'QUEUED') return body;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${body.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
