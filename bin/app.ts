/**
 * @module app
 * The CDK app: one `Lakeline` stack, checked by cdk-nag's AwsSolutions pack on every synth (an
 * unacknowledged finding fails `cdk synth` and `cdk deploy`; see docs/decisions.md, "cdk-nag").
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { LakelineStack } from '../lib/lakeline-stack.ts';
import { STACK_NAME } from '../lib/stack-outputs.ts';

const app = new App();
new LakelineStack(app, STACK_NAME, {
  description: 'lakeline: OpenLineage ingestion and Iceberg lake queries',
  // Unset outside `cdk deploy` (e.g. `cdk synth` without credentials): the stack is then
  // environment-agnostic, which is all synthesis needs.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
