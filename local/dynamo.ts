/**
 * @module dynamo
 * Starts and stops the local DynamoDB (dynalite) as a supervised child process, and creates the
 * service's tables in it from the same definitions the CDK app uses (rebuilding a table of an
 * older home whose indexes changed, see table-migration.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { withCurrentIndexKeys } from '#adapters/dynamodb/event-item';
import { NameDirectory, type DirectoryJob } from '#adapters/dynamodb/name-directory';
import { ensureTables } from '#adapters/dynamodb/table-admin';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { logger } from '#shared/observability';
import { ALL_TABLES, EVENTS_TABLE } from '#shared/table-definitions';
import { migrateTable, type ItemUpgrade } from './table-migration.ts';

/** What the store process's start-up repair did (local/store-repair.cjs). */
export interface StoreRepair {
  /** Whether it ran: only when the store was not closed cleanly by its last run. */
  readonly ran: boolean;
  /** Index entries read. */
  readonly examined: number;
  /** Index entries removed because no item backs them (left by a store killed while writing). */
  readonly removed: number;
  /** Removed entries by `<table>.<index>`. */
  readonly byIndex: Readonly<Record<string, number>>;
  readonly ms: number;
  /** Why the repair did not finish, if it did not (the store is served all the same). */
  readonly error?: string;
}

/** A running local DynamoDB. */
export interface LocalDynamo {
  readonly endpoint: string;
  /** The start-up repair of the store process now running. */
  repair(): StoreRepair;
  /** The store process's pid now (it changes when the store is restarted). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./dynamo-process.cjs', import.meta.url));

/** Restarts of a store that keeps dying within this window give up (then the stack exits). */
const RESTART_WINDOW_MS = 60_000;
/** Most restarts within the window. */
const MAX_RESTARTS = 5;

/** Options of {@link startLocalDynamo}. */
export interface LocalDynamoOptions {
  /** Port of the store; 0 picks a free one (kept across restarts). @default 0 */
  readonly port?: number;
  /**
   * Called when the store keeps dying and will not be restarted again: the stack cannot serve
   * without it, so the caller exits loudly (and an outer supervisor, if any, restarts everything).
   */
  readonly onGiveUp?: (reason: string) => void;
}

/** One store process, started and ready on its port. */
const spawnStore = async (storePath: string, port: number): Promise<{ child: ChildProcess; port: number; repair: StoreRepair; stderr: () => string }> => {
  // LAKELINE_CPU_PROF_DIR=<dir> writes a V8 CPU profile of the store process there (benchmarks).
  const profile = process.env.LAKELINE_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LAKELINE_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, CHILD, storePath, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8_192)));
  const ready = await new Promise<{ port: number; repair: StoreRepair }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => resolve(JSON.parse(line) as { port: number; repair: StoreRepair }));
    child.once('exit', (code) => {
      const locked = /LOCK|lock/.test(stderr);
      reject(
        new Error(
          locked
            ? `the local store ${storePath} is in use by another lakeline process; stop it first`
            : `the local DynamoDB exited with code ${code}: ${stderr.trim()}`,
        ),
      );
    });
  });
  const { repair } = ready;
  if (repair.error !== undefined) logger.error('the local store could not check its indexes at start; serving it as it is', { error: repair.error, examined: repair.examined, removed: repair.removed });
  else if (repair.removed > 0) logger.warn('the local store removed index entries a killed store process left without their item', { removed: repair.removed, byIndex: repair.byIndex, examined: repair.examined, ms: repair.ms });
  return { child, port: ready.port, repair, stderr: () => stderr };
};

/**
 * Starts dynalite persisting under `<home>/dynamodb`; resolves once it accepts requests. The store
 * is supervised: if its process dies, it is started again on the same port (writes it
 * acknowledged are on disk: LevelDB's log survives a killed process), each time logged with why;
 * a store that keeps dying is given up after {@link MAX_RESTARTS} restarts in a minute.
 */
export const startLocalDynamo = async (home: string, options: LocalDynamoOptions = {}): Promise<LocalDynamo> => {
  const storePath = path.join(home, 'dynamodb');
  mkdirSync(storePath, { recursive: true });
  let current = await spawnStore(storePath, options.port ?? 0);
  const port = current.port;
  const endpoint = `http://127.0.0.1:${port}`;
  let stopping = false;
  const restarts: number[] = [];

  const supervise = (store: typeof current): void => {
    store.child.once('exit', (code, signal) => {
      if (stopping) return;
      const why = `the local store process exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`})${store.stderr().trim() ? `: ${store.stderr().trim().split('\n').slice(-3).join(' | ')}` : ''}`;
      const now = Date.now();
      restarts.push(now);
      while (restarts.length > 0 && (restarts[0] as number) < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        logger.error('the local store keeps dying; giving up', { why, restarts: restarts.length });
        options.onGiveUp?.(`${why}; it died ${restarts.length} times within a minute`);
        return;
      }
      logger.error('local store died; restarting it on the same port', { why, port });
      void restart(restarts.length);
    });
  };

  const restart = async (attempt: number): Promise<void> => {
    // A short pause, longer on each attempt: a store that dies at once must not spin.
    await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 200 * 2 ** (attempt - 1))));
    if (stopping) return;
    try {
      current = await spawnStore(storePath, port);
      logger.warn('local store restarted', { port, pid: current.child.pid });
      supervise(current);
    } catch (err) {
      restarts.push(Date.now());
      if (restarts.length > MAX_RESTARTS) {
        options.onGiveUp?.(`the local store could not be restarted: ${(err as Error).message}`);
        return;
      }
      logger.error('local store did not restart; trying again', { error: err });
      void restart(restarts.length);
    }
  };

  const client = localDynamoClient(endpoint);
  try {
    await migrateTables(client, home);
    await ensureTables(client, ALL_TABLES.map((def) => ({ def, name: localTableName(def) })));
  } catch (err) {
    await stopChild(current.child);
    throw err;
  } finally {
    client.destroy();
  }
  supervise(current);
  return {
    endpoint,
    repair: () => current.repair,
    pid: () => current.child.pid,
    stop: () => {
      stopping = true;
      return stopChild(current.child);
    },
  };
};

/**
 * Rebuilds the tables of an older home whose indexes changed. Events get the current index
 * attributes, and each org's name directory is filled with the jobs of its stored events.
 */
const migrateTables = async (client: ReturnType<typeof localDynamoClient>, home: string): Promise<void> => {
  const doc = createDocumentClient(client);
  const log = (message: string) => logger.info(message);
  const blobs = new DirectoryBlobStore(path.join(home, 'blobs'));
  for (const def of ALL_TABLES) {
    const jobs = new Map<string, DirectoryJob[]>();
    const upgrade: ItemUpgrade =
      def === EVENTS_TABLE
        ? async (item) => {
            const upgraded = await withCurrentIndexKeys(item, (key) => blobs.get(key));
            if (upgraded.job) (jobs.get(upgraded.job.orgId) ?? jobs.set(upgraded.job.orgId, []).get(upgraded.job.orgId))?.push(upgraded.job);
            return upgraded.item;
          }
        : async (item) => item;
    const moved = await migrateTable(client, doc, def, localTableName(def), upgrade, log);
    if (moved > 0 && def === EVENTS_TABLE) {
      const directory = new NameDirectory(doc, localTableName(def));
      for (const [orgId, orgJobs] of jobs) await directory.record(orgId, orgJobs);
    }
  }
};

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
