/**
 * The synthesized templates against the resource schemas CloudFormation deploys with: cfn-lint
 * (pinned in requirements-aws-test.lock, `.lakeline/venv-aws`) over every stack variant the CDK
 * suites synthesize — the default stack, the one with warm polars Fargate tasks
 * (`-c polarsWarmTasks8=1 -c polarsWarmTasks16=1`), and one with bloom's own settings. No error
 * may appear; a warning only when it is one of {@link ACCEPTED_WARNINGS}, each with its reason
 * (docs/reference/aws-verification.md#accepted-cfn-lint-warnings lists them too).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { LakelineStackProps } from '../../lib/lakeline-stack.ts';
import { REPO_ROOT } from '../aws/emulator.ts';
import { synthLakeline } from './synth.ts';

/** cfn-lint rules whose warnings the templates may carry, and why they are not fixed. */
export const ACCEPTED_WARNINGS: Readonly<Record<string, string>> = {
  W3005:
    "a Lambda function's DependsOn on its own role, which its Role GetAtt already implies: aws-cdk-lib's Function adds it (with the role's default policy) so the policy exists before the function is invoked; harmless, and not ours to remove",
  W3010:
    "the sandbox VPC's subnets name their availability zones: with an account and region CDK resolves the region's zones at synthesis (the tests' synthesis, without a lookup, gets CDK's placeholders), so a template is for the region it was synthesized for, as `cdk deploy` makes it",
};

/** One cfn-lint finding (`--format json`). */
interface Finding {
  readonly Rule: { readonly Id: string };
  readonly Level: 'Error' | 'Warning' | 'Informational';
  readonly Message: string;
  readonly Location: { readonly Path: readonly (string | number)[] };
}

const VARIANTS: readonly [string, Omit<LakelineStackProps, 'env'>][] = [
  ['default', {}],
  ['polars warm tasks', { polarsFargate: { warmTasks: { 8: 1, 16: 1 } } }],
  ['bloom settings', { bloom: { bytesScannedCutoffPerQuery: 50 * 1024 ** 3, workGroupName: 'lakeline-bloom-lint' } }],
];

const lint = async (template: string): Promise<Finding[]> => {
  const cfnLint = path.join(REPO_ROOT, '.lakeline', 'venv-aws', 'bin', 'cfn-lint');
  try {
    await promisify(execFile)(cfnLint, ['--format', 'json', '--regions', 'eu-west-1', '--', template], { maxBuffer: 64 * 1024 * 1024 });
    return [];
  } catch (err) {
    // cfn-lint exits non-zero whenever it found something; its findings are on stdout.
    const stdout = (err as { stdout?: string }).stdout;
    if (!stdout) throw err;
    return JSON.parse(stdout) as Finding[];
  }
};

describe('cfn-lint on the synthesized templates', () => {
  it.each(VARIANTS)('Should find no error, and only accepted warnings, in the %s stack', async (label, props) => {
    // Prepare
    const { template } = synthLakeline(`lint-${label.replace(/\W+/g, '-')}`, props);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lakeline-cfn-lint-')), 'Lakeline.template.json');
    writeFileSync(file, JSON.stringify(template.toJSON(), null, 1));

    // Act
    const findings = await lint(file);

    // Assess
    const describe = (f: Finding) => `${f.Level} ${f.Rule.Id} at ${f.Location.Path.join('/')}: ${f.Message}`;
    expect(findings.filter((f) => f.Level === 'Error').map(describe)).toEqual([]);
    expect(findings.filter((f) => !(f.Rule.Id in ACCEPTED_WARNINGS)).map(describe)).toEqual([]);
  }, 120_000);
});
