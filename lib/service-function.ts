/**
 * @module service-function
 * `ServiceFunction`: a NodejsFunction with the house defaults (Node.js 22 on ARM64, bundled ESM with
 * source maps, X-Ray, its own log group and a role holding only what it is bound to) and the
 * `bind*` methods that set a resource's env var and grant exactly the access asked for.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { BLOB_BUCKET_ENV, PROFILE_ENV, SESSION_SECRET_ARN_ENV } from '#composition/env-names';
import type { TableAccess } from '#shared/table-definitions';
import type { IDefinedTable } from './data.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';

/** The repository root: it holds `package.json` (whose `imports` aliases esbuild resolves) and `functions/`. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where handler modules live, relative to the project root. */
const HANDLERS_DIR = path.join('functions', 'handlers');

/** Lambda's limits on memory (MB) and timeout (s). */
const MEMORY_RANGE = { min: 128, max: 10_240 } as const;
const MAX_TIMEOUT_SECONDS = 900;

/** Environment variables the construct owns; callers may not override them. */
const RESERVED_ENV = new Set([PROFILE_ENV, 'NODE_OPTIONS']);

/**
 * esbuild turns `require()` calls inside bundled CommonJS dependencies into a shim that throws in an
 * ES module; defining `require` up front keeps those dependencies working.
 */
/** The DuckDB Node package, shipped by the DuckDB layer rather than bundled. */
export const DUCKDB_MODULE = '@duckdb/node-api';

/** The SQL parser's WebAssembly module, relative to the project root. */
const POLYGLOT_WASM = 'node_modules/@polyglot-sql/sdk/dist/polyglot_sql.wasm';

const ESM_REQUIRE_BANNER = "import { createRequire as __lakelineCreateRequire } from 'node:module'; const require = __lakelineCreateRequire(import.meta.url);";

/** Properties of a {@link ServiceFunction}. */
export interface ServiceFunctionProps {
  /** Module under `functions/handlers/` (kebab-case, no extension) that exports `handler`. */
  readonly handlerModule: string;
  /** Memory in MB. @default 512 */
  readonly memorySize?: number;
  /** Timeout. @default Duration.seconds(29) — API Gateway's own integration limit */
  readonly timeout?: Duration;
  /** Retention of the function's log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** What happens to the log group when the stack is deleted. @default RemovalPolicy.DESTROY */
  readonly logRemovalPolicy?: RemovalPolicy;
  /** Extra environment variables (may not set `LAKELINE_PROFILE` or `NODE_OPTIONS`). @default - none */
  readonly environment?: Readonly<Record<string, string>>;
  /** Further modules left out of the bundle because a layer ships them. @default [] (bundle everything but DuckDB, AWS SDK included) */
  readonly externalModules?: readonly string[];
  /** Layers attached to the function (the ones shipping `externalModules`). @default - none */
  readonly layers?: readonly lambda.ILayerVersion[];
  /** Function description. @default - names the handler module */
  readonly description?: string;
  /** Directory holding `package.json`, its lock file and `functions/`. @default the repository root */
  readonly projectRoot?: string;
}

/** Resolved, validated construction inputs shared by the constructor's helper and the class. */
interface Prepared {
  readonly functionProps: NodejsFunctionProps;
  readonly role: iam.Role;
}

/** Checks props and creates the role and log group that must exist before `super()`. */
const prepare = (scope: Construct, id: string, props: ServiceFunctionProps): Prepared => {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(props.handlerModule)) {
    throw new Error(`ServiceFunction ${id}: handlerModule must be a kebab-case module name, got "${props.handlerModule}"`);
  }
  const projectRoot = props.projectRoot ?? REPO_ROOT;
  const entry = path.join(projectRoot, HANDLERS_DIR, `${props.handlerModule}.ts`);
  if (!existsSync(entry)) throw new Error(`ServiceFunction ${id}: handler module ${entry} does not exist`);
  const lockFile = path.join(projectRoot, 'package-lock.json');
  if (!existsSync(lockFile)) throw new Error(`ServiceFunction ${id}: ${lockFile} does not exist`);
  const memorySize = props.memorySize ?? 512;
  if (!Number.isInteger(memorySize) || memorySize < MEMORY_RANGE.min || memorySize > MEMORY_RANGE.max) {
    throw new Error(`ServiceFunction ${id}: memorySize must be an integer in ${MEMORY_RANGE.min}..${MEMORY_RANGE.max} MB, got ${memorySize}`);
  }
  const timeout = props.timeout ?? Duration.seconds(29);
  if (!timeout.isUnresolved() && (timeout.toSeconds() < 1 || timeout.toSeconds() > MAX_TIMEOUT_SECONDS)) {
    throw new Error(`ServiceFunction ${id}: timeout must be 1..${MAX_TIMEOUT_SECONDS} s, got ${timeout.toSeconds()} s`);
  }
  for (const name of Object.keys(props.environment ?? {})) {
    if (RESERVED_ENV.has(name)) throw new Error(`ServiceFunction ${id}: environment variable ${name} is set by the construct`);
  }

  // Own log group, so retention is set without the LogRetention custom-resource Lambda.
  const logGroup = new logs.LogGroup(scope, `${id}LogGroup`, {
    retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
    removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.DESTROY,
  });
  // Own role instead of the default one: the default attaches AWSLambdaBasicExecutionRole, which
  // allows logs:CreateLogGroup/PutLogEvents on every log group of the account. This role may write
  // to its own log group only; everything else arrives through grants.
  const role = new iam.Role(scope, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Execution role of the ${props.handlerModule} function`,
  });
  logGroup.grantWrite(role);

  const functionProps: NodejsFunctionProps = {
    entry,
    handler: 'handler',
    projectRoot,
    depsLockFilePath: lockFile,
    runtime: lambda.Runtime.NODEJS_22_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize,
    timeout,
    tracing: lambda.Tracing.ACTIVE,
    logGroup,
    role,
    description: props.description ?? `lakeline ${props.handlerModule}`,
    ...(props.layers ? { layers: [...props.layers] } : {}),
    environment: {
      ...props.environment,
      [PROFILE_ENV]: 'aws',
      NODE_OPTIONS: '--enable-source-maps',
    },
    bundling: {
      // ESM: the package is `"type": "module"`, handlers may use top-level await for their
      // once-per-cold-start composition, and `import.meta.url` keeps working once bundled.
      format: OutputFormat.ESM,
      target: 'node22',
      platform: 'node',
      minify: true,
      sourceMap: true,
      sourceMapMode: SourceMapMode.DEFAULT,
      // Stack traces need the mappings, not the sources; leaving them out halves the asset.
      sourcesContent: false,
      mainFields: ['module', 'main'],
      banner: ESM_REQUIRE_BANNER,
      // Bundle everything, the AWS SDK included, so the code runs against the SDK versions it was
      // tested with; only modules a layer ships stay out (STYLE.md, rule 7).
      // DuckDB is native code esbuild cannot bundle, and it is only ever loaded by a dynamic import
      // (adapters/duckdb/driver.ts): the functions that run it get it from the DuckDB layer
      // (lib/lake.ts); the others never execute that import.
      externalModules: [DUCKDB_MODULE, ...(props.externalModules ?? [])],
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        // The SQL firewall's parser is WebAssembly that its module loads from beside itself
        // (`new URL('./polyglot_sql.wasm', import.meta.url)`); once bundled, that is beside
        // index.mjs. Only bundles that contain the parser get the 22 MB file.
        afterBundling: (inputDir: string, outputDir: string) => [
          `if grep -q polyglot_sql.wasm "${outputDir}/index.mjs"; then cp "${inputDir}/${POLYGLOT_WASM}" "${outputDir}/polyglot_sql.wasm"; fi`,
        ],
      },
    },
  };
  return { functionProps, role };
};

/**
 * A Lambda function for one lakeline handler, with the house defaults.
 *
 * @example
 * const fn = new ServiceFunction(this, 'GetRun', { handlerModule: 'get-run' });
 * fn.bindTable(data.table(RUNS_TABLE), 'RO');
 */
export class ServiceFunction extends NodejsFunction {
  /** The execution role (holds only the log-group, X-Ray and bound grants). */
  public readonly executionRole: iam.Role;
  /** The handler module this function runs. */
  public readonly handlerModule: string;
  /** Environment variables set by `bind*`, so one name cannot be bound twice. */
  private readonly boundEnv = new Set<string>();

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const prepared = prepare(scope, id, props);
    super(scope, id, prepared.functionProps);
    this.executionRole = prepared.role;
    this.handlerModule = props.handlerModule;

    acknowledge(this, 'AwsSolutions-L1', 'The design card (ARCHITECTURE.md §1) pins Lambda to Node.js 22; moving to a newer runtime is a deliberate upgrade, not a default.');
    acknowledge(this.executionRole, 'AwsSolutions-IAM5[Resource::*]', 'Only the X-Ray actions xray:PutTraceSegments and xray:PutTelemetryRecords use "*": X-Ray does not support resource-level permissions.');
  }

  /**
   * Gives the function a table: sets the table's env var (its `envName` from table-definitions) to
   * the deployed name and grants read (`RO`, indexes included) or read/write (`RW`) on it.
   */
  public bindTable(table: IDefinedTable, access: TableAccess): this {
    this.claimEnv(table.definition.envName);
    this.addEnvironment(table.definition.envName, table.tableName);
    if (access === 'RO') table.grantReadData(this);
    else if (access === 'RW') table.grantReadWriteData(this);
    else throw new Error(`${this.node.path}: unknown table access ${String(access)}`);
    if (table.definition.indexes.length > 0) {
      acknowledgeWildcardResource(
        this.executionRole,
        `${table.tableArn}/index/*`,
        `Querying the ${table.definition.id} table's GSIs needs table/<name>/index/*; the wildcard covers only that table's own indexes.`,
      );
    }
    return this;
  }

  /**
   * Gives the function a bucket: sets `envName` to the bucket name and grants `s3:GetObject` (`RO`)
   * or `s3:GetObject` + `s3:PutObject` (`RW`) on its objects. Nothing lists or deletes: keys are
   * derived from ids, and an object is written once.
   */
  public bindBucket(bucket: IBucket, access: TableAccess, envName: string = BLOB_BUCKET_ENV): this {
    this.claimEnv(envName);
    this.addEnvironment(envName, bucket.bucketName);
    const actions = access === 'RW' ? ['s3:GetObject', 's3:PutObject'] : access === 'RO' ? ['s3:GetObject'] : undefined;
    if (!actions) throw new Error(`${this.node.path}: unknown bucket access ${String(access)}`);
    const objects = bucket.arnForObjects('*');
    this.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [objects] }));
    acknowledgeWildcardResource(this.executionRole, objects, 'Object keys are derived from event ids at run time; the grant covers the objects of this one bucket only.');
    return this;
  }

  /** Gives the function read access to a secret and sets `envName` to its ARN. */
  public bindSecret(secret: ISecret, envName: string = SESSION_SECRET_ARN_ENV): this {
    this.claimEnv(envName);
    this.addEnvironment(envName, secret.secretArn);
    secret.grantRead(this);
    return this;
  }

  private claimEnv(name: string): void {
    if (this.boundEnv.has(name)) throw new Error(`${this.node.path}: ${name} is already bound`);
    this.boundEnv.add(name);
  }
}
