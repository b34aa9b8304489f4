/**
 * The Node the project runs on: the Lambdas run Node 22, so the tests (and, through the same npm
 * scripts, the local stack and the benchmarks) run on a Node of at least the major `engines`
 * names, which the lock pins for this machine's platform (issue 23; ADR 0029).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of Node built-ins, without type declarations
import { PINNED_NODE_PLATFORMS, requiredNodeMajor } from '../../../scripts/setup.mjs';
import { REPO_ROOT } from '../../helpers/local-stack-process.ts';

const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Record<string, unknown>;

/** The lowest major `engines.node` accepts (">=22" → 22), as the set-up reads it. */
const enginesMajor = (): number => requiredNodeMajor() as number;

const lockedPackages = (): Record<string, { version: string; integrity?: string } | undefined> =>
  readJson('package-lock.json').packages as Record<string, { version: string; integrity?: string } | undefined>;

const majorOf = (version: string): number => Number(version.replace(/^v/, '').split('.')[0]);

describe('the Node the tests run on', () => {
  it("Should be at least the major engines names (the Lambdas' Node 22)", () => {
    // Assess
    expect(enginesMajor()).toBeGreaterThanOrEqual(22);
    expect(majorOf(process.version)).toBeGreaterThanOrEqual(enginesMajor());
  });

  it.each(PINNED_NODE_PLATFORMS as string[])('Should pin in the lock, with its integrity, a Node of that major for %s', (platform) => {
    // Prepare
    const pinned = lockedPackages()[`node_modules/node-${platform}`];
    // Assess
    expect(pinned?.integrity).toMatch(/^sha512-/);
    expect(majorOf(pinned?.version ?? '0')).toBe(enginesMajor());
  });

  it.runIf((PINNED_NODE_PLATFORMS as string[]).includes(`${process.platform}-${process.arch}`))('Should be the Node the lock pins for this platform', () => {
    // Prepare
    const pinned = lockedPackages()[`node_modules/node-${process.platform}-${process.arch}`];
    // Assess
    expect(process.version).toBe(`v${pinned?.version}`);
  });
});
