/**
 * @module trino/client
 * Trino's HTTP client protocol, the way the official clients speak it: `POST /v1/statement` with
 * the SQL, then `GET nextUri` until there is none, collecting `columns` and `data` pages on the
 * way; `DELETE nextUri` cancels. A client that stops following `nextUri` gets its query abandoned
 * by Trino, so a started statement is driven to its end here, in the background, by
 * {@link TrinoStatement}. No session catalog is set: every table must be fully qualified
 * (`bloom/qualify.ts`), so an unqualified name resolves nowhere.
 */
import type { TabularResult } from '#domain/lake/engine';

/** One response document of the protocol (the fields this client reads). */
interface TrinoResponse {
  readonly id: string;
  readonly nextUri?: string;
  readonly columns?: { readonly name: string; readonly type: string }[];
  readonly data?: unknown[][];
  readonly stats?: { readonly state?: string; readonly processedBytes?: number; readonly elapsedTimeMillis?: number };
  readonly error?: { readonly message?: string; readonly errorName?: string; readonly errorType?: string };
  readonly updateCount?: number;
}

/** How a statement ended. */
export type TrinoOutcome =
  | { readonly state: 'FINISHED'; readonly results: TabularResult; readonly updateCount?: number; readonly processedBytes?: number; readonly elapsedMs?: number }
  | { readonly state: 'FAILED'; readonly error: string; readonly errorType?: string }
  | { readonly state: 'CANCELED' };

/** Options of one statement. */
export interface StatementOptions {
  /** The Trino user (the org's catalog name: Trino's logs and query list show whose it is). */
  readonly user: string;
  /** `X-Trino-Source`, shown in Trino's query list. */
  readonly source?: string;
  /** Most rows to keep; beyond it the statement is cancelled and fails. */
  readonly maxRows?: number;
  /** Session properties (`query_max_run_time`, …). */
  readonly session?: Readonly<Record<string, string>>;
}

/** Rows beyond a statement's `maxRows`. */
export class TooManyRowsError extends Error {}

const describe = (error: TrinoResponse['error']): string => `${error?.errorName ?? 'TRINO_ERROR'}: ${error?.message ?? 'unknown error'}`;

/** A started statement, driven to its end in the background. */
export class TrinoStatement {
  /** Resolves with the outcome; never rejects (transport failures are FAILED outcomes). */
  readonly done: Promise<TrinoOutcome>;
  private cancelled = false;
  private nextUri: string | undefined;

  constructor(
    private readonly client: TrinoClient,
    first: TrinoResponse,
    private readonly options: StatementOptions,
  ) {
    this.id = first.id;
    this.nextUri = first.nextUri;
    this.done = this.drive(first);
  }

  /** Trino's query id. */
  readonly id: string;

  /** Cancels the statement (idempotent). */
  async cancel(): Promise<void> {
    this.cancelled = true;
    const uri = this.nextUri;
    // DELETE on nextUri is the protocol's cancel; the query endpoint also stops one already past it.
    await Promise.allSettled([uri ? this.client.request('DELETE', uri, this.options) : undefined, this.client.kill(this.id, this.options)]);
  }

  private async drive(first: TrinoResponse): Promise<TrinoOutcome> {
    let response = first;
    let columns: { name: string; type: string }[] | undefined;
    const rows: unknown[][] = [];
    try {
      for (;;) {
        if (response.error) return { state: 'FAILED', error: describe(response.error), ...(response.error.errorType ? { errorType: response.error.errorType } : {}) };
        if (response.columns) columns = response.columns;
        if (response.data) {
          rows.push(...response.data);
          if (this.options.maxRows !== undefined && rows.length > this.options.maxRows) {
            await this.cancel();
            return { state: 'FAILED', error: `the result has more than ${this.options.maxRows} rows`, errorType: 'LIMIT' };
          }
        }
        this.nextUri = response.nextUri;
        if (!response.nextUri) {
          return {
            state: 'FINISHED',
            results: { columns: (columns ?? []).map((c) => c.name), column_types: (columns ?? []).map((c) => c.type), rows },
            ...(response.updateCount !== undefined ? { updateCount: response.updateCount } : {}),
            ...(response.stats?.processedBytes !== undefined ? { processedBytes: response.stats.processedBytes } : {}),
            ...(response.stats?.elapsedTimeMillis !== undefined ? { elapsedMs: response.stats.elapsedTimeMillis } : {}),
          };
        }
        if (this.cancelled) return { state: 'CANCELED' };
        response = await this.client.request('GET', response.nextUri, this.options);
      }
    } catch (err) {
      if (this.cancelled) return { state: 'CANCELED' };
      return { state: 'FAILED', error: `Trino could not be reached: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
}

/** A client of one Trino coordinator. */
export class TrinoClient {
  constructor(readonly baseUrl: string) {}

  /** Starts a statement; resolves once Trino accepted it (its first response). */
  async start(sql: string, options: StatementOptions): Promise<TrinoStatement> {
    const first = await this.request('POST', `${this.baseUrl}/v1/statement`, options, sql);
    return new TrinoStatement(this, first, options);
  }

  /** Runs a statement to its end. */
  async execute(sql: string, options: StatementOptions): Promise<TrinoOutcome> {
    return (await this.start(sql, options)).done;
  }

  /** Kills a query by id (`DELETE /v1/query/{id}`); a query that already ended is fine. */
  async kill(queryId: string, options: StatementOptions): Promise<void> {
    const res = await fetch(`${this.baseUrl}/v1/query/${encodeURIComponent(queryId)}`, { method: 'DELETE', headers: this.headers(options) });
    await res.arrayBuffer();
  }

  /** The coordinator's `/v1/info`, or undefined while it does not answer. */
  async info(): Promise<{ nodeVersion?: { version?: string }; starting?: boolean } | undefined> {
    try {
      const res = await fetch(`${this.baseUrl}/v1/info`, { signal: AbortSignal.timeout(2_000) });
      return res.ok ? ((await res.json()) as { nodeVersion?: { version?: string }; starting?: boolean }) : undefined;
    } catch {
      return undefined;
    }
  }

  /** One protocol request; only `nextUri`s of this coordinator are followed. */
  async request(method: 'GET' | 'POST' | 'DELETE', uri: string, options: StatementOptions, body?: string): Promise<TrinoResponse> {
    if (new URL(uri).origin !== new URL(this.baseUrl).origin) throw new Error(`refusing to follow ${uri}: not this Trino coordinator`);
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(uri, { method, headers: this.headers(options), ...(body !== undefined ? { body } : {}) });
      // 502/503/504 are the protocol's "retry the same URI" answers.
      if ([502, 503, 504].includes(res.status) && attempt < 10) {
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
        continue;
      }
      const text = await res.text();
      if (method === 'DELETE') return { id: '' };
      if (!res.ok) throw new Error(`Trino answered ${res.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text) as TrinoResponse;
    }
  }

  private headers(options: StatementOptions): Record<string, string> {
    const session = Object.entries(options.session ?? {}).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    return {
      'X-Trino-User': options.user,
      'X-Trino-Source': options.source ?? 'lakeline',
      ...(session.length > 0 ? { 'X-Trino-Session': session.join(',') } : {}),
    };
  }
}
