/**
 * @module lake
 * `LakelineLake`: what the lake's users need beside the bucket. The DuckDB layer (Node bindings
 * and extension files for Lambda's arm64, `layers/duckdb`), the lake writer (the pyiceberg Python
 * Lambda every Iceberg write goes through, `functions/lakewriter`), and the grants of the routes
 * marked `lake` or `duckdb` in the route table: read → Glue metadata and warehouse files; write →
 * also invoking the lake writer. Also the hourly expiry of routed reads' results tables
 * (`functions/handlers/expire-results.ts`), which drops them through the lake writer.
 */
import { CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DUCKDB_EXTENSION_DIR_ENV, LAKE_WRITER_FUNCTION_ENV, PROFILE_ENV, RESULTS_TTL_DAYS_ENV, WAREHOUSE_URI_ENV } from '#composition/env-names';
import { ORGS_TABLE } from '#shared/table-definitions';
import { POLARS_STAGING_URI_ENV } from '#composition/env-names';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { buildLayer } from '../layers/duckdb/build.ts';
import { buildLakeWriter, LAKE_WRITER_PYTHON, lakeWriterBuildIsCurrent } from '../layers/lakewriter/build.ts';
import type { LakelineApi } from './api.ts';
import type { LakelineData } from './data.ts';
import { GLUE_READ, GLUE_WRITE, glueLakeResources, grantLakeRead } from './lake-access.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { REPO_ROOT, ServiceFunction } from './service-function.ts';
import { STACK_OUTPUTS } from './stack-outputs.ts';
import { POLARS_STAGING_PREFIX, WAREHOUSE_PREFIX, type LakelineWarehouse } from './warehouse.ts';

/** Where the DuckDB layer puts the extension files (the layer's `duckdb-extensions/` under /opt). */
export const LAYER_EXTENSION_DIR = '/opt/duckdb-extensions';

/** Properties of {@link LakelineLake}. */
export interface LakelineLakeProps {
  /** The API whose route functions get the grants. */
  readonly api: LakelineApi;
  /** The lake's bucket. */
  readonly warehouse: LakelineWarehouse;
  /** The service's tables (the results expiry lists the orgs). */
  readonly data: LakelineData;
  /** Days a routed read's results table is kept. @default 7 (the handler's default) */
  readonly resultsTtlDays?: number;
  /** The routes, to find the functions marked `lake` or `duckdb`. @default ROUTES */
  readonly routes?: readonly RouteDefinition[];
  /**
   * A built DuckDB layer directory (`npx tsx layers/duckdb/build.ts`).
   * @default `layers/duckdb/dist`, built at synth when absent
   */
  readonly duckdbLayerDir?: string;
  /**
   * A built lake writer code directory (`npx tsx layers/lakewriter/build.ts`).
   * @default `layers/lakewriter/dist`, built at synth when absent or stale (pins or sources changed)
   */
  readonly lakeWriterCodeDir?: string;
  /** Retention of the lake writer's log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
}

/** The DuckDB layer, the lake writer and the lake grants of the API's functions. */
export class LakelineLake extends Construct {
  public readonly duckdbLayer: lambda.LayerVersion;
  public readonly lakeWriter: lambda.Function;
  /** Drops expired results tables, every hour. */
  public readonly resultsExpiry: ServiceFunction;

  constructor(scope: Construct, id: string, props: LakelineLakeProps) {
    super(scope, id);
    const bucket = props.warehouse.bucket;

    const layerDir = props.duckdbLayerDir ?? path.join(REPO_ROOT, 'layers', 'duckdb', 'dist');
    if (!existsSync(path.join(layerDir, 'layer-manifest.json'))) buildLayer(layerDir);
    this.duckdbLayer = new lambda.LayerVersion(this, 'DuckDBLayer', {
      code: lambda.Code.fromAsset(layerDir),
      compatibleArchitectures: [lambda.Architecture.ARM_64],
      compatibleRuntimes: [lambda.Runtime.NODEJS_22_X],
      description: 'lakeline: DuckDB Node bindings (linux-arm64) and the iceberg, avro and httpfs extensions',
    });

    const codeDir = props.lakeWriterCodeDir ?? path.join(REPO_ROOT, 'layers', 'lakewriter', 'dist');
    if (!props.lakeWriterCodeDir && !lakeWriterBuildIsCurrent(codeDir)) buildLakeWriter(codeDir);
    const logGroup = new logs.LogGroup(this, 'LakeWriterLogGroup', { retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, 'LakeWriterRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: 'Execution role of the lake writer' });
    logGroup.grantWrite(role);
    this.lakeWriter = new lambda.Function(this, 'LakeWriter', {
      description: 'lakeline: writes Iceberg tables with pyiceberg on the Glue catalog',
      runtime: lambda.Runtime.PYTHON_3_12, // = LAKE_WRITER_PYTHON
      architecture: lambda.Architecture.ARM_64,
      handler: 'lakewriter.handler.handler',
      code: lambda.Code.fromAsset(codeDir, { exclude: ['build-manifest.json'] }),
      // Writes stream Parquet into Arrow tables; the TPC-H demo load generates whole tables in memory.
      memorySize: 3008,
      timeout: Duration.minutes(15),
      role,
      logGroup,
      tracing: lambda.Tracing.ACTIVE,
      environment: { [PROFILE_ENV]: 'aws', [WAREHOUSE_URI_ENV]: props.warehouse.warehouseUri, [POLARS_STAGING_URI_ENV]: props.warehouse.polarsStagingUri },
    });
    const glue = glueLakeResources(this);
    role.addToPolicy(new iam.PolicyStatement({ actions: [...GLUE_READ, ...GLUE_WRITE], resources: glue.orgs }));
    const warehouseObjects = `${bucket.bucketArn}/${WAREHOUSE_PREFIX}/*`;
    role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'], resources: [warehouseObjects] }));
    role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    // A polars destination's result, staged there by the sandbox run (lib/polars.ts).
    const stagedResults = `${bucket.bucketArn}/${POLARS_STAGING_PREFIX}/*`;
    role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [stagedResults] }));
    acknowledgeWildcardResource(role, stagedResults, 'The lake writer lands the result a polars sandbox run staged for a destination; staged keys are named per run at run time.');
    acknowledge(role, 'AwsSolutions-IAM5[Resource::*]', 'Only the X-Ray actions xray:PutTraceSegments and xray:PutTelemetryRecords use "*": X-Ray does not support resource-level permissions.');
    acknowledge(this.lakeWriter, 'AwsSolutions-L1', `Python ${LAKE_WRITER_PYTHON} on purpose: the bundled manylinux wheels (pyarrow, duckdb, pyroaring) are built for it by layers/lakewriter/build.ts; a newer runtime needs wheels published for it first.`);
    for (const resource of [...glue.orgs.filter((r) => r.includes('*')), warehouseObjects]) {
      acknowledgeWildcardResource(role, resource, 'The lake writer writes any org\'s tables (each request names its org; the caller is a lakeline function that authorized it); org databases and table files are named at run time.');
    }

    new CfnOutput(this, STACK_OUTPUTS.lakeWriterFunctionName, { value: this.lakeWriter.functionName, description: 'The lake writer function (pyiceberg)' }).overrideLogicalId(
      STACK_OUTPUTS.lakeWriterFunctionName,
    );

    for (const route of props.routes ?? ROUTES) {
      if (!route.lake && !route.duckdb) continue;
      const fn = props.api.functions.get(route.id);
      if (!fn) throw new Error(`${this.node.path}: route ${route.id} is marked lake or duckdb but has no function`);
      if (route.duckdb) {
        fn.addLayers(this.duckdbLayer);
        fn.addEnvironment(DUCKDB_EXTENSION_DIR_ENV, LAYER_EXTENSION_DIR);
      }
      if (route.lake) {
        fn.addEnvironment(WAREHOUSE_URI_ENV, props.warehouse.warehouseUri);
        grantLakeRead(fn, bucket.bucketArn, 'reads the tables of the org that called it');
      }
      if (route.lake === 'write') {
        // The function itself, not `grantInvoke`'s extra `:*` (versions and aliases are never used).
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.lakeWriter.functionArn] }));
        fn.addEnvironment(LAKE_WRITER_FUNCTION_ENV, this.lakeWriter.functionName);
      }
    }

    // Results tables of routed batch reads are for paging, not keeping: an hourly sweep purges those
    // older than the retention, through the lake writer (the only writer of the lake).
    const ttl = props.resultsTtlDays;
    if (ttl !== undefined && !(ttl > 0)) throw new Error(`${this.node.path}: resultsTtlDays must be positive, not ${ttl}`);
    this.resultsExpiry = new ServiceFunction(this, 'ExpireResults', {
      handlerModule: 'expire-results',
      timeout: Duration.minutes(10),
      description: "lakeline: drops routed reads' results tables after their retention",
      environment: {
        [WAREHOUSE_URI_ENV]: props.warehouse.warehouseUri,
        [LAKE_WRITER_FUNCTION_ENV]: this.lakeWriter.functionName,
        ...(ttl === undefined ? {} : { [RESULTS_TTL_DAYS_ENV]: String(ttl) }),
      },
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    this.resultsExpiry.bindTable(props.data.table(ORGS_TABLE), 'RO');
    grantLakeRead(this.resultsExpiry, bucket.bucketArn, "lists every org's results tables and reads their metadata to date them");
    this.resultsExpiry.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.lakeWriter.functionArn] }));
    new events.Rule(this, 'ExpireResultsSchedule', {
      description: "lakeline: hourly expiry of routed reads' results tables",
      schedule: events.Schedule.rate(Duration.hours(1)),
      targets: [new targets.LambdaFunction(this.resultsExpiry, { retryAttempts: 2 })],
    });
  }
}
