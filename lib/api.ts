/**
 * @module api
 * `LakelineApi`: the HTTP API. One ServiceFunction per route of ROUTES (bound to exactly the route's
 * tables and blob access), and one REQUEST Lambda authorizer attached to every route that is not
 * public. The authorizer has no identity source and no gateway cache: see docs/adr/0005-authorizer-always-authorizes.md,
 * "Authorizer", for why the gateway must always invoke it.
 */
import { CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_URL_ENV } from '#composition/env-names';
import { MARQUEZ_LEGACY_PATHS, ROUTES, routeKey, type RouteDefinition } from '#shared/routes';
import { KEYS_TABLE, ORGS_TABLE } from '#shared/table-definitions';
import type { LakelineData } from './data.ts';
import { acknowledge } from './nag.ts';
import { ServiceFunction } from './service-function.ts';
import { STACK_OUTPUTS } from './stack-outputs.ts';

/** Defaults of a route's function (routes.ts documents the same values). */
const DEFAULT_MEMORY_MB = 512;
const DEFAULT_TIMEOUT_SECONDS = 29;
/** HTTP APIs cut every integration at 30 s, so a longer function timeout would only hide failures. */
const MAX_ROUTE_TIMEOUT_SECONDS = 30;

/** Construct ids used inside LakelineApi, which route ids may not take. */
const RESERVED_IDS = new Set(['HttpApi', 'DefaultStage', 'AccessLogs', 'Authorizer', 'LambdaAuthorizer', 'MethodNotAllowed']);

/**
 * One JSON object per request. `authorizerError` shows why the gateway could not use the authorizer
 * (the troubleshooting step the API Gateway guide recommends); the authorizer's own decisions are
 * in its log group.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    httpMethod: '$context.httpMethod',
    routeKey: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    authorizerError: '$context.authorizer.error',
    authorizerLatency: '$context.authorizer.latency',
    userAgent: '$context.identity.userAgent',
  }),
);

/** Properties of {@link LakelineApi}. */
export interface LakelineApiProps {
  /** Tables, blob bucket and session secret the functions are bound to. */
  readonly data: LakelineData;
  /** The routes to serve. @default ROUTES */
  readonly routes?: readonly RouteDefinition[];
  /** Steady-state request rate limit of the default stage (requests per second). @default 100 */
  readonly throttleRateLimit?: number;
  /** Burst limit of the default stage (requests). @default 200 */
  readonly throttleBurstLimit?: number;
  /** Retention of the access log and of every function's log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** What happens to the access log group when the stack is deleted. @default RemovalPolicy.RETAIN */
  readonly accessLogRemovalPolicy?: RemovalPolicy;
}

/** Rejects a route table the gateway or Lambda would reject. */
const validateRoutes = (path: string, routes: readonly RouteDefinition[]): void => {
  if (routes.length === 0) throw new Error(`${path}: no routes`);
  const ids = new Set<string>();
  const keys = new Set<string>();
  for (const route of routes) {
    const where = `${path}: route ${route.id}`;
    if (!/^[A-Z][A-Za-z0-9]*$/.test(route.id)) throw new Error(`${where}: id must be PascalCase alphanumeric`);
    if (RESERVED_IDS.has(route.id)) throw new Error(`${where}: id is reserved`);
    if (ids.has(route.id)) throw new Error(`${where}: id is used twice`);
    ids.add(route.id);
    if (!route.path.startsWith('/')) throw new Error(`${where}: path must start with /`);
    const key = routeKey(route);
    if (keys.has(key)) throw new Error(`${where}: ${key} is routed twice`);
    keys.add(key);
    const timeout = route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    if (!Number.isInteger(timeout) || timeout < 1 || timeout > MAX_ROUTE_TIMEOUT_SECONDS) {
      throw new Error(`${where}: timeout must be 1..${MAX_ROUTE_TIMEOUT_SECONDS} s (the HTTP API integration limit), got ${timeout}`);
    }
    const tableIds = route.tables.map((t) => t.table.id);
    if (new Set(tableIds).size !== tableIds.length) throw new Error(`${where}: a table is listed twice`);
  }
};

/** The HTTP API with its authorizer, one function per route and access logging. */
export class LakelineApi extends Construct {
  public readonly httpApi: apigwv2.HttpApi;
  /** The `$default` stage (auto-deployed, throttled, access-logged). */
  public readonly stage: apigwv2.HttpStage;
  /** The authorizer's function. */
  public readonly authorizerFunction: ServiceFunction;
  /** The REQUEST authorizer attached to every non-public route. */
  public readonly authorizer: HttpLambdaAuthorizer;
  /** Each route's function, by route id. */
  public readonly functions: ReadonlyMap<string, ServiceFunction>;
  /** Each route, by route id. */
  public readonly routes: ReadonlyMap<string, apigwv2.HttpRoute>;
  /** The access log. */
  public readonly accessLogGroup: logs.LogGroup;
  /** Base URL of the API, ending in `/`. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: LakelineApiProps) {
    super(scope, id);
    const routeTable = props.routes ?? ROUTES;
    validateRoutes(this.node.path, routeTable);
    const rateLimit = props.throttleRateLimit ?? 100;
    const burstLimit = props.throttleBurstLimit ?? 200;
    if (!(rateLimit > 0) || !Number.isInteger(burstLimit) || burstLimit < 1) {
      throw new Error(`${this.node.path}: throttle limits must be positive (rate ${rateLimit}, burst ${burstLimit})`);
    }
    const { data } = props;
    const logRetention = props.logRetention ?? logs.RetentionDays.ONE_MONTH;

    // CORS stays off: callers are OpenLineage producers, the CLI and scripts holding API keys, none
    // of which sends preflights; the session cookie is for same-origin use. A browser client on
    // another origin would be configured here or in middleware, never both.
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'lakeline: OpenLineage ingestion and lake queries',
      createDefaultStage: false,
    });

    this.accessLogGroup = new logs.LogGroup(this, 'AccessLogs', {
      retention: logRetention,
      removalPolicy: props.accessLogRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit, burstLimit },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogGroup),
        format: ACCESS_LOG_FORMAT,
      },
    });
    this.url = this.stage.url;

    this.authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      handlerModule: 'authorizer',
      // The gateway gives up on an authorizer after 10 s; a slower answer is a 500 anyway.
      timeout: Duration.seconds(10),
      logRetention,
    });
    this.authorizerFunction
      .bindTable(data.table(KEYS_TABLE), 'RW') // records each key's last use
      .bindTable(data.table(ORGS_TABLE), 'RO')
      .bindSecret(data.sessionSecret);

    this.authorizer = new HttpLambdaAuthorizer('LambdaAuthorizer', this.authorizerFunction, {
      authorizerName: 'lakeline-authorizer',
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      // No identity source: with one, a request lacking it gets the gateway's own
      // {"message":"Unauthorized"} without the authorizer running, and "bearer header OR session
      // cookie" cannot be expressed (every configured source is required). Gateway caching needs
      // an identity source, so it is off; the authorizer caches verified keys per container.
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    const functions = new Map<string, ServiceFunction>();
    const routes = new Map<string, apigwv2.HttpRoute>();
    for (const route of routeTable) {
      const fn = new ServiceFunction(this, route.id, {
        handlerModule: route.handler,
        memorySize: route.memoryMb ?? DEFAULT_MEMORY_MB,
        timeout: Duration.seconds(route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
        logRetention,
      });
      for (const { table, access } of route.tables) fn.bindTable(data.table(table), access);
      if (route.blobs) fn.bindBucket(data.blobBucket, route.blobs);
      // The API's own endpoint (no cycle: the API resource does not depend on its routes' functions).
      if (route.callsApi) fn.addEnvironment(API_URL_ENV, this.httpApi.apiEndpoint);

      const httpRoute = new apigwv2.HttpRoute(this, `${route.id}Route`, {
        httpApi: this.httpApi,
        routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn),
        authorizer: route.auth === 'none' ? new apigwv2.HttpNoneAuthorizer() : this.authorizer,
      });
      if (route.auth === 'none') {
        acknowledge(httpRoute, 'AwsSolutions-APIG4', `${routeKey(route)} is public by design (the route table marks it auth: none): it serves only the static API description.`);
      }
      functions.set(route.id, fn);
      routes.set(route.id, httpRoute);
    }
    // Every path also answers the methods it does not serve with 405 and `Allow` (HTTP's answer),
    // rather than the gateway's bare 404: an `ANY` route per path, to one small public function.
    const methodNotAllowed = new ServiceFunction(this, 'MethodNotAllowed', { handlerModule: 'method-not-allowed', memorySize: 128, timeout: Duration.seconds(3), logRetention });
    // Marquez's pre-OpenLineage write paths answer the same way (501, pointing to OpenLineage).
    // One integration and one API-wide invoke permission serve every such route: per path they cost
    // two CloudFormation resources each, and the stack must stay within CloudFormation's 500.
    const notAllowed = new HttpLambdaIntegration('AnyPathIntegration', methodNotAllowed, { scopePermissionToRoute: false });
    for (const path of [...new Set([...routeTable.map((r) => r.path), ...MARQUEZ_LEGACY_PATHS])]) {
      const anyRoute = new apigwv2.HttpRoute(this, `Any${path.replace(/[^A-Za-z0-9]/g, '_')}Route`, {
        httpApi: this.httpApi,
        routeKey: apigwv2.HttpRouteKey.with(path, apigwv2.HttpMethod.ANY),
        integration: notAllowed,
        authorizer: new apigwv2.HttpNoneAuthorizer(),
      });
      acknowledge(anyRoute, 'AwsSolutions-APIG4', `ANY ${path} only answers 405 with the methods the path serves (its own routes carry the authorizer); it reads nothing.`);
    }
    this.functions = functions;
    this.routes = routes;

    // HttpLambdaAuthorizer renders an empty list for `identitySource: []`; leave the property out
    // instead, the form the API reference documents as "no identity source" for REQUEST authorizers.
    const cfnAuthorizer = this.httpApi.node.tryFindChild('LambdaAuthorizer')?.node.defaultChild;
    if (cfnAuthorizer instanceof apigwv2.CfnAuthorizer) cfnAuthorizer.identitySource = undefined;

    new CfnOutput(this, STACK_OUTPUTS.apiUrl, { value: this.url, description: 'Base URL of the lakeline API' }).overrideLogicalId(STACK_OUTPUTS.apiUrl);
  }
}
