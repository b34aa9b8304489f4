/**
 * The CLI's aws profile (cli/target.ts): table names and the session secret's ARN come from the
 * stack's CloudFormation outputs, and the service's own DynamoDB adapters then address those
 * tables. aws-sdk-client-mock only checks request shapes here; the adapters' behaviour is tested
 * against the local DynamoDB (test/adapters/).
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openAwsTarget, readStackOutputs } from '../../../cli/target.ts';
import { TargetError } from '../../../cli/target-error.ts';

const cloudFormation = mockClient(CloudFormationClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const secrets = mockClient(SecretsManagerClient);

const OUTPUTS = [
  { OutputKey: 'ApiUrl', OutputValue: 'https://abc.execute-api.eu-west-1.amazonaws.com/' },
  { OutputKey: 'OrgsTableName', OutputValue: 'Lakeline-OrgsTable-123' },
  { OutputKey: 'ApiKeysTableName', OutputValue: 'Lakeline-ApiKeysTable-456' },
  { OutputKey: 'SessionSecretArn', OutputValue: 'arn:aws:secretsmanager:eu-west-1:1:secret:session-abc' },
];
const stackWith = (outputs: typeof OUTPUTS) => ({ Stacks: [{ StackName: 'Lakeline', StackStatus: 'CREATE_COMPLETE' as const, CreationTime: new Date(), Outputs: outputs }] });

beforeEach(() => {
  cloudFormation.reset();
  dynamo.reset();
  secrets.reset();
});

afterAll(() => {
  cloudFormation.restore();
  dynamo.restore();
  secrets.restore();
});

describe('readStackOutputs', () => {
  it("Should read the org and key table names and the secret ARN from the named stack's outputs", async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Lakeline' }).resolves(stackWith(OUTPUTS));
    // Act
    const tables = await readStackOutputs(new CloudFormationClient({ region: 'eu-west-1' }), 'Lakeline');
    // Assess
    expect(tables).toEqual({ orgsTable: 'Lakeline-OrgsTable-123', keysTable: 'Lakeline-ApiKeysTable-456', sessionSecretArn: 'arn:aws:secretsmanager:eu-west-1:1:secret:session-abc' });
  });

  it("Should read the tables and bucket of the lineage rebuild when the stack has a Lineage table", async () => {
    // Prepare
    const lineage = [
      { OutputKey: 'EventsTableName', OutputValue: 'Lakeline-EventsTable-1' },
      { OutputKey: 'LineageTableName', OutputValue: 'Lakeline-LineageTable-2' },
      { OutputKey: 'BlobBucketName', OutputValue: 'lakeline-blobs-3' },
    ];
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Lakeline' }).resolves(stackWith([...OUTPUTS, ...lineage]));
    // Act
    const tables = await readStackOutputs(new CloudFormationClient({ region: 'eu-west-1' }), 'Lakeline');
    // Assess
    expect(tables.lineage).toEqual({ eventsTable: 'Lakeline-EventsTable-1', lineageTable: 'Lakeline-LineageTable-2', blobBucket: 'lakeline-blobs-3' });
  });

  it('Should say the stack does not exist, where it looked, and what to do', async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand).rejects(Object.assign(new Error('Stack with id Nope does not exist'), { name: 'ValidationError' }));
    // Act
    const attempt = readStackOutputs(new CloudFormationClient({ region: 'eu-west-1' }), 'Nope');
    // Assess
    await expect(attempt).rejects.toThrow(TargetError);
    await expect(attempt).rejects.toThrow('stack Nope does not exist in region eu-west-1; deploy it with `npx cdk deploy`, or pass --stack / --region');
  });

  it('Should name a missing output', async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith(OUTPUTS.filter((o) => o.OutputKey !== 'ApiKeysTableName')));
    // Act
    const attempt = readStackOutputs(new CloudFormationClient({ region: 'eu-west-1' }), 'Lakeline');
    // Assess
    await expect(attempt).rejects.toThrow('stack Lakeline has no output ApiKeysTableName');
  });

  it('Should pass other failures on with the stack and region', async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand).rejects(Object.assign(new Error('User is not authorized to perform cloudformation:DescribeStacks'), { name: 'AccessDenied' }));
    // Act
    const attempt = readStackOutputs(new CloudFormationClient({ region: 'eu-west-1' }), 'Lakeline');
    // Assess
    await expect(attempt).rejects.toThrow('cannot read stack Lakeline in region eu-west-1: User is not authorized');
  });
});

describe('openAwsTarget', () => {
  it("Should address the stack's tables through the service's own adapters", async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith(OUTPUTS));
    dynamo.on(GetCommand).resolves({});
    dynamo.on(ScanCommand).resolves({ Items: [] });
    const target = await openAwsTarget({ stack: 'Lakeline', region: 'eu-west-1' });
    // Act
    await target.orgs.list();
    await target.keys.get('0123456789abcdef');
    await target.close();
    // Assess
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]?.args[0].input).toEqual({ StackName: 'Lakeline' });
    expect(dynamo.commandCalls(ScanCommand)[0]?.args[0].input).toMatchObject({ TableName: 'Lakeline-OrgsTable-123' });
    expect(dynamo.commandCalls(GetCommand)[0]?.args[0].input).toEqual({ TableName: 'Lakeline-ApiKeysTable-456', Key: { keyId: '0123456789abcdef' } });
  });

  it('Should read the session secret from the ARN in the outputs, once', async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith(OUTPUTS));
    secrets.on(GetSecretValueCommand, { SecretId: 'arn:aws:secretsmanager:eu-west-1:1:secret:session-abc' }).resolves({ SecretString: 'the-secret' });
    const target = await openAwsTarget({ region: 'eu-west-1' });
    // Act
    const first = await target.sessionSecret();
    const second = await target.sessionSecret();
    await target.close();
    // Assess
    expect([first, second]).toEqual(['the-secret', 'the-secret']);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('Should not read the secret for commands that do not need it', async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith(OUTPUTS));
    // Act
    const target = await openAwsTarget({ region: 'eu-west-1' });
    await target.close();
    // Assess
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('Should refuse an empty secret', async () => {
    // Prepare
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith(OUTPUTS));
    secrets.on(GetSecretValueCommand).resolves({});
    const target = await openAwsTarget({ region: 'eu-west-1' });
    // Act
    const attempt = target.sessionSecret();
    // Assess
    await expect(attempt).rejects.toThrow('the session secret arn:aws:secretsmanager:eu-west-1:1:secret:session-abc is empty');
    await target.close();
  });
});
