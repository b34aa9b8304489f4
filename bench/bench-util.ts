/**
 * @module bench-util
 * Small helpers shared by the lineage benchmarks: bounded concurrent runs with latency
 * percentiles, a keep-alive HTTP client for loopback, and figure formatting.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** What a timed run measured. */
export interface RunFigures {
  readonly requests: number;
  readonly items: number;
  readonly seconds: number;
  /** Latency percentiles of one request, ms. */
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly errors: number;
}

/** The q-quantile of sorted values (nearest rank). */
export const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

/**
 * Runs `work(i)` for i in [0, count) with `concurrency` in flight, stopping early after
 * `maxSeconds`. Each call returns how many items it carried (1 for a single event).
 */
export async function timed(count: number, concurrency: number, maxSeconds: number, work: (i: number) => Promise<number>): Promise<RunFigures> {
  const latencies: number[] = [];
  let next = 0;
  let items = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + maxSeconds * 1_000;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      try {
        // Awaited first: `items += await …` would read `items` before the await and lose updates.
        const carried = await work(i);
        items += carried;
      } catch (err) {
        errors += 1;
        if (errors <= 3) console.error(`  request ${i} failed: ${(err as Error).message}`);
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1_000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, items, seconds, p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), p99: quantile(latencies, 0.99), errors };
}

/** A loopback HTTP client with keep-alive sockets. */
export const httpClient = (maxSockets: number) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return {
    request: (url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string | Buffer): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const req = http.request(url, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) }, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
};

/** One line of figures. */
export const line = (label: string, f: RunFigures): string =>
  `${label.padEnd(44)} ${(f.items / f.seconds).toFixed(0).padStart(7)} items/s  ${(f.requests / f.seconds).toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(1).padStart(7)} ms  p99 ${f.p99.toFixed(1).padStart(7)} ms  (${f.requests} requests, ${f.items} items, ${f.seconds.toFixed(1)} s${f.errors ? `, ${f.errors} ERRORS` : ''})`;

/** The machine's load, to print beside the figures. */
export const machine = (): string => `${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`;

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere
 * or once it has exited. Lets a benchmark say where the machine's CPU went in each phase.
 */
export const processCpuSeconds = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

/** USER_HZ: 100 on every Linux kernel configuration in use (the /proc ABI fixes it). */
const CLOCK_TICKS_PER_SECOND = 100;

/** The direct child processes of a process (Linux), for finding a stack's store process. */
export const childPids = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** One JSON request to a local stack with its API key; the parsed answer and its status. */
export const callStack = async <T>(stack: { baseUrl: string; apiKey: string }, method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
};
