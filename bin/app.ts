/**
 * @module app
 * The CDK app: one `Lakeline` stack, checked by cdk-nag's AwsSolutions pack on every synth (an
 * unacknowledged finding fails `cdk synth` and `cdk deploy`; see docs/adr/0026-cdk-app.md).
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { LakelineStack } from '../lib/lakeline-stack.ts';
import { STACK_NAME } from '../lib/stack-outputs.ts';

const app = new App();

/** A non-negative integer from the CDK context (`-c name=value`), 0 when absent. */
function warmTasks(name: string): number {
  const value: unknown = app.node.tryGetContext(name);
  if (value === undefined) return 0;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) throw new Error(`context ${name} must be a non-negative integer, not ${String(value)}`);
  return count;
}
new LakelineStack(app, STACK_NAME, {
  description: 'lakeline: OpenLineage ingestion and Iceberg lake queries',
  // Unset outside `cdk deploy` (e.g. `cdk synth` without credentials): the stack is then
  // environment-agnostic, which is all synthesis needs.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  // Warm ECS Fargate tasks of the 8- and 16-vCPU polars sandboxes (the only ones that run scripts in
  // AWS): `cdk deploy -c polarsWarmTasks8=1 -c polarsWarmTasks16=0`. 0 (the default) builds nothing.
  polarsFargate: { warmTasks: { 8: warmTasks('polarsWarmTasks8'), 16: warmTasks('polarsWarmTasks16') } },
  // Pre-initialized EMR Serverless workers (ADR 0059), so small Spark writes start at once while the
  // application is started: `cdk deploy -c sparkWarmDrivers=1 -c sparkWarmExecutors=1`. 0 drivers
  // (the default) keeps none; each kept spark.1.b worker costs while the application is started.
  ...(warmTasks('sparkWarmDrivers') > 0 ? { spark: { preInitializedCapacity: { drivers: warmTasks('sparkWarmDrivers'), executors: warmTasks('sparkWarmExecutors') } } } : {}),
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
