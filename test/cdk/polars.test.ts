/**
 * @module polars.test
 * Assertions on the polars part of the synthesized `Lakeline` template: one arm64 container-image
 * Lambda per Lambda tier (2 and 4 vCPUs, 1,769 MB per vCPU) in the isolated sandbox network, each
 * role without any data access; the sandbox data role (warehouse reads, staging writes) trusted by
 * exactly the polars routes' roles, which may assume it and nothing else; the network (isolated
 * subnets, no NAT or internet gateway, an S3 endpoint for the warehouse bucket only, egress 443
 * only, flow logs); the polars route's function allowed to invoke exactly these functions, with
 * their names in its environment; and a clean cdk-nag run. Also: the image's pins are
 * requirements.lock's. The image is staged, not built: these assertions are about the template.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { POLARS_DATA_ROLE_ENV, POLARS_STAGING_URI_ENV, polarsFunctionEnv } from '#composition/env-names';
import { ROUTES } from '#shared/routes';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { LAMBDA_TIERS, VPC_ACCESS_ACTIONS } from '../../lib/polars.ts';
import { REPO_ROOT } from '../../lib/service-function.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';
import { grantsOfRole } from './iam-statements.ts';

type Json = Record<string, unknown>;

let stack: LakelineStack;
let template: Template;

const props = (logicalId: string): Json => propertiesOf(template, logicalId);
const sandbox = (tier: number) => {
  const fn = stack.polars.functions.get(tier);
  if (!fn) throw new Error(`no sandbox of tier ${tier}`);
  return fn;
};

beforeAll(() => {
  ({ stack, template } = synthLakeline('polars'));
});

describe('the polars sandboxes', () => {
  it.each(LAMBDA_TIERS.map((t) => [t]))('Should run the %i-vCPU tier as an arm64 image function with 1,769 MB per vCPU', (tier) => {
    expect(props(logicalIdOf(sandbox(tier)))).toMatchObject({
      PackageType: 'Image',
      Architectures: ['arm64'],
      MemorySize: tier * 1769,
      Timeout: 900,
      Environment: { Variables: { POLARS_MAX_THREADS: String(tier) } },
    });
    // No X-Ray: an isolated subnet has no route to it.
    expect(props(logicalIdOf(sandbox(tier))).TracingConfig).toBeUndefined();
  });

  it.each(LAMBDA_TIERS.map((t) => [t]))('Should give the %i-vCPU sandbox role no data access: logs and network interfaces only', (tier) => {
    const role = (props(logicalIdOf(sandbox(tier))).Role as Json)['Fn::GetAtt'] as string[];
    const grants = grantsOfRole(template, role[0] as string);
    const byAction = (a: { action: string }, b: { action: string }) => a.action.localeCompare(b.action);
    expect(grants.filter((g) => !g.action.startsWith('logs:')).sort(byAction)).toEqual(VPC_ACCESS_ACTIONS.map((action) => ({ action, resource: '*' })).sort(byAction));
    expect(grants.filter((g) => g.action.startsWith('s3:') || g.action.startsWith('sts:') || g.action.startsWith('glue:'))).toEqual([]);
  });

  it.each(LAMBDA_TIERS.map((t) => [t]))('Should run the %i-vCPU sandbox in the isolated subnets with the sandbox security group', (tier) => {
    const vpcConfig = props(logicalIdOf(sandbox(tier))).VpcConfig as { SubnetIds: { Ref: string }[]; SecurityGroupIds: unknown[] };
    const isolated = stack.sandboxNetwork.vpc.isolatedSubnets.map((s) => logicalIdOf(s));
    expect(vpcConfig.SubnetIds.map((s) => s.Ref).sort()).toEqual([...isolated].sort());
    expect(vpcConfig.SecurityGroupIds).toEqual([{ 'Fn::GetAtt': [logicalIdOf(stack.sandboxNetwork.securityGroup), 'GroupId'] }]);
  });

  it('Should be built from functions/polars with pins equal to requirements.lock', () => {
    const pins = (file: string) =>
      new Map(
        readFileSync(path.join(REPO_ROOT, file), 'utf8')
          .split('\n')
          .filter((l) => l.includes('=='))
          .map((l) => l.trim().split('==') as [string, string])
          .map(([name, version]) => [name.toLowerCase().replaceAll('_', '-'), version]),
      );
    const lock = pins('requirements.lock');
    const image = pins('functions/polars/requirements-lambda.txt');
    expect(image.get('polars')).toBeDefined();
    for (const [name, version] of image) expect(lock.get(name), name).toBe(version);
  });
});

describe('the routes marked polars', () => {
  it.each(ROUTES.filter((r) => r.polars).map((r) => [r.id]))('Should let %s invoke exactly the sandboxes, named in its environment', (routeId) => {
    const route = stack.api.functions.get(routeId);
    if (!route) throw new Error(`no function for ${routeId}`);
    const grants = grantsOfRole(template, logicalIdOf(route.executionRole));
    // The lake writer is the other function a lake-writing route may invoke (test/cdk/lake.test.ts).
    const invokes = grants.filter((g) => g.action === 'lambda:InvokeFunction' && g.resource !== logicalIdOf(stack.lake.lakeWriter)).map((g) => g.resource);
    expect(invokes.sort()).toEqual(LAMBDA_TIERS.map((t) => logicalIdOf(sandbox(t))).sort());
    const env = ((props(logicalIdOf(route)).Environment as Json).Variables ?? {}) as Json;
    for (const tier of LAMBDA_TIERS) expect(env[polarsFunctionEnv(tier)]).toEqual({ Ref: logicalIdOf(sandbox(tier)) });
  });

  it('Should mark the polars endpoint and the routed endpoint, which runs scripts', () => {
    expect(ROUTES.filter((r) => r.polars).map((r) => r.id).sort()).toEqual(['PostQuery', 'PostWarehousePolars']);
  });

  it.each(ROUTES.filter((r) => !r.polars).map((r) => [r.id]))('Should not let %s invoke a sandbox', (routeId) => {
    const fn = stack.api.functions.get(routeId);
    if (!fn) return;
    const sandboxes = LAMBDA_TIERS.map((t) => logicalIdOf(sandbox(t)));
    const invokes = grantsOfRole(template, logicalIdOf(fn.executionRole)).filter((g) => g.action === 'lambda:InvokeFunction' && sandboxes.includes(g.resource));
    expect(invokes).toEqual([]);
  });
});

describe('the sandbox data role', () => {
  const callers = () => ROUTES.filter((r) => r.polars).map((r) => {
    const fn = stack.api.functions.get(r.id);
    if (!fn?.role) throw new Error(`no function for ${r.id}`);
    return fn;
  });

  it('Should read the warehouse and write the staging prefix, nothing else', () => {
    const bucket = logicalIdOf(stack.warehouse.bucket);
    expect(grantsOfRole(template, logicalIdOf(stack.polars.dataRole))).toEqual([
      { action: 's3:GetObject', resource: `${bucket}/warehouse/*` },
      { action: 's3:PutObject', resource: `${bucket}/polars-staging/*` },
    ]);
  });

  it("Should be trusted by exactly the polars routes' execution roles", () => {
    const trust = props(logicalIdOf(stack.polars.dataRole)).AssumeRolePolicyDocument as { Statement: { Action: string; Effect: string; Principal: { AWS: unknown } }[] };
    const principals = trust.Statement.flatMap((st) => {
      expect(st).toMatchObject({ Action: 'sts:AssumeRole', Effect: 'Allow' });
      expect(Object.keys(st.Principal)).toEqual(['AWS']);
      return Array.isArray(st.Principal.AWS) ? st.Principal.AWS : [st.Principal.AWS];
    });
    const expected = callers().map((fn) => ({ 'Fn::GetAtt': [logicalIdOf(fn.executionRole as never), 'Arn'] }));
    expect(principals).toHaveLength(expected.length);
    expect(principals).toEqual(expect.arrayContaining(expected));
  });

  it.each(ROUTES.filter((r) => r.polars).map((r) => [r.id]))('Should let %s assume the data role and no other role, with its ARN and the staging URI in its environment', (routeId) => {
    const fn = stack.api.functions.get(routeId);
    if (!fn) throw new Error(`no function for ${routeId}`);
    const grants = grantsOfRole(template, logicalIdOf(fn.executionRole as never));
    expect(grants.filter((g) => g.action.startsWith('sts:'))).toEqual([{ action: 'sts:AssumeRole', resource: logicalIdOf(stack.polars.dataRole) }]);
    const env = ((props(logicalIdOf(fn)).Environment as Json).Variables ?? {}) as Json;
    expect(env[POLARS_DATA_ROLE_ENV]).toEqual({ 'Fn::GetAtt': [logicalIdOf(stack.polars.dataRole), 'Arn'] });
    expect(env[POLARS_STAGING_URI_ENV]).toEqual(Stack.of(stack).resolve(stack.warehouse.polarsStagingUri));
  });

  it.each(ROUTES.filter((r) => !r.polars).map((r) => [r.id]))('Should not let %s assume any role', (routeId) => {
    const fn = stack.api.functions.get(routeId);
    if (!fn) return;
    expect(grantsOfRole(template, logicalIdOf(fn.executionRole as never)).filter((g) => g.action.startsWith('sts:'))).toEqual([]);
  });

  it('Should let the lake writer read staged results, and expire them after a day', () => {
    const role = (props(logicalIdOf(stack.lake.lakeWriter)).Role as Json)['Fn::GetAtt'] as string[];
    const bucket = logicalIdOf(stack.warehouse.bucket);
    expect(grantsOfRole(template, role[0] as string)).toContainEqual({ action: 's3:GetObject', resource: `${bucket}/polars-staging/*` });
    const rules = ((props(bucket).LifecycleConfiguration as Json).Rules ?? []) as Json[];
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: 'polars-staging/', ExpirationInDays: 1, Status: 'Enabled' }));
  });
});

describe('the sandbox network', () => {
  const resources = () => (template.toJSON() as { Resources: Record<string, { Type: string; Properties?: Json }> }).Resources;
  const ofType = (type: string) => Object.entries(resources()).filter(([, r]) => r.Type === type);

  it('Should have no NAT gateway, no internet gateway and no public subnet', () => {
    for (const type of ['AWS::EC2::NatGateway', 'AWS::EC2::InternetGateway', 'AWS::EC2::VPCGatewayAttachment', 'AWS::EC2::EIP']) expect(ofType(type), type).toEqual([]);
    expect(stack.sandboxNetwork.vpc.publicSubnets).toEqual([]);
    expect(stack.sandboxNetwork.vpc.privateSubnets).toEqual([]);
    expect(stack.sandboxNetwork.vpc.isolatedSubnets).toHaveLength(2);
    for (const [, route] of ofType('AWS::EC2::Route')) expect(route.Properties?.DestinationCidrBlock, 'no default route').not.toBe('0.0.0.0/0');
  });

  it('Should reach S3 through a gateway endpoint whose policy admits the warehouse bucket only', () => {
    const endpoints = ofType('AWS::EC2::VPCEndpoint').map(([, r]) => r.Properties as Json);
    const s3 = endpoints.filter((e) => e.VpcEndpointType === 'Gateway');
    expect(s3).toHaveLength(1);
    const bucket = logicalIdOf(stack.warehouse.bucket);
    const statements = ((s3[0]?.PolicyDocument as Json).Statement ?? []) as Json[];
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Principal: { AWS: '*' } });
    const resourcesOf = (statements[0]?.Resource as unknown[]).map((r) => JSON.stringify(r));
    expect(resourcesOf).toEqual([JSON.stringify({ 'Fn::GetAtt': [bucket, 'Arn'] }), JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/*']] })]);
  });

  it('Should allow the sandboxes egress on TCP 443 only and no ingress', () => {
    const group = props(logicalIdOf(stack.sandboxNetwork.securityGroup));
    expect(group.SecurityGroupEgress).toEqual([expect.objectContaining({ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' })]);
    expect(group.SecurityGroupIngress).toBeUndefined();
  });

  it('Should log all of its traffic', () => {
    const logs = ofType('AWS::EC2::FlowLog').map(([, r]) => r.Properties as Json);
    expect(logs).toEqual([expect.objectContaining({ ResourceType: 'VPC', TrafficType: 'ALL', LogDestinationType: 'cloud-watch-logs' })]);
  });

  it('Should leave no AwsSolutions finding of the polars constructs and the network unacknowledged', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);
    const ours = report.violations.filter((v) => v.violatingResources.some((r) => /\/(Polars|SandboxNetwork)(\/|$)/.test(r.constructPath ?? '')));
    expect(ours.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
