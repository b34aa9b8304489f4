/**
 * @module test-function
 * A bare Lambda function standing in for a route function in the construct suites that test one
 * construct in a stack of its own (bloom, the polars Fargate tiers): a role of its own, exposed as
 * `executionRole` like `ServiceFunction`, so the construct's grants land where the tests look.
 */
import type { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { acknowledge } from '../../lib/nag.ts';

export class TestFunction extends lambda.Function {
  readonly executionRole: iam.Role;
  constructor(scope: Stack, id: string) {
    const role = new iam.Role(scope, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    super(scope, id, { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler = async () => ({})'), role });
    this.executionRole = role;
    acknowledge(this, 'AwsSolutions-L1', 'A test stand-in for a route function; the runtime is not what this test is about.');
  }
}
