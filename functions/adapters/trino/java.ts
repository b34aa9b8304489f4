/**
 * @module trino/java
 * Finds a JDK that can run the local Trino server. Trino 476 (the release this project installs,
 * see scripts/setup.mjs) needs Java 24 or newer, while the machine's default Java is 17 (Spark's):
 * so the JDKs under /usr/lib/jvm are looked at by the version in their `release` file, and
 * LAKELINE_TRINO_JAVA_HOME overrides the search.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The oldest Java feature release Trino 476 starts on. */
export const TRINO_MIN_JAVA = 24;

/** The feature release of a JDK home (`JAVA_VERSION="25.0.1"` → 25), or undefined. */
export const javaFeatureVersion = (javaHome: string): number | undefined => {
  const release = path.join(javaHome, 'release');
  if (!existsSync(release) || !existsSync(path.join(javaHome, 'bin', 'java'))) return undefined;
  const match = /^JAVA_VERSION="(\d+)/m.exec(readFileSync(release, 'utf8'));
  return match ? Number(match[1]) : undefined;
};

/**
 * The JDK home to run Trino with: LAKELINE_TRINO_JAVA_HOME when set, else JAVA_HOME when it is
 * recent enough, else the newest JDK under `roots`; undefined when none qualifies.
 */
export const findTrinoJava = (env: NodeJS.ProcessEnv = process.env, roots: readonly string[] = ['/usr/lib/jvm']): string | undefined => {
  if (env.LAKELINE_TRINO_JAVA_HOME) return env.LAKELINE_TRINO_JAVA_HOME;
  const candidates: { home: string; version: number }[] = [];
  const consider = (home: string): void => {
    const version = javaFeatureVersion(home);
    if (version !== undefined && version >= TRINO_MIN_JAVA) candidates.push({ home, version });
  };
  if (env.JAVA_HOME) consider(env.JAVA_HOME);
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root)) consider(path.join(root, entry));
  }
  candidates.sort((a, b) => b.version - a.version);
  return candidates[0]?.home;
};
