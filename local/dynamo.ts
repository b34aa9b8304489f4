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
import { createDocumentClient, createDynamoClient } from '#shared/clients';
import { localTableName } from '#shared/config';
import { logger } from '#shared/observability';
import { ALL_TABLES, EVENTS_TABLE } from '#shared/table-definitions';
import { migrateTable, type ItemUpgrade } from './table-migration.ts';

/** A running local DynamoDB. */
export interface LocalDynamo {
  readonly endpoint: string;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./dynamo-process.cjs', import.meta.url));

/** Starts dynalite persisting under `<home>/dynamodb`; resolves once it accepts requests. */
export const startLocalDynamo = async (home: string, port = 0): Promise<LocalDynamo> => {
  const storePath = path.join(home, 'dynamodb');
  mkdirSync(storePath, { recursive: true });
  // LAKELINE_CPU_PROF_DIR=<dir> writes a V8 CPU profile of the store process there (benchmarks).
  const profile = process.env.LAKELINE_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LAKELINE_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, CHILD, storePath, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const actualPort = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
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
  const endpoint = `http://127.0.0.1:${actualPort}`;
  const client = createDynamoClient({ profile: 'local', dynamodbEndpoint: endpoint });
  try {
    await migrateTables(client, home);
    await ensureTables(client, ALL_TABLES.map((def) => ({ def, name: localTableName(def) })));
  } finally {
    client.destroy();
  }
  return { endpoint, stop: () => stopChild(child) };
};

/**
 * Rebuilds the tables of an older home whose indexes changed. Events get the current index
 * attributes, and each org's name directory is filled with the jobs of its stored events.
 */
const migrateTables = async (client: ReturnType<typeof createDynamoClient>, home: string): Promise<void> => {
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
