/**
 * @module polars
 * `LakelinePolars`: the polars sandbox in AWS. One Python 3.12 arm64 Lambda per tier that fits
 * Lambda (2 and 4 vCPUs: Lambda allots one vCPU per 1,769 MB, so 3,538 and 7,076 MB), built as a
 * container image from `functions/polars` (polars and pyarrow together are 410 MB unzipped, above
 * the 250 MB of a zip function; docs/decisions.md#decisions-the-polars-endpoint-and-its-sandbox-issue-6), and the grants of the functions of the
 * routes marked `polars`: invoking exactly these functions, with their names in its environment. Each sandbox
 * role reads the warehouse's files and nothing else (no Glue, no network egress beyond S3's API,
 * no write). Tiers 8–32 are not built (see the decisions file); the endpoint refuses them there.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import path from 'node:path';
import { polarsFunctionEnv } from '#shared/polars-env';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import type { LakelineApi } from './api.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { REPO_ROOT } from './service-function.ts';
import { WAREHOUSE_PREFIX, type LakelineWarehouse } from './warehouse.ts';

/** The tiers that run on Lambda. */
export const LAMBDA_TIERS = [2, 4] as const;
/** Lambda's memory per vCPU, in MB. */
export const LAMBDA_MB_PER_VCPU = 1769;

/** Properties of {@link LakelinePolars}. */
export interface LakelinePolarsProps {
  /** The API whose polars routes' functions invoke the sandboxes. */
  readonly api: LakelineApi;
  /** The routes, to find the ones marked `polars`. @default ROUTES */
  readonly routes?: readonly RouteDefinition[];
  /** The lake's bucket (the sandboxes read table files from it). */
  readonly warehouse: LakelineWarehouse;
  /** The image's build context (Dockerfile, requirements, package). @default functions/polars */
  readonly codeDir?: string;
  /** Retention of the sandboxes' log groups. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
}

/** The per-tier sandbox Lambdas and the polars route's grant to invoke them. */
export class LakelinePolars extends Construct {
  /** The sandbox function of each tier. */
  public readonly functions: ReadonlyMap<number, lambda.DockerImageFunction>;

  constructor(scope: Construct, id: string, props: LakelinePolarsProps) {
    super(scope, id);
    const codeDir = props.codeDir ?? path.join(REPO_ROOT, 'functions', 'polars');
    const code = lambda.DockerImageCode.fromImageAsset(codeDir, { exclude: ['tests', '**/__pycache__', 'pytest.ini'] });
    const warehouseObjects = `${props.warehouse.bucket.bucketArn}/${WAREHOUSE_PREFIX}/*`;
    const callers = (props.routes ?? ROUTES).filter((r) => r.polars).map((r) => {
      const fn = props.api.functions.get(r.id);
      if (!fn) throw new Error(`${this.node.path}: route ${r.id} is marked polars but has no function`);
      return fn;
    });

    const functions = new Map<number, lambda.DockerImageFunction>();
    for (const tier of LAMBDA_TIERS) {
      const logGroup = new logs.LogGroup(this, `Sandbox${tier}LogGroup`, { retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
      const role = new iam.Role(this, `Sandbox${tier}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: `Execution role of the ${tier}-vCPU polars sandbox` });
      logGroup.grantWrite(role);
      role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [warehouseObjects] }));
      const fn = new lambda.DockerImageFunction(this, `Sandbox${tier}`, {
        description: `lakeline: polars sandbox, ${tier} vCPUs`,
        code,
        architecture: lambda.Architecture.ARM_64,
        memorySize: tier * LAMBDA_MB_PER_VCPU,
        // The API answers within 29 s; the sandbox's own wall-clock limit stops a run first.
        timeout: Duration.minutes(15),
        role,
        logGroup,
        tracing: lambda.Tracing.ACTIVE,
        environment: { POLARS_MAX_THREADS: String(tier) },
      });
      acknowledge(role, 'AwsSolutions-IAM5[Resource::*]', 'Only the X-Ray actions xray:PutTraceSegments and xray:PutTelemetryRecords use "*": X-Ray does not support resource-level permissions.');
      acknowledgeWildcardResource(role, warehouseObjects, 'The sandbox reads the table files of the request it runs; table files are named at run time (the caller resolved and authorized the tables).');
      // Exactly these functions, not `grantInvoke`'s extra `:*` (versions and aliases are never used).
      for (const caller of callers) {
        caller.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
        caller.addEnvironment(polarsFunctionEnv(tier), fn.functionName);
      }
      functions.set(tier, fn);
    }
    this.functions = functions;
  }
}
