/**
 * `npm run deploy:check`: the checklist prints without any AWS credentials, and with `--live` it
 * checks the account the default credential chain reaches — here the emulated account, reached
 * through the SDK's standard endpoint variable (before and after a CDK bootstrap stack exists).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { describe, expect, inject, it } from 'vitest';
import { ALL_TABLES } from '#shared/table-definitions';
import { STACK_OUTPUTS, tableOutputName } from '../../lib/stack-outputs.ts';
import { awsClientConfig, awsEnvironment, REPO_ROOT } from './emulator.ts';

const deployCheck = async (args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/deploy-check.ts', ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env } });
    return { code: 0, stdout };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '' };
  }
};

/** No credentials anywhere: no variables, no files, no instance metadata. */
const NO_CREDENTIALS = { AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null', AWS_EC2_METADATA_DISABLED: 'true' };

describe('npm run deploy:check', () => {
  it('Should print the prerequisites of the region and what every stack output is for, without credentials', async () => {
    // Act
    const { code, stdout } = await deployCheck(['--region', 'eu-west-1'], NO_CREDENTIALS);

    // Assess
    expect(code).toBe(0);
    for (const text of ['CDK bootstrap', 'Docker on the deploying machine', 'Lake Formation', 'EMR Serverless in eu-west-1', 'Athena in eu-west-1']) expect(stdout).toContain(text);
    for (const output of [...Object.values(STACK_OUTPUTS), ...ALL_TABLES.map(tableOutputName)]) expect(stdout).toContain(`  ${output}: `);
    expect(stdout).toContain('--live');
  });

  it('Should check the account with --live: bootstrap missing, then present; EMR Serverless and Athena reachable; no stack yet', async () => {
    // Prepare
    const aws = inject('aws');
    const env = { ...awsEnvironment(aws) };

    // Act
    const before = await deployCheck(['--live'], env);
    const cloudformation = new CloudFormationClient(awsClientConfig(aws));
    await cloudformation.send(new CreateStackCommand({ StackName: 'CDKToolkit', TemplateBody: JSON.stringify({ Resources: { StagingBucket: { Type: 'AWS::S3::Bucket' } } }) }));
    cloudformation.destroy();
    const after = await deployCheck(['--live'], env);

    // Assess
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/FAIL CDK bootstrap: .*CDKToolkit/);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toContain('ok   CDK bootstrap: stack CDKToolkit is CREATE_COMPLETE');
    expect(after.stdout).toMatch(/ok {3}EMR Serverless: reachable/);
    expect(after.stdout).toMatch(/ok {3}Athena: reachable/);
    expect(after.stdout).toContain('ok   stack Lakeline: not deployed yet');
  });
});
