/**
 * @module home
 * The local state directory (`.lakeline/` by default): the store, the session signing secret and
 * `local.json` ({baseUrl, apiKey, orgId}) for scripts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `local.json` holds while (and after) the local stack runs. */
export interface LocalInfo {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly orgId: string;
  /** The local DynamoDB endpoint while the stack runs (the CLI uses it). */
  readonly dynamodbEndpoint?: string;
  readonly pid?: number;
}

/** Resolves the home directory: explicit, else LAKELINE_HOME, else ./.lakeline. */
export const resolveHome = (explicit?: string): string => path.resolve(explicit ?? process.env.LAKELINE_HOME ?? '.lakeline');

/** Reads `local.json`, if present. */
export const readLocalInfo = (home: string): LocalInfo | undefined => {
  const file = path.join(home, 'local.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalInfo) : undefined;
};

/** Writes `local.json` (owner-readable only: it holds the demo key). */
export const writeLocalInfo = (home: string, info: LocalInfo): void => {
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'local.json'), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
};

/** The session signing secret, created once per home. */
export const sessionSecretFor = (home: string): string => {
  const file = path.join(home, 'session-secret');
  if (!existsSync(file)) {
    mkdirSync(home, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
};
