/**
 * @module lakeline-stack.test
 * Assertions on the synthesized `Lakeline` template: every route and its authorizer attachment, the
 * functions, every table straight from table-definitions, least-privilege IAM per function, and a
 * clean cdk-nag AwsSolutions run. The stack is built once (bundling runs esbuild per function).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_URL_ENV, BLOB_BUCKET_ENV, PROFILE_ENV, SESSION_SECRET_ARN_ENV } from '#composition/env-names';
import { ROUTES, routeKey, type RouteDefinition } from '#shared/routes';
import { ALL_TABLES, KEYS_TABLE, ORGS_TABLE, type TableAccess, type TableDefinition } from '#shared/table-definitions';
import { LakelineStack } from '../../lib/lakeline-stack.ts';
import { MIN_REASON_LENGTH } from '../../lib/nag.ts';
import type { ServiceFunction } from '../../lib/service-function.ts';
import { STACK_OUTPUTS, tableOutputName } from '../../lib/stack-outputs.ts';
import { synthLakeline } from './synth.ts';
import { DYNAMODB_READ_ACTIONS, DYNAMODB_WRITE_ACTIONS, grantsOfRole, type Grant } from './iam-statements.ts';

type Json = Record<string, unknown>;

const cdkContext = (): Record<string, unknown> => {
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
};

let stack: LakelineStack;
let template: Template;
let assemblyDir: string;

/** The logical id of a construct's CloudFormation resource. */
const logicalIdOf = (construct: IConstruct): string => {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).resolve(element.logicalId) as string;
};

const resource = (logicalId: string): Json => {
  const found = (template.toJSON() as { Resources: Record<string, Json> }).Resources[logicalId];
  if (!found) throw new Error(`no resource ${logicalId}`);
  return found;
};

const props = (logicalId: string): Json => (resource(logicalId).Properties ?? {}) as Json;

const fnOf = (route: Pick<RouteDefinition, 'id'>): ServiceFunction => {
  const fn = stack.api.functions.get(route.id);
  if (!fn) throw new Error(`no function for route ${route.id}`);
  return fn;
};

/** What a function may hold besides table grants: its log group, X-Ray, and the extras named. */
const expectOnly = (grants: readonly Grant[], fn: ServiceFunction, tables: readonly { table: TableDefinition; access: TableAccess }[], extra: (g: Grant) => boolean): void => {
  const logGroup = logicalIdOf(fn.logGroup);
  const tableIds = new Map(tables.map(({ table, access }) => [logicalIdOf(stack.data.table(table)), { table, access }]));
  for (const grant of grants) {
    if (grant.action.startsWith('dynamodb:')) {
      const base = grant.resource.replace(/\/index\/\*$/, '');
      const bound = tableIds.get(base);
      expect(bound, `${fn.node.id}: ${grant.action} on ${grant.resource}, a table the route does not list`).toBeDefined();
      if (!bound) continue;
      if (grant.resource !== base) expect(bound.table.indexes.length, `${fn.node.id}: index grant on an index-less table`).toBeGreaterThan(0);
      if (DYNAMODB_READ_ACTIONS.has(grant.action)) continue;
      expect(DYNAMODB_WRITE_ACTIONS.has(grant.action), `${fn.node.id}: unexpected ${grant.action}`).toBe(true);
      expect(bound.access, `${fn.node.id}: ${grant.action} on ${bound.table.id}, which it may only read`).toBe('RW');
      continue;
    }
    const allowed =
      (grant.resource === logGroup && ['logs:CreateLogStream', 'logs:PutLogEvents'].includes(grant.action)) ||
      (grant.resource === '*' && ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'].includes(grant.action)) ||
      extra(grant);
    expect(allowed, `${fn.node.id}: unexpected ${grant.action} on ${grant.resource}`).toBe(true);
  }
  // And every listed table is actually usable with the listed access.
  for (const [tableId, { table, access }] of tableIds) {
    const on = (resourceName: string, action: string): boolean => grants.some((g) => g.resource === resourceName && g.action === action);
    expect(on(tableId, 'dynamodb:GetItem') && on(tableId, 'dynamodb:Query'), `${fn.node.id}: cannot read ${table.id}`).toBe(true);
    if (table.indexes.length > 0) expect(on(`${tableId}/index/*`, 'dynamodb:Query'), `${fn.node.id}: cannot query ${table.id}'s indexes`).toBe(true);
    if (access === 'RW') {
      for (const action of DYNAMODB_WRITE_ACTIONS) expect(on(tableId, action), `${fn.node.id}: missing ${action} on ${table.id}`).toBe(true);
    }
  }
};

beforeAll(() => {
  const started = performance.now();
  assemblyDir = mkdtempSync(path.join(tmpdir(), 'lakeline-cdk-'));
  const app = new App({ context: cdkContext(), outdir: assemblyDir });
  stack = new LakelineStack(app, 'Lakeline', { env: { account: '123456789012', region: 'eu-west-1' } });
  template = Template.fromStack(stack);
  // Reported, not asserted: bundling time depends on the machine (about 8 s here).
  console.log(`cdk: stack built and synthesized in ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

describe('the stack', () => {
  it('Should report no CDK errors', () => {
    expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
  });

  it('Should output the API URL, table names, blob bucket, secret, lake writer and console URL under fixed, export-free names', () => {
    const outputs = (template.toJSON() as { Outputs: Record<string, Json> }).Outputs;
    const expected = [STACK_OUTPUTS.apiUrl, STACK_OUTPUTS.blobBucketName, STACK_OUTPUTS.sessionSecretArn, STACK_OUTPUTS.lakeWriterFunctionName, STACK_OUTPUTS.consoleUrl, ...ALL_TABLES.map(tableOutputName)];
    expect(Object.keys(outputs).sort()).toEqual([...expected].sort());
    for (const output of Object.values(outputs)) expect(output.Export).toBeUndefined();
    for (const def of ALL_TABLES) expect(outputs[tableOutputName(def)]?.Value).toEqual({ Ref: logicalIdOf(stack.data.table(def)) });
    expect(outputs[STACK_OUTPUTS.blobBucketName]?.Value).toEqual({ Ref: logicalIdOf(stack.data.blobBucket) });
    expect(outputs[STACK_OUTPUTS.sessionSecretArn]?.Value).toEqual({ Ref: logicalIdOf(stack.data.sessionSecret) });
  });
});

describe('routes and the authorizer', () => {
  const authorizerId = (): string => Object.keys(template.findResources('AWS::ApiGatewayV2::Authorizer'))[0] as string;

  it('Should have exactly one authorizer: REQUEST, payload 2.0, simple responses, no cache, no identity source', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: 0,
      IdentitySource: Match.absent(),
      AuthorizerUri: Match.objectLike({
        'Fn::Join': Match.arrayWith([Match.arrayWith([{ 'Fn::GetAtt': [logicalIdOf(stack.api.authorizerFunction), 'Arn'] }])]),
      }),
    });
  });

  it('Should route every entry of ROUTES, and everything else ($default) to the 405 function, and nothing more', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => (r.Properties as Json).RouteKey);
    expect([...keys].sort()).toEqual([...ROUTES.map(routeKey), '$default'].sort());
  });

  it('Should answer methods a path does not serve from one public function that reads nothing', () => {
    const [defaultRoute] = Object.values(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: '$default' } }));
    expect((defaultRoute?.Properties as Json).AuthorizationType).toBe('NONE');
    const fn = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => id.includes('MethodNotAllowed'));
    expect(fn).toHaveLength(1);
    // Its role carries no grant to a table, bucket or secret.
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p).includes('MethodNotAllowed'));
    expect(policies.filter((p) => /dynamodb|s3:|secretsmanager/.test(JSON.stringify((p.Properties as Json).PolicyDocument)))).toEqual([]);
  });

  it.each([
    ['default', {}],
    ['polars warm tasks', { polarsFargate: { warmTasks: { 8: 1, 16: 1 } } }],
  ] as const)("Should stay under CloudFormation's 500 resources per stack with room to grow (%s)", (label, props) => {
    const { template: variant } = label === 'default' ? { template } : synthLakeline('resource-count-warm', props);
    expect(Object.keys(variant.toJSON().Resources as object).length).toBeLessThanOrEqual(490);
  });

  it.each(ROUTES.map((r) => [routeKey(r), r] as const))('Should wire %s to its own function with the right authorization', (_key, route) => {
    const [routeId, routeResource] = Object.entries(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey(route) } }))[0] ?? [];
    expect(routeId).toBeDefined();
    const routeProps = (routeResource as Json).Properties as Json;
    if (route.auth === 'none') {
      expect(routeProps.AuthorizationType).toBe('NONE');
      expect(routeProps.AuthorizerId).toBeUndefined();
    } else {
      expect(routeProps.AuthorizationType).toBe('CUSTOM');
      expect(routeProps.AuthorizerId).toEqual({ Ref: authorizerId() });
    }
    // Target is "integrations/<id>"; the integration must invoke this route's function.
    const target = JSON.stringify(routeProps.Target);
    const integrationId = /"Ref":"([A-Za-z0-9]+)"/.exec(target)?.[1] ?? '';
    expect(props(integrationId).IntegrationUri).toEqual({ 'Fn::GetAtt': [logicalIdOf(fnOf(route)), 'Arn'] });
    expect(props(integrationId).PayloadFormatVersion).toBe('2.0');
  });

  it('Should keep CORS off and throttle and access-log the auto-deployed default stage as JSON', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP', CorsConfiguration: Match.absent() });
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalIdOf(stack.api.accessLogGroup), 'Arn'] }, Format: Match.anyValue() },
    });
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0] as Json;
    const format = ((stage.Properties as Json).AccessLogSettings as Json).Format as string;
    expect(JSON.parse(format)).toMatchObject({ requestId: '$context.requestId', status: '$context.status', authorizerError: '$context.authorizer.error' });
  });
});

describe('functions', () => {
  it('Should have one function per route plus the authorizer, the 405 answer, the Spark state-change, the results-expiry, the lineage stream consumer, the alerts, the alert deliveries and the lineage tables export functions, all Node.js 22 on ARM64 with X-Ray', () => {
    // The one function that is not Node is the lake writer (Python; test/cdk/lake.test.ts).
    // The polars sandboxes are Python images too (test/cdk/polars.test.ts).
    // The console's deployment handler is aws-cdk-lib's BucketDeployment function (Python; test/cdk/console.test.ts).
    const sandboxes = [...stack.polars.functions.values()].map(logicalIdOf);
    // + the 405 answer of methods a path does not serve, the console's deployment, the alerts' consumer, the alert deliveries' consumer and the lineage tables' consumer
    template.resourceCountIs('AWS::Lambda::Function', ROUTES.length + 11 + sandboxes.length);
    const lakeWriter = logicalIdOf(stack.lake.lakeWriter);
    const consoleDeployment = logicalIdOf(stack.console.deploymentFunction);
    for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => id !== lakeWriter && id !== consoleDeployment && !sandboxes.includes(id))) {
      expect(id).not.toBe(lakeWriter);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        Environment: { Variables: { [PROFILE_ENV]: 'aws', NODE_OPTIONS: '--enable-source-maps' } },
      });
    }
  });

  it('Should ship the SQL parser\'s WebAssembly beside the bundles that contain the parser, and only there', () => {
    // The staged asset directory of a function's code, named by the hash in its S3 key.
    const bundleOf = (fn: ServiceFunction): string[] => {
      const key = Stack.of(fn).resolve((props(logicalIdOf(fn)).Code as Json).S3Key) as string;
      return readdirSync(path.join(assemblyDir, `asset.${key.replace(/\.zip$/, '')}`));
    };
    expect(bundleOf(fnOf(ROUTES.find((r) => r.id === 'PostSparkQuery') as RouteDefinition))).toContain('polyglot_sql.wasm');
    expect(bundleOf(fnOf(ROUTES.find((r) => r.id === 'PostWarehouseQuery') as RouteDefinition))).toContain('polyglot_sql.wasm');
    expect(bundleOf(stack.api.authorizerFunction)).toEqual(expect.arrayContaining(['index.mjs']));
    expect(bundleOf(stack.api.authorizerFunction)).not.toContain('polyglot_sql.wasm');
    expect(bundleOf(fnOf(ROUTES.find((r) => r.id === 'PostLineage') as RouteDefinition))).not.toContain('polyglot_sql.wasm');
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))('Should size %s from the route table and log to its own group', (_id, route) => {
    const fnProps = props(logicalIdOf(fnOf(route)));
    expect(fnProps.MemorySize).toBe(route.memoryMb ?? 512);
    expect(fnProps.Timeout).toBe(route.timeoutSeconds ?? 29);
    expect(fnProps.LoggingConfig).toEqual({ LogGroup: { Ref: logicalIdOf(fnOf(route).logGroup) } });
    expect(fnProps.Role).toEqual({ 'Fn::GetAtt': [logicalIdOf(fnOf(route).executionRole), 'Arn'] });
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))('Should give %s the env vars of exactly its tables (and the blob bucket when it uses blobs)', (_id, route) => {
    const env = ((props(logicalIdOf(fnOf(route))).Environment as Json).Variables ?? {}) as Json;
    for (const def of ALL_TABLES) {
      const listed = route.tables.some((t) => t.table.id === def.id);
      expect(env[def.envName], `${route.id} ${def.envName}`).toEqual(listed ? { Ref: logicalIdOf(stack.data.table(def)) } : undefined);
    }
    expect(env[BLOB_BUCKET_ENV]).toEqual(route.blobs ? { Ref: logicalIdOf(stack.data.blobBucket) } : undefined);
    expect(env[SESSION_SECRET_ARN_ENV]).toBeUndefined();
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))("Should give %s the API's own endpoint exactly when it calls the API (the MCP server, ADR 0048)", (_id, route) => {
    const env = ((props(logicalIdOf(fnOf(route))).Environment as Json).Variables ?? {}) as Json;
    const endpoint = { 'Fn::GetAtt': [logicalIdOf(stack.api.httpApi), 'ApiEndpoint'] };
    expect(env[API_URL_ENV]).toEqual(route.callsApi ? endpoint : undefined);
  });
});

describe('IAM least privilege', () => {
  const blobObjects = (): string => `${logicalIdOf(stack.data.blobBucket)}/*`;

  /** Spark access (EMR, the execution role, the lake's bucket and Glue) of routes marked `spark`; test/cdk/spark.test.ts asserts it in detail. */
  const sparkGrant = (route: RouteDefinition, g: Grant): boolean =>
    route.spark !== undefined &&
    (g.action.startsWith('emr-serverless:') ||
      (g.action === 'iam:PassRole' && g.resource === logicalIdOf(stack.spark.executionRole)) ||
      g.action.startsWith('glue:Get') ||
      (g.action.startsWith('s3:') && g.resource.startsWith(`${logicalIdOf(stack.warehouse.bucket)}/`)));

  /** Lake access of routes marked `lake`: Glue reads and warehouse files, and the lake writer for `write`; test/cdk/lake.test.ts asserts it in detail. */
  const lakeGrant = (route: RouteDefinition, g: Grant): boolean =>
    route.lake !== undefined &&
    (g.action.startsWith('glue:Get') ||
      (g.action === 's3:GetObject' && g.resource.startsWith(`${logicalIdOf(stack.warehouse.bucket)}/`)) ||
      (route.lake === 'write' && g.action === 'lambda:InvokeFunction' && g.resource === logicalIdOf(stack.lake.lakeWriter)));

  /** Bloom access (Athena, the results databases and files) of routes marked `bloom`; test/cdk/bloom.test.ts asserts it in detail. */
  const bloomGrant = (route: RouteDefinition, g: Grant): boolean =>
    route.bloom === true &&
    (g.action.startsWith('athena:') || g.action.startsWith('glue:') || (g.action.startsWith('s3:') && g.resource.startsWith(logicalIdOf(stack.warehouse.bucket))));

  /** Sending to the alert deliveries' queue, of routes marked `queuesDeliveries`; test/cdk/notifications.test.ts asserts it in detail. */
  const deliveriesGrant = (route: RouteDefinition, g: Grant): boolean =>
    route.queuesDeliveries === true && g.action.startsWith('sqs:') && g.resource === logicalIdOf(stack.notifications.queue);

  it.each(ROUTES.map((r) => [r.id, r] as const))('Should let %s touch only its listed tables, write only where RW, and blobs only if listed', (_id, route) => {
    const fn = fnOf(route);
    const grants = grantsOfRole(template, logicalIdOf(fn.executionRole));
    // The polars route invokes the polars sandboxes and assumes their data role (test/cdk/polars.test.ts asserts which).
    const polarsGrant = (g: Grant): boolean =>
      route.polars === true &&
      ((g.action === 'lambda:InvokeFunction' && [...stack.polars.functions.values()].map(logicalIdOf).includes(g.resource)) ||
        (g.action === 'sts:AssumeRole' && g.resource === logicalIdOf(stack.polars.dataRole)));
    expectOnly(grants, fn, route.tables, (g) => polarsGrant(g) || deliveriesGrant(route, g) || sparkGrant(route, g) || lakeGrant(route, g) || bloomGrant(route, g) || (route.blobs !== undefined && g.resource === blobObjects() && (g.action === 's3:GetObject' || (route.blobs === 'RW' && g.action === 's3:PutObject'))));
    const s3 = grants.filter((g) => g.action.startsWith('s3:') && g.resource.startsWith(logicalIdOf(stack.data.blobBucket))).map((g) => g.action);
    expect(s3.sort()).toEqual(route.blobs === 'RW' ? ['s3:GetObject', 's3:PutObject'] : route.blobs === 'RO' ? ['s3:GetObject'] : []);
  });

  it('Should let the authorizer write API keys, read orgs and read the session secret, and nothing else', () => {
    const fn = stack.api.authorizerFunction;
    const grants = grantsOfRole(template, logicalIdOf(fn.executionRole));
    const secret = logicalIdOf(stack.data.sessionSecret);
    expectOnly(
      grants,
      fn,
      [
        { table: KEYS_TABLE, access: 'RW' },
        { table: ORGS_TABLE, access: 'RO' },
      ],
      (g) => g.resource === secret && ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'].includes(g.action),
    );
    expect(grants.some((g) => g.resource === secret && g.action === 'secretsmanager:GetSecretValue')).toBe(true);
    const env = ((props(logicalIdOf(fn)).Environment as Json).Variables ?? {}) as Json;
    expect(env).toMatchObject({ [KEYS_TABLE.envName]: { Ref: logicalIdOf(stack.data.table(KEYS_TABLE)) }, [ORGS_TABLE.envName]: { Ref: logicalIdOf(stack.data.table(ORGS_TABLE)) }, [SESSION_SECRET_ARN_ENV]: { Ref: secret } });
  });

  it('Should grant the blob bucket to no role but those of routes with blobs and the feed subscribers (which read large events)', () => {
    const withBlobs = new Set([
      ...ROUTES.filter((r) => r.blobs).map((r) => logicalIdOf(fnOf(r).executionRole)),
      logicalIdOf(stack.lineageGraph.consumer.executionRole),
      logicalIdOf(stack.alerts.consumer.executionRole),
      logicalIdOf(stack.lineageTables.consumer.executionRole),
    ]);
    for (const roleId of Object.keys(template.findResources('AWS::IAM::Role'))) {
      const touches = grantsOfRole(template, roleId).some((g) => g.resource.startsWith(logicalIdOf(stack.data.blobBucket)));
      expect(touches, roleId).toBe(withBlobs.has(roleId));
    }
  });
});

describe('tables', () => {
  it('Should create exactly the tables of ALL_TABLES', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', ALL_TABLES.length);
  });

  it.each(ALL_TABLES.map((t) => [t.id, t] as const))('Should build %s from its definition', (_id, def) => {
    const id = logicalIdOf(stack.data.table(def));
    const keySchema = (pk: { name: string }, sk?: { name: string }) => [{ AttributeName: pk.name, KeyType: 'HASH' }, ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' }] : [])];
    const table = props(id);
    expect(table.KeySchema).toEqual(keySchema(def.partitionKey, def.sortKey));
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.SSESpecification).toEqual({ SSEEnabled: true });
    expect(table.DeletionProtectionEnabled).toBe(true);
    expect(resource(id).DeletionPolicy).toBe('Retain');
    expect(table.TimeToLiveSpecification).toEqual(def.ttlAttribute ? { AttributeName: def.ttlAttribute, Enabled: true } : undefined);

    const keyAttributes = [def.partitionKey, def.sortKey, ...def.indexes.flatMap((i) => [i.partitionKey, i.sortKey])].filter((k) => k !== undefined);
    const expectedAttributes = [...new Map(keyAttributes.map((k) => [k.name, { AttributeName: k.name, AttributeType: k.type }])).values()];
    expect(table.AttributeDefinitions).toEqual(expect.arrayContaining(expectedAttributes));
    expect((table.AttributeDefinitions as unknown[]).length).toBe(expectedAttributes.length);

    const gsis = (table.GlobalSecondaryIndexes ?? []) as Json[];
    expect(gsis.map((g) => g.IndexName)).toEqual(def.indexes.map((i) => i.indexName));
    for (const index of def.indexes) {
      const gsi = gsis.find((g) => g.IndexName === index.indexName) as Json;
      expect(gsi.KeySchema).toEqual(keySchema(index.partitionKey, index.sortKey));
      expect(gsi.Projection).toEqual(
        typeof index.projection === 'string' ? { ProjectionType: index.projection } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] },
      );
    }
  });
});

describe('blob bucket and secret', () => {
  it('Should encrypt, version, lock down and access-log the blob bucket', () => {
    const bucket = props(logicalIdOf(stack.data.blobBucket));
    expect(bucket).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(stack.data.accessLogBucket) } },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect(resource(logicalIdOf(stack.data.blobBucket)).DeletionPolicy).toBe('Retain');
    for (const bucketConstruct of [stack.data.blobBucket, stack.data.accessLogBucket]) {
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: logicalIdOf(bucketConstruct) },
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });
    }
    // Log delivery by bucket policy scoped to the blob bucket, not by ACL.
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalIdOf(stack.data.accessLogBucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'logging.s3.amazonaws.com' },
            Action: 's3:PutObject',
            Condition: Match.objectLike({ ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [logicalIdOf(stack.data.blobBucket), 'Arn'] } } }),
          }),
        ]),
      },
    });
    expect(props(logicalIdOf(stack.data.accessLogBucket)).AccessControl).toBeUndefined();
  });

  it('Should generate the session secret and deploy no rotation Lambda', () => {
    expect(props(logicalIdOf(stack.data.sessionSecret)).GenerateSecretString).toMatchObject({ PasswordLength: 64 });
    template.resourceCountIs('AWS::SecretsManager::RotationSchedule', 0);
  });
});

describe('cdk-nag', () => {
  /** Acknowledgements recorded on the stack's constructs, with where they sit. */
  const acknowledgements = (): { path: string; id: string; reason: string }[] =>
    stack.node.findAll().flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({ path: c.node.path, id: id.replace(/^annotation::/i, ''), reason }))),
    );

  it('Should leave no AwsSolutions error or warning unacknowledged', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);
    expect(report.violations.map((v) => `${v.severity} ${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}: ${v.description}`)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('Should give every acknowledgement a reason', () => {
    const all = acknowledgements();
    expect(all.length).toBeGreaterThan(0);
    for (const { path: where, id, reason } of all) expect(reason.trim().length, `${id} at ${where}`).toBeGreaterThanOrEqual(MIN_REASON_LENGTH);
  });

  it('Should acknowledge only findings that exist (no stale acknowledgements)', () => {
    // Run the pack again with acknowledgements ignored, to see every raw finding.
    const raw = new AwsSolutionsChecks(undefined, { verbose: false });
    Object.defineProperty(raw, 'isAcknowledged', { value: () => false });
    const findings = raw.validateScope(stack).violations.flatMap((v) => v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '' })));
    for (const { path: where, id } of acknowledgements()) {
      // CDK itself acknowledges cfn-lint's W3010 on a stack whose VPC reads its availability zones.
      if (id.startsWith('CloudFormation-Validate::')) continue;
      const covered = findings.some((f) => f.rule === id && (f.path === where || f.path.startsWith(`${where}/`)));
      expect(covered, `${id} acknowledged at ${where} matches no finding`).toBe(true);
    }
  });
});
