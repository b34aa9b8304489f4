/**
 * @module construct-validation.test
 * The constructs refuse bad props at synth time, naming what is wrong. Bundling is switched off
 * here (`aws:cdk:bundling-stacks: []`): these stacks are never deployed, only constructed.
 */
import { App, type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition, type RouteId } from '#shared/routes';
import { EVENTS_TABLE, KEYS_TABLE, ORGS_TABLE, RUNS_TABLE, type TableDefinition } from '#shared/table-definitions';
import { LakelineApi } from '../../lib/api.ts';
import { DefinedTable, LakelineData } from '../../lib/data.ts';
import { acknowledge } from '../../lib/nag.ts';
import { ServiceFunction } from '../../lib/service-function.ts';

const newStack = (): Stack => new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');

const route = (overrides: Partial<RouteDefinition>): RouteDefinition => ({
  id: 'GetRun',
  method: 'GET',
  path: '/api/v1/runs/{run_id}',
  handler: 'get-run',
  auth: 'key',
  errorStyle: 'plain',
  tables: [],
  ...overrides,
});

describe('ServiceFunction', () => {
  it('Should refuse a handler module that does not exist', () => {
    expect(() => new ServiceFunction(newStack(), 'Fn', { handlerModule: 'no-such-handler' })).toThrow(/does not exist/);
  });

  it('Should refuse a handler module that is not a kebab-case name', () => {
    expect(() => new ServiceFunction(newStack(), 'Fn', { handlerModule: '../bin/app' })).toThrow(/kebab-case/);
  });

  it('Should refuse memory outside Lambda limits and timeouts beyond 15 minutes', () => {
    expect(() => new ServiceFunction(newStack(), 'Fn', { handlerModule: 'get-run', memorySize: 64 })).toThrow(/memorySize/);
    expect(() => new ServiceFunction(newStack(), 'Fn', { handlerModule: 'get-run', timeout: Duration.minutes(16) })).toThrow(/timeout/);
  });

  it('Should refuse to let callers override the variables it owns', () => {
    expect(() => new ServiceFunction(newStack(), 'Fn', { handlerModule: 'get-run', environment: { NODE_OPTIONS: '' } })).toThrow(/NODE_OPTIONS/);
  });

  it('Should refuse to bind the same table twice', () => {
    const stack = newStack();
    const table = new DefinedTable(stack, 'Runs', { definition: RUNS_TABLE });
    const fn = new ServiceFunction(stack, 'Fn', { handlerModule: 'get-run' }).bindTable(table, 'RO');
    expect(() => fn.bindTable(table, 'RW')).toThrow(/already bound/);
  });

  it('Should set the table env var and grant reads only for RO', () => {
    const stack = newStack();
    const table = new DefinedTable(stack, 'Orgs', { definition: ORGS_TABLE });
    new ServiceFunction(stack, 'Fn', { handlerModule: 'get-run' }).bindTable(table, 'RO');
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: { [ORGS_TABLE.envName]: { Ref: stack.getLogicalId(table.node.defaultChild as CfnElement) } } } });
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toMatch(/dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)/);
  });
});

describe('LakelineData and DefinedTable', () => {
  it('Should refuse a definition that projects a key attribute', () => {
    const bad: TableDefinition = {
      ...EVENTS_TABLE,
      indexes: [{ indexName: 'byTime', partitionKey: { name: 'shardKey', type: 'S' }, sortKey: { name: 'timeKey', type: 'S' }, projection: ['timeKey'] }],
    };
    expect(() => new DefinedTable(newStack(), 'Events', { definition: bad })).toThrow(/projects key attribute timeKey/);
  });

  it('Should refuse a key attribute declared with two types', () => {
    const bad: TableDefinition = { ...RUNS_TABLE, indexes: [{ indexName: 'byRun', partitionKey: { name: 'runId', type: 'N' }, projection: 'ALL' }] };
    expect(() => new DefinedTable(newStack(), 'Runs', { definition: bad })).toThrow(/both S and N/);
  });

  it('Should refuse two tables with the same id or env var', () => {
    expect(() => new LakelineData(newStack(), 'Data', { tables: [ORGS_TABLE, ORGS_TABLE] })).toThrow(/used twice/);
    expect(() => new LakelineData(newStack(), 'Data', { tables: [ORGS_TABLE, { ...RUNS_TABLE, envName: ORGS_TABLE.envName }] })).toThrow(/two tables/);
  });
});

describe('LakelineApi', () => {
  const build = (routes: readonly RouteDefinition[], data?: (stack: Stack) => LakelineData) => {
    const stack = newStack();
    return () => new LakelineApi(stack, 'Api', { data: data ? data(stack) : new LakelineData(stack, 'Data'), routes });
  };

  it('Should refuse duplicate route ids and duplicate route keys', () => {
    expect(build([route({}), route({ path: '/other' })])).toThrow(/used twice/);
    expect(build([route({}), route({ id: 'GetRunAgain' as RouteId })])).toThrow(/routed twice/);
  });

  it('Should refuse a timeout the HTTP API integration cannot wait for', () => {
    expect(build([route({ timeoutSeconds: 31 })])).toThrow(/timeout/);
  });

  it('Should refuse a route id that collides with its own constructs', () => {
    expect(build([route({ id: 'Authorizer' as RouteId })])).toThrow(/reserved/);
  });

  it('Should refuse a route that lists a table the data construct does not have', () => {
    expect(build([route({ tables: [{ table: EVENTS_TABLE, access: 'RO' }] })], (stack) => new LakelineData(stack, 'Data', { tables: [ORGS_TABLE, KEYS_TABLE, RUNS_TABLE] }))).toThrow(
      /no table Events/,
    );
  });

  it('Should refuse non-positive throttle limits', () => {
    const stack = newStack();
    const data = new LakelineData(stack, 'Data');
    expect(() => new LakelineApi(stack, 'Api', { data, routes: ROUTES, throttleRateLimit: 0 })).toThrow(/throttle/);
  });
});

describe('acknowledge', () => {
  it('Should refuse an acknowledgement without a real reason', () => {
    expect(() => acknowledge(newStack(), 'AwsSolutions-S1', 'because')).toThrow(/real reason/);
  });
});
