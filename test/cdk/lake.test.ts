/**
 * @module lake.test
 * Assertions on the lake part of the synthesized `Lakeline` template: the DuckDB layer on exactly
 * the routes that run DuckDB, the lake writer (pyiceberg on Python, arm64) and its role (org Glue
 * databases and the warehouse prefix, nothing else), and the lake grants of the routes marked
 * `lake`: reads for `read`, and invoking the lake writer for `write`. Bundling is off: these
 * assertions are about the template, not the function code.
 */
import { Stack } from 'aws-cdk-lib';
import type { Template as TemplateType } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DUCKDB_EXTENSION_DIR_ENV, LAKE_WRITER_FUNCTION_ENV, PROFILE_ENV, WAREHOUSE_URI_ENV } from '#composition/env-names';
import { ROUTES } from '#shared/routes';
import { ORGS_TABLE } from '#shared/table-definitions';
import { LAYER_EXTENSION_DIR } from '../../lib/lake.ts';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';
import { grantsOfRole, type Grant } from './iam-statements.ts';

type Json = Record<string, unknown>;

/** Glue ARNs as the grant helper names them (the partition is a pseudo-parameter). */
const GLUE = 'arn:AWS::Partition:glue:eu-west-1:123456789012:';
const ORG_GLUE = [`${GLUE}catalog`, `${GLUE}database/org_*`, `${GLUE}table/org_*/*`];

let stack: LakelineStack;
let template: TemplateType;

const props = (logicalId: string): Json => propertiesOf(template, logicalId);
const fnOf = (routeId: string) => {
  const fn = stack.api.functions.get(routeId);
  if (!fn) throw new Error(`no function ${routeId}`);
  return fn;
};
const envOf = (routeId: string): Json => ((props(logicalIdOf(fnOf(routeId))).Environment as Json).Variables ?? {}) as Json;
const has = (grants: readonly Grant[], action: string, resource: string): boolean => grants.some((g) => g.action === action && g.resource === resource);

beforeAll(() => {
  ({ stack, template } = synthLakeline('lake'));
});

describe('the DuckDB layer', () => {
  it('Should be one arm64 Node.js 22 layer', () => {
    // The other layers are the AWS CLI of the console's deployments (aws-cdk-lib's BucketDeployment makes one each).
    const layers = Object.keys(template.findResources('AWS::Lambda::LayerVersion'));
    const duckdb = logicalIdOf(stack.lake.duckdbLayer);
    expect(layers).toContain(duckdb);
    expect(layers.filter((id) => id !== duckdb).every((id) => /^ConsoleDeploy(Assets|Site)AwsCliLayer/.test(id)), layers.join(', ')).toBe(true);
    expect(props(logicalIdOf(stack.lake.duckdbLayer))).toMatchObject({ CompatibleArchitectures: ['arm64'], CompatibleRuntimes: ['nodejs22.x'] });
  });

  it.each(ROUTES.map((r) => [r.id, r.duckdb === true] as const))('Should be attached to %s only if it runs DuckDB (%s), with the extension directory', (routeId, runsDuckDB) => {
    const layers = (props(logicalIdOf(fnOf(routeId))).Layers ?? []) as unknown[];
    expect(layers).toEqual(runsDuckDB ? [{ Ref: logicalIdOf(stack.lake.duckdbLayer) }] : []);
    expect(envOf(routeId)[DUCKDB_EXTENSION_DIR_ENV]).toEqual(runsDuckDB ? LAYER_EXTENSION_DIR : undefined);
  });
});

describe('the lake writer', () => {
  it('Should run the lakewriter package on Python 3.12, arm64, with the warehouse URI', () => {
    expect(props(logicalIdOf(stack.lake.lakeWriter))).toMatchObject({
      Runtime: 'python3.12',
      Architectures: ['arm64'],
      Handler: 'lakewriter.handler.handler',
      MemorySize: 3008,
      Timeout: 900,
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: { [PROFILE_ENV]: 'aws', [WAREHOUSE_URI_ENV]: Stack.of(stack).resolve(stack.warehouse.warehouseUri) } },
    });
  });

  it('Should write org Glue databases and the warehouse prefix, read staged polars results, and nothing else', () => {
    const role = (props(logicalIdOf(stack.lake.lakeWriter)).Role as Json)['Fn::GetAtt'] as string[];
    const grants = grantsOfRole(template, role[0] as string);
    const bucket = logicalIdOf(stack.warehouse.bucket);
    for (const resource of ORG_GLUE) {
      for (const action of ['glue:GetTable', 'glue:CreateTable', 'glue:UpdateTable', 'glue:CreateDatabase']) expect(has(grants, action, resource), `${action} ${resource}`).toBe(true);
    }
    for (const action of ['s3:GetObject', 's3:PutObject', 's3:DeleteObject']) expect(has(grants, action, `${bucket}/warehouse/*`)).toBe(true);
    const unexpected = grants.filter(
      (g) =>
        !(g.action.startsWith('glue:') && ORG_GLUE.includes(g.resource)) &&
        !(g.action.startsWith('s3:') && (g.resource === `${bucket}/warehouse/*` || (g.action === 's3:ListBucket' && g.resource === bucket))) &&
        // The staged result of a polars destination (test/cdk/polars.test.ts).
        !(g.action === 's3:GetObject' && g.resource === `${bucket}/polars-staging/*`) &&
        !g.action.startsWith('logs:') &&
        !g.action.startsWith('xray:'),
    );
    expect(unexpected).toEqual([]);
  });
});

describe('the lake access of the routes', () => {
  it.each(ROUTES.map((r) => [r.id, r.lake ?? 'none'] as const))('Should give %s the lake access its route marks (%s)', (routeId, lake) => {
    const fn = fnOf(routeId);
    const grants = grantsOfRole(template, logicalIdOf(fn.executionRole));
    // Invoking the polars sandboxes is the polars construct's grant (test/cdk/polars.test.ts).
    const sandboxes = [...stack.polars.functions.values()].map(logicalIdOf);
    const invokes = grants.filter((g) => g.action === 'lambda:InvokeFunction' && !sandboxes.includes(g.resource));
    const env = envOf(routeId);
    const spark = ROUTES.find((r) => r.id === routeId)?.spark;
    if (lake === 'none') {
      expect(invokes).toEqual([]);
      expect(env[LAKE_WRITER_FUNCTION_ENV]).toBeUndefined();
      // Spark routes read the lake through their own construct (test/cdk/spark.test.ts).
      if (!spark) expect(grants.filter((g) => g.action.startsWith('glue:'))).toEqual([]);
      return;
    }
    for (const resource of ORG_GLUE) expect(has(grants, 'glue:GetTable', resource)).toBe(true);
    expect(has(grants, 's3:GetObject', `${logicalIdOf(stack.warehouse.bucket)}/warehouse/*`)).toBe(true);
    // Writes to Glue are only the bloom construct's, on the per-org results databases (and the
    // catalog resource Glue requires beside them).
    const bloomRoute = ROUTES.find((r) => r.id === routeId)?.bloom === true;
    expect(grants.filter((g) => g.action.startsWith('glue:') && !g.action.startsWith('glue:Get') && !(bloomRoute && (g.resource.includes('lakeline_results') || g.resource.endsWith(':catalog'))))).toEqual([]);
    expect(env[WAREHOUSE_URI_ENV]).toBeDefined();
    if (lake === 'write') {
      expect(invokes).toEqual([{ action: 'lambda:InvokeFunction', resource: logicalIdOf(stack.lake.lakeWriter) }]);
      expect(env[LAKE_WRITER_FUNCTION_ENV]).toEqual({ Ref: logicalIdOf(stack.lake.lakeWriter) });
    } else {
      expect(invokes).toEqual([]);
    }
  });
});

describe('the results expiry', () => {
  it('Should run the expire-results handler every hour with the warehouse and the lake writer named', () => {
    const id = logicalIdOf(stack.lake.resultsExpiry);
    const env = ((props(id).Environment as Json).Variables ?? {}) as Json;
    expect(env[WAREHOUSE_URI_ENV]).toBeDefined();
    expect(env[LAKE_WRITER_FUNCTION_ENV]).toEqual({ Ref: logicalIdOf(stack.lake.lakeWriter) });
    const rules = Object.values(template.findResources('AWS::Events::Rule')).map((r) => (r as { Properties: Json }).Properties);
    const schedule = rules.find((r) => JSON.stringify(r.Targets).includes(id));
    expect(schedule?.ScheduleExpression).toBe('rate(1 hour)');
  });

  it('Should read orgs and the lake and invoke the lake writer, and nothing else', () => {
    const grants = grantsOfRole(template, logicalIdOf(stack.lake.resultsExpiry.executionRole));
    const orgs = logicalIdOf(stack.data.table(ORGS_TABLE) as never);
    const allowed = (g: Grant): boolean =>
      g.action.startsWith('logs:') ||
      g.action.startsWith('xray:') ||
      (g.action.startsWith('dynamodb:') && g.resource.startsWith(orgs) && !/Put|Update|Delete|Write/.test(g.action)) ||
      (g.action.startsWith('glue:Get') && ORG_GLUE.includes(g.resource)) ||
      (g.action === 's3:GetObject' && g.resource === `${logicalIdOf(stack.warehouse.bucket)}/warehouse/*`) ||
      (g.action === 'lambda:InvokeFunction' && g.resource === logicalIdOf(stack.lake.lakeWriter));
    expect(grants.filter((g) => !allowed(g))).toEqual([]);
    expect(has(grants, 'lambda:InvokeFunction', logicalIdOf(stack.lake.lakeWriter))).toBe(true);
    expect(grants.some((g) => g.action === 'dynamodb:Scan' && g.resource.startsWith(orgs))).toBe(true);
  });
});
