/**
 * The dependency rules (`.dependency-cruiser.cjs`, run by `npm run lint:structure` in `npm test`)
 * must fail on a violation, not merely pass on today's code: each case plants one in a small tree
 * of its own and expects dependency-cruiser to exit non-zero naming the rule.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../../..');
const depcruise = path.join(repo, 'node_modules/.bin/depcruise');
const trees: string[] = [];

/** A tree of files (path → text) under a temporary directory, with the repository's rules. */
const plant = (files: Readonly<Record<string, string>>): string => {
  const root = mkdtempSync(path.join(tmpdir(), 'lakeline-rules-'));
  trees.push(root);
  const all = { 'tsconfig.json': JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }), ...files };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
};

/** Runs the rules over `functions/` of a tree: exit status and report. */
const check = (root: string): { readonly status: number | null; readonly report: string } => {
  const run = spawnSync(depcruise, ['functions', '--config', path.join(repo, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd: root, encoding: 'utf8' });
  return { status: run.status, report: `${run.stdout}${run.stderr}` };
};

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the dependency rules', () => {
  it('Should pass a tree whose imports all point down', () => {
    // Prepare
    const root = plant({
      'functions/domain/errors.ts': 'export const e = 1;\n',
      'functions/domain/core/names.ts': "import { e } from '../errors.ts';\nexport const n = e;\n",
      'functions/domain/runs/run.ts': "import { n } from '../core/names.ts';\nexport const r = n;\n",
      'functions/shared/routes.ts': "import { r } from '../domain/runs/run.ts';\nexport const s = r;\n",
      'functions/composition/config.ts': "import { s } from '../shared/routes.ts';\nexport const c = s;\n",
    });
    // Act
    const { status, report } = check(root);
    // Assess
    expect(report).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it.each([
    ['shared-imports-no-floor-above', { 'functions/shared/middleware.ts': "import { c } from '../composition/config.ts';\nexport const m = c;\n", 'functions/composition/config.ts': 'export const c = 1;\n' }],
    ['domain-imports-no-floor-above', { 'functions/domain/lake/tables.ts': "import { a } from '../../adapters/duckdb/engine.ts';\nexport const t = a;\n", 'functions/adapters/duckdb/engine.ts': 'export const a = 1;\n' }],
    ['domain-imports-no-aws', { 'functions/domain/orgs/manage.ts': "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const m = DynamoDBClient;\n" }],
    ['domain-core-imports-no-folder-above', { 'functions/domain/core/names.ts': "import { r } from '../runs/results.ts';\nexport const n = r;\n", 'functions/domain/runs/results.ts': 'export const r = 1;\n' }],
    ['domain-routing-imports-no-folder-above', { 'functions/domain/routing/decide.ts': "import { m } from '../runs/machine-types.ts';\nexport const d = m;\n", 'functions/domain/runs/machine-types.ts': 'export const m = 1;\n' }],
    ['domain-folder-is-ordered', { 'functions/domain/unlisted/rule.ts': "import { n } from '../core/names.ts';\nexport const a = n;\n", 'functions/domain/core/names.ts': 'export const n = 1;\n' }],
    ['domain-ground-imports-no-folder', { 'functions/domain/errors.ts': "import { n } from './core/names.ts';\nexport const e = n;\n", 'functions/domain/core/names.ts': 'export const n = 1;\n' }],
    [
      'no-circular',
      {
        'functions/domain/orgs/org.ts': "import type { PlanName } from './plans.ts';\nexport interface Org { plan: PlanName }\n",
        'functions/domain/orgs/plans.ts': "import type { Org } from './org.ts';\nexport type PlanName = 'free';\nexport const planOf = (o: Org): PlanName => o.plan;\n",
      },
    ],
  ])('Should fail on a planted violation of %s, naming the rule', (rule, files) => {
    // Prepare
    const root = plant(files);
    // Act
    const { status, report } = check(root);
    // Assess
    expect(report).toContain(`error ${rule}:`);
    expect(status).not.toBe(0);
  });
});
