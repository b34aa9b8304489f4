/**
 * @module aws-profile
 * The AWS profile's handlers run in this test process as Lambda would run them, against the
 * emulated account: the environment the CDK app gives the functions (table names, warehouse,
 * session secret ARN, …) plus the emulator's endpoint and credentials through the SDKs' standard
 * variables, an org and API key in the emulator's DynamoDB, and the authorizer Lambda in front.
 * The composition roots read `process.env` once, so a suite applies the environment before it
 * imports any handler.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyStructuredResultV2, APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import type { AuthorizerContext } from '#domain/auth/principal';
import type { CreateOrgInput } from '#domain/orgs/manage';
import { localTableName } from '#composition/config';
import { BLOB_BUCKET_ENV, DUCKDB_EXTENSION_DIR_ENV, LAKE_WRITER_FUNCTION_ENV, LOG_LEVEL_ENV, SESSION_SECRET_ARN_ENV } from '#composition/env-names';
import type { ApiEvent } from '#shared/middleware';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { ALL_TABLES } from '#shared/table-definitions';
import { apiEvent, authorizerEvent, lambdaContext, parseResult, type ParsedResult } from '../helpers/events.ts';
import { orgWithKey, storesOn } from '../helpers/stores.ts';
import { openDynamoBackend } from '../adapters/dynamo-backends.ts';
import { LAKE_WRITER_FUNCTION, type EmulatedLake } from './emulated-lake.ts';
import { awsClientConfig, REPO_ROOT, type AwsEmulatorInfo } from './emulator.ts';

/** What a request carries. */
export interface CallParts {
  readonly body?: unknown;
  readonly queryStringParameters?: Record<string, string>;
  /** Values of the route's `{placeholders}`. */
  readonly pathParameters?: Record<string, string>;
}

/** An org of the AWS profile and a caller holding one of its keys. */
export interface AwsOrgCaller {
  readonly orgId: string;
  /** An API key of the org, as `Authorization: Bearer …` carries it. */
  readonly token: string;
  /** Calls a route's handler through the authorizer Lambda, as API Gateway would. */
  call(routeId: string, parts?: CallParts): Promise<ParsedResult>;
}

/** What a suite needs to call the AWS profile's handlers. */
export interface AwsProfile extends AwsOrgCaller {
  /** The functions' environment (already applied to `process.env`). */
  readonly environment: Readonly<Record<string, string>>;
  /** Another org (`pro`, payment method on, unless `org` says otherwise) with a key of its own. */
  newOrg(org?: Partial<CreateOrgInput>): Promise<AwsOrgCaller>;
}

type Handler = (event: ApiEvent, context: ReturnType<typeof lambdaContext>) => Promise<APIGatewayProxyStructuredResultV2>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEventV2) => Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>>;

/** The module of a route's handler (`functions/handlers/<handler>.ts`, as the CDK app bundles it). */
const handlerOf = async (route: RouteDefinition): Promise<Handler> => ((await import(`../../functions/handlers/${route.handler}.ts`)) as { handler: Handler }).handler;

/**
 * Sets up the AWS profile in this process over an emulated lake: the session secret in Secrets
 * Manager, an org (`pro`, payment method on, unless `org` says otherwise) with a key in DynamoDB,
 * and `process.env` as the CDK app sets it for a function granted everything.
 */
export const useAwsProfile = async (aws: AwsEmulatorInfo, lake: EmulatedLake, extra: Record<string, string> = {}, org: Partial<CreateOrgInput> = {}): Promise<AwsProfile> => {
  const secrets = new SecretsManagerClient(awsClientConfig(aws));
  const secret = await secrets.send(new CreateSecretCommand({ Name: `lakeline-session-${randomBytes(4).toString('hex')}`, SecretString: randomBytes(32).toString('hex') }));
  secrets.destroy();
  const environment: Record<string, string> = {
    ...lake.environment,
    ...Object.fromEntries(ALL_TABLES.map((t) => [t.envName, localTableName(t)])),
    [SESSION_SECRET_ARN_ENV]: secret.ARN as string,
    [BLOB_BUCKET_ENV]: lake.bucket,
    // The DuckDB layer's extension files, as the local set-up installs them for this machine.
    [DUCKDB_EXTENSION_DIR_ENV]: path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions'),
    // Lambda's Invoke is served by the lake's stand-in (the emulator runs Lambda only in Docker),
    // reached through the SDK's per-service endpoint variable, as any other endpoint is.
    AWS_ENDPOINT_URL_LAMBDA: lake.lambda.endpoint,
    [LAKE_WRITER_FUNCTION_ENV]: LAKE_WRITER_FUNCTION,
    [LOG_LEVEL_ENV]: 'warn',
    ...extra,
  };
  Object.assign(process.env, environment);
  const authorize = ((await import('#handlers/authorizer')) as { handler: AuthorizerHandler }).handler;
  const callerOf = (orgId: string, token: string): AwsOrgCaller => ({
    orgId,
    token,
    call: async (routeId, parts = {}) => {
      const route = ROUTES.find((r) => r.id === routeId);
      if (!route) throw new Error(`no route ${routeId}`);
      const decision = await authorize(authorizerEvent(route, { headers: { authorization: `Bearer ${token}` } }));
      const event = apiEvent(route, {
        ...(parts.body === undefined ? {} : { body: JSON.stringify(parts.body) }),
        ...(parts.queryStringParameters ? { queryStringParameters: parts.queryStringParameters } : {}),
        authorizer: decision.context as unknown as Record<string, string>,
      });
      const withPath = parts.pathParameters
        ? { ...event, pathParameters: parts.pathParameters, rawPath: route.path.replace(/\{(\w+)\}/g, (_m, name: string) => parts.pathParameters?.[name] ?? '') }
        : event;
      return parseResult(await (await handlerOf(route))(withPath, lambdaContext()));
    },
  });
  const newOrg = async (changes: Partial<CreateOrgInput> = {}): Promise<AwsOrgCaller> => {
    const stores = storesOn(openDynamoBackend('moto'));
    try {
      const created = await orgWithKey(stores, { name: 'AWS profile org', plan: 'pro', paymentMethod: true, ...changes });
      return callerOf(created.org.orgId, created.token);
    } finally {
      stores.close();
    }
  };
  return { environment, newOrg, ...(await newOrg(org)) };
};
