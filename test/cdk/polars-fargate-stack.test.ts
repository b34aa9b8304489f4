/**
 * @module polars-fargate-stack.test
 * The Fargate tiers of the polars sandbox inside the whole `Lakeline` stack: not built by default;
 * with warm tasks, the polars routes' functions (the sandbox callers) get each built tier's queue,
 * the sandbox network gets the interface endpoints the tasks need and its S3 endpoint serves ECR's
 * image layers (read-only, that bucket only), and cdk-nag stays clean.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { polarsQueueEnv } from '#composition/env-names';
import { ROUTES } from '#shared/routes';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';

type Json = Record<string, unknown>;

const resourcesOf = (template: Template, type: string): Json[] => Object.values(template.findResources(type)).map((r) => (r as { Properties: Json }).Properties);

const polarsCallers = (stack: LakelineStack) => ROUTES.filter((r) => r.polars).map((r) => stack.api.functions.get(r.id));

describe('the Lakeline stack without warm Fargate tasks (the default)', () => {
  const { template } = synthLakeline('no-fargate');

  it('Should build no ECS cluster, service, queue or interface endpoint', () => {
    template.resourceCountIs('AWS::ECS::Cluster', 0);
    template.resourceCountIs('AWS::ECS::Service', 0);
    expect(Object.keys(template.findResources('AWS::SQS::Queue')).filter((id) => id.startsWith('PolarsFargate'))).toEqual([]);
    template.resourceCountIs('AWS::EC2::VPCEndpoint', 1); // the S3 gateway endpoint only
  });
});

describe('the Lakeline stack with one warm 8-vCPU task', () => {
  const { stack, template } = synthLakeline('fargate', { polarsFargate: { warmTasks: { 8: 1 } } });

  it('Should run one 8-vCPU service and no 16-vCPU one', () => {
    const services = resourcesOf(template, 'AWS::ECS::Service');
    expect(services.map((s) => s.DesiredCount)).toEqual([1]);
    expect(resourcesOf(template, 'AWS::ECS::TaskDefinition').map((t) => t.Cpu)).toEqual(['8192']);
  });

  it('Should give every polars route function the 8-vCPU queue and nothing for 16', () => {
    const callers = polarsCallers(stack);
    expect(callers.length).toBeGreaterThan(0);
    for (const fn of callers) {
      const variables = ((propertiesOf(template, logicalIdOf(fn as never)).Environment as Json).Variables ?? {}) as Json;
      expect(variables[polarsQueueEnv(8)], fn?.node.path).toBeDefined();
      expect(variables[polarsQueueEnv(16)], fn?.node.path).toBeUndefined();
    }
  });

  it('Should add the ECR, ECR Docker, Logs and SQS interface endpoints to the sandbox network', () => {
    const services = resourcesOf(template, 'AWS::EC2::VPCEndpoint')
      .filter((e) => e.VpcEndpointType === 'Interface')
      .map((e) => JSON.stringify(e.ServiceName));
    expect(services).toHaveLength(4);
    for (const name of ['ecr.api', 'ecr.dkr', 'logs', 'sqs']) expect(services.some((s) => s.includes(`.${name}`)), name).toBe(true);
  });

  it('Should let the S3 gateway endpoint serve ECR image layers, read-only', () => {
    template.hasResourceProperties('AWS::EC2::VPCEndpoint', {
      VpcEndpointType: 'Gateway',
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 's3:GetObject', Resource: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('starport-layer-bucket')])] } }),
        ]),
      },
    });
  });

  it('Should leave no AwsSolutions finding unacknowledged', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);
    expect(report.violations.map((v) => `${v.severity} ${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
