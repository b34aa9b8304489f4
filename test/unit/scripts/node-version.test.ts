/**
 * The Node the project runs on: the Lambdas run Node 22, so the tests (and, through the same npm
 * scripts, the local stack and the benchmarks) run on a Node of at least the major `engines`
 * names, which the lock pins for this machine's platform (issue 23; ADR 0029).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of Node built-ins, without type declarations
import { requiredNodeMajor } from '../../../scripts/setup.mjs';
import { REPO_ROOT } from '../../helpers/local-stack-process.ts';

const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Record<string, unknown>;

/** The lowest major `engines.node` accepts (">=22" → 22), as the set-up reads it. */
const enginesMajor = (): number => requiredNodeMajor() as number;

/** Platforms the lock pins a Node package for (`node-<platform>-<arch>`); others run the machine's Node. */
const PINNED_PLATFORMS = ['linux-x64', 'linux-arm64'];

const majorOf = (version: string): number => Number(version.replace(/^v/, '').split('.')[0]);

describe('the Node the tests run on', () => {
  it("Should be at least the major engines names (the Lambdas' Node 22)", () => {
    // Assess
    expect(enginesMajor()).toBeGreaterThanOrEqual(22);
    expect(majorOf(process.version)).toBeGreaterThanOrEqual(enginesMajor());
  });

  it.runIf(PINNED_PLATFORMS.includes(`${process.platform}-${process.arch}`))('Should be the Node the lock pins for this platform', () => {
    // Prepare
    const packages = readJson('package-lock.json').packages as Record<string, { version: string; integrity?: string } | undefined>;
    const pinned = packages[`node_modules/node-${process.platform}-${process.arch}`];
    // Assess
    expect(pinned?.integrity).toMatch(/^sha512-/);
    if (pinned === undefined) return;
    expect(majorOf(pinned.version)).toBe(enginesMajor());
    expect(process.version).toBe(`v${pinned.version}`);
  });
});
