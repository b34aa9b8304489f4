/**
 * @module duckdb/sandbox-cache
 * Keeps a few locked sandboxes for reuse by the next query of the same organization over exactly
 * the same tables (the same current metadata files) at the same size. Such a query would get an
 * identical sandbox anyway: the same views, the same allowed directories, the same lock; building
 * it again costs a few milliseconds per table (binding each view reads the table's metadata,
 * manifest list and manifests). Nothing a query leaves behind can reach the next one: the engine
 * runs only single SELECT statements, and the configuration is locked, so a sandbox holds no state
 * of its own but DuckDB's caches of the organization's own files. A sandbox is reused only after a
 * query succeeded in it, by one query at a time, and is closed when idle for a while, when evicted,
 * or when a table changes (its key then no longer matches).
 */

/** A sandbox as the cache holds it. */
export interface Reusable {
  /** Closes it for good. */
  dispose(): void;
}

interface Entry<T extends Reusable> {
  readonly sandbox: T;
  timer: NodeJS.Timeout;
}

/** Idle locked sandboxes by key. */
export class SandboxCache<T extends Reusable> {
  private readonly idle = new Map<string, Entry<T>>();

  /**
   * @param capacity - idle sandboxes kept at most (least recently used ones go first)
   * @param idleMs - how long an idle sandbox is kept
   */
  constructor(
    private readonly capacity: number,
    private readonly idleMs: number,
  ) {}

  /** The key of a query's sandbox: organization, size and each table's name and metadata file. */
  static keyOf(owner: string, size: string, tables: readonly { name: { namespace: string; table: string }; metadataLocation: string }[]): string {
    const parts = tables.map((t) => `${t.name.namespace}.${t.name.table}=${t.metadataLocation}`).sort();
    return JSON.stringify([owner, size, parts]);
  }

  /** Takes the idle sandbox of a key out of the cache (the caller then has it to itself). */
  take(key: string): T | undefined {
    const entry = this.idle.get(key);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.idle.delete(key);
    return entry.sandbox;
  }

  /** Gives a sandbox back after a successful query; it replaces any other idle one of its key. */
  give(key: string, sandbox: T): void {
    this.take(key)?.dispose();
    const timer = setTimeout(() => this.take(key)?.dispose(), this.idleMs);
    timer.unref();
    this.idle.set(key, { sandbox, timer });
    while (this.idle.size > this.capacity) {
      const oldest = this.idle.keys().next().value as string;
      this.take(oldest)?.dispose();
    }
  }

  /** Closes every idle sandbox. */
  clear(): void {
    for (const key of [...this.idle.keys()]) this.take(key)?.dispose();
  }

  /** How many sandboxes are idle (tests). */
  get size(): number {
    return this.idle.size;
  }
}
