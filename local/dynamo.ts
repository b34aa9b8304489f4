/**
 * @module dynamo
 * Starts and stops the local DynamoDB (dynalite) as a supervised child process, and creates the
 * service's tables in it from the same definitions the CDK app uses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureTables } from '#adapters/dynamodb/table-admin';
import { createDynamoClient } from '#shared/clients';
import { localTableName } from '#shared/config';
import { ALL_TABLES } from '#shared/table-definitions';

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
  await ensureTables(client, ALL_TABLES.map((def) => ({ def, name: localTableName(def) })));
  client.destroy();
  return { endpoint, stop: () => stopChild(child) };
};

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
