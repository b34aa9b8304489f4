/**
 * @module polars.test
 * Assertions on the polars part of the synthesized `Lakeline` template: one arm64 container-image
 * Lambda per Lambda tier (2 and 4 vCPUs, 1,769 MB per vCPU), each role reading the warehouse's
 * files and nothing else, and the polars route's function allowed to invoke exactly these
 * functions, with their names in its environment. Also: the image's pins are requirements.lock's.
 * The image is staged, not built: these assertions are about the template.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { polarsFunctionEnv } from '#shared/polars-env';
import { ROUTES } from '#shared/routes';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { LAMBDA_TIERS } from '../../lib/polars.ts';
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
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: { POLARS_MAX_THREADS: String(tier) } },
    });
  });

  it.each(LAMBDA_TIERS.map((t) => [t]))('Should let the %i-vCPU sandbox read the warehouse files and nothing else', (tier) => {
    const role = (props(logicalIdOf(sandbox(tier))).Role as Json)['Fn::GetAtt'] as string[];
    const grants = grantsOfRole(template, role[0] as string);
    const bucket = logicalIdOf(stack.warehouse.bucket);
    expect(grants.filter((g) => !g.action.startsWith('logs:') && !g.action.startsWith('xray:'))).toEqual([{ action: 's3:GetObject', resource: `${bucket}/warehouse/*` }]);
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
