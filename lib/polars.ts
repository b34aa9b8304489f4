/**
 * @module polars
 * `LakelinePolars`: the polars sandbox in AWS. One Python 3.12 arm64 Lambda per tier that fits
 * Lambda (2 and 4 vCPUs: Lambda allots one vCPU per 1,769 MB, so 3,538 and 7,076 MB), built as a
 * container image from `functions/polars` (polars and pyarrow together are 410 MB unzipped, above
 * the 250 MB of a zip function; docs/adr/0022-polars-sandbox.md), and the grants of the functions of the
 * routes marked `polars`: invoking exactly these functions, with their names in its environment.
 *
 * Data access is per run: the sandbox functions' execution roles hold no data access at all (logs
 * and their network interfaces only), because a script can read the function's own credentials
 * (`/proc/self/environ` keeps them even after the run removed them from its environment). The
 * callers assume the **sandbox data role** for each run with a session policy naming the run's
 * table directories (and its staging prefix for a destination) and send those credentials along
 * (`functions/adapters/aws/sts-sandbox-credentials.ts`). The data role may read the warehouse and
 * write the staging prefix, and trusts exactly the callers' execution roles. The sandboxes run in
 * the isolated {@link SandboxNetwork}. Tiers 8–32 are not built here (see the decisions file).
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import path from 'node:path';
import { POLARS_DATA_ROLE_ENV, POLARS_STAGING_URI_ENV, polarsFunctionEnv } from '#composition/env-names';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import type { LakelineApi } from './api.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import type { SandboxNetwork } from './sandbox-network.ts';
import { REPO_ROOT, type ServiceFunction } from './service-function.ts';
import { POLARS_STAGING_PREFIX, WAREHOUSE_PREFIX, type LakelineWarehouse } from './warehouse.ts';

/** The tiers that run on Lambda. */
export const LAMBDA_TIERS = [2, 4] as const;
/** Lambda's memory per vCPU, in MB. */
export const LAMBDA_MB_PER_VCPU = 1769;
/** What a function in a VPC needs for its network interfaces (AWSLambdaVPCAccessExecutionRole's actions). */
export const VPC_ACCESS_ACTIONS = [
  'ec2:CreateNetworkInterface',
  'ec2:DescribeNetworkInterfaces',
  'ec2:DescribeSubnets',
  'ec2:DeleteNetworkInterface',
  'ec2:AssignPrivateIpAddresses',
  'ec2:UnassignPrivateIpAddresses',
];

/** Properties of {@link LakelinePolars}. */
export interface LakelinePolarsProps {
  /** The API whose polars routes' functions invoke the sandboxes. */
  readonly api: LakelineApi;
  /** The routes, to find the ones marked `polars`. @default ROUTES */
  readonly routes?: readonly RouteDefinition[];
  /** The lake's bucket (the sandboxes read table files from it with per-run credentials). */
  readonly warehouse: LakelineWarehouse;
  /** The isolated network the sandboxes run in. */
  readonly network: SandboxNetwork;
  /** The image's build context (Dockerfile, requirements, package). @default functions/polars */
  readonly codeDir?: string;
  /** Retention of the sandboxes' log groups. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
}

/** The per-tier sandbox Lambdas and the polars route's grant to invoke them. */
export class LakelinePolars extends Construct {
  /** The sandbox function of each tier. */
  public readonly functions: ReadonlyMap<number, lambda.DockerImageFunction>;
  /** The role each run's credentials are issued on (scoped down per run by a session policy). */
  public readonly dataRole: iam.Role;
  /** The functions of the routes marked `polars` (they invoke the sandboxes). */
  public readonly callers: readonly ServiceFunction[];

  constructor(scope: Construct, id: string, props: LakelinePolarsProps) {
    super(scope, id);
    const codeDir = props.codeDir ?? path.join(REPO_ROOT, 'functions', 'polars');
    const code = lambda.DockerImageCode.fromImageAsset(codeDir, { exclude: ['tests', '**/__pycache__', 'pytest.ini'] });
    const bucketArn = props.warehouse.bucket.bucketArn;
    const warehouseObjects = `${bucketArn}/${WAREHOUSE_PREFIX}/*`;
    const stagingObjects = `${bucketArn}/${POLARS_STAGING_PREFIX}/*`;
    const callers = (props.routes ?? ROUTES).filter((r) => r.polars).map((r) => {
      const fn = props.api.functions.get(r.id);
      if (!fn) throw new Error(`${this.node.path}: route ${r.id} is marked polars but has no function`);
      return fn;
    });

    if (callers.length === 0) throw new Error(`${this.node.path}: no route is marked polars; nothing would run the sandboxes`);
    this.callers = callers;
    this.dataRole = new iam.Role(this, 'SandboxDataRole', {
      // Exactly the callers' execution roles: nothing else in the account may assume it.
      assumedBy: new iam.CompositePrincipal(...callers.map((fn) => fn.executionRole ?? fn.grantPrincipal)),
      description: 'polars sandbox runs: scoped per run by a session policy to its tables and staging prefix',
    });
    this.dataRole.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [warehouseObjects] }));
    this.dataRole.addToPolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [stagingObjects] }));
    acknowledgeWildcardResource(this.dataRole, warehouseObjects, 'Each run narrows this role with a session policy to the directories of its own input tables; table files are named at run time.');
    acknowledgeWildcardResource(this.dataRole, stagingObjects, 'Each run narrows this role with a session policy to its own staging directory (named by the run id at run time).');
    for (const caller of callers) {
      caller.addToRolePolicy(new iam.PolicyStatement({ actions: ['sts:AssumeRole'], resources: [this.dataRole.roleArn] }));
      caller.addEnvironment(POLARS_DATA_ROLE_ENV, this.dataRole.roleArn);
      caller.addEnvironment(POLARS_STAGING_URI_ENV, props.warehouse.polarsStagingUri);
    }

    const functions = new Map<number, lambda.DockerImageFunction>();
    for (const tier of LAMBDA_TIERS) {
      const logGroup = new logs.LogGroup(this, `Sandbox${tier}LogGroup`, { retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
      // Logs and network interfaces only: no data access (a script can read these credentials).
      const role = new iam.Role(this, `Sandbox${tier}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: `Execution role of the ${tier}-vCPU polars sandbox` });
      logGroup.grantWrite(role);
      role.addToPolicy(new iam.PolicyStatement({ actions: VPC_ACCESS_ACTIONS, resources: ['*'] }));
      const fn = new lambda.DockerImageFunction(this, `Sandbox${tier}`, {
        description: `lakeline: polars sandbox, ${tier} vCPUs`,
        code,
        architecture: lambda.Architecture.ARM_64,
        memorySize: tier * LAMBDA_MB_PER_VCPU,
        // The API answers within 29 s; the sandbox's own wall-clock limit stops a run first.
        timeout: Duration.minutes(15),
        role,
        logGroup,
        vpc: props.network.vpc,
        vpcSubnets: props.network.subnets,
        securityGroups: [props.network.securityGroup],
        // No X-Ray: the daemon sends segments over the network, and an isolated subnet has no route
        // to X-Ray (an interface endpoint for it would be the sandboxes' only use of one).
        tracing: lambda.Tracing.DISABLED,
        environment: { POLARS_MAX_THREADS: String(tier) },
      });
      acknowledge(role, 'AwsSolutions-IAM5[Resource::*]', 'Only the network interface actions a Lambda function in a VPC needs use "*", as in AWSLambdaVPCAccessExecutionRole: they do not support resource-level permissions for Lambda.');
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
