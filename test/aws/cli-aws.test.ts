/**
 * `lakeline … --profile aws` against the emulated account: the CLI finds the deployed stack's
 * tables and session secret from its CloudFormation outputs (a stack created in the emulator with
 * the outputs `Lakeline` has), and its org, key and session commands write the deployment's own
 * tables, so the AWS profile's authorizer accepts what it made. Reached only through the SDKs'
 * standard endpoint variable, as `deploy:check --live` is.
 */
import { randomUUID } from 'node:crypto';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamodb/clients';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { localTableName } from '#composition/config';
import { Authorizer } from '#domain/auth/authorize';
import { KEYS_TABLE, ORGS_TABLE } from '#shared/table-definitions';
import { STACK_OUTPUTS, tableOutputName } from '../../lib/stack-outputs.ts';
import { lakelineJson, runLakeline } from '../helpers/cli.ts';
import { awsClientConfig, awsEnvironment } from './emulator.ts';

const aws = inject('aws');
const env = awsEnvironment(aws);
const stackName = `LakelineCli${randomUUID().slice(0, 8)}`;
const sessionSecret = `secret-${randomUUID()}`;
const onStack = (...args: string[]) => [...args, '--profile', 'aws', '--stack', stackName];
const dynamo = new DynamoDBClient(awsClientConfig(aws));
const doc = createDocumentClient(dynamo);

beforeAll(async () => {
  // The deployment the CLI is pointed at: the session secret, and a stack whose outputs name the tables.
  const secrets = new SecretsManagerClient(awsClientConfig(aws));
  const { ARN } = await secrets.send(new CreateSecretCommand({ Name: `${stackName}-session`, SecretString: sessionSecret }));
  secrets.destroy();
  const cloudformation = new CloudFormationClient(awsClientConfig(aws));
  const template = {
    Resources: { Placeholder: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
    Outputs: {
      [tableOutputName(ORGS_TABLE)]: { Value: localTableName(ORGS_TABLE) },
      [tableOutputName(KEYS_TABLE)]: { Value: localTableName(KEYS_TABLE) },
      [STACK_OUTPUTS.sessionSecretArn]: { Value: ARN },
    },
  };
  await cloudformation.send(new CreateStackCommand({ StackName: stackName, TemplateBody: JSON.stringify(template) }));
  cloudformation.destroy();
});

afterAll(() => dynamo.destroy());

describe('lakeline --profile aws against the emulated account', () => {
  it("Should create an org, a key and a session in the stack's tables that the AWS profile's authorizer accepts", async () => {
    // Act
    const org = await lakelineJson<{ orgId: string; name: string; plan: string }>(onStack('orgs', 'create', '--name', 'Deployed', '--plan', 'pro'), env);
    const key = await lakelineJson<{ keyId: string; token: string }>(onStack('keys', 'create', '--org', org.orgId, '--name', 'ci'), env);
    const listed = await lakelineJson<{ orgId: string }[]>(onStack('orgs', 'list'), env);
    const session = await lakelineJson<{ cookie: string; cookieName: string }>(onStack('sessions', 'create', '--org', org.orgId, '--ttl', '600'), env);

    // Assess: what the deployment's authorizer reads, from the same tables and secret
    const authorizer = new Authorizer({ keys: new DynamoKeyStore(doc, localTableName(KEYS_TABLE)), orgs: new DynamoOrgStore(doc, localTableName(ORGS_TABLE)), sessionSecret, keyCacheTtlMs: 0 });
    const byKey = await authorizer.authorize({ authorization: `Bearer ${key.token}`, cookies: [], sessionAllowed: false });
    const bySession = await authorizer.authorize({ cookies: [`${session.cookieName}=${session.cookie}`], sessionAllowed: true });
    expect(org).toMatchObject({ name: 'Deployed', plan: 'pro' });
    expect(listed.map((o) => o.orgId)).toContain(org.orgId);
    expect(byKey).toMatchObject({ ok: true, principal: { orgId: org.orgId } });
    expect(bySession).toMatchObject({ ok: true, principal: { orgId: org.orgId } });
  });

  it('Should name the missing stack and its region when none is deployed under that name', async () => {
    // Act
    const run = await runLakeline(['orgs', 'list', '--profile', 'aws', '--stack', 'NoSuchLakeline', '--json'], env);

    // Assess
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`stack NoSuchLakeline does not exist in region ${aws.region}`);
  });
});
