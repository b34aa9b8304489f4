/**
 * @module bloom
 * `LakelineBloom`: the bloom engine in AWS, Amazon Athena. One workgroup on engine version 3 (the
 * Trino engine the local profile runs as a server), with its configuration enforced on every query:
 * query results in the warehouse bucket (SSE-S3, under `athena-results/`) and a bytes-scanned
 * cutoff per query, so one statement cannot scan (and bill) without bound. The functions that run
 * bloom get least-privilege access: Athena on this workgroup only; Glue read of the orgs'
 * databases (and create/update in the orgs' `lakeline_results` databases, where runs land their
 * rows with an Iceberg CTAS); the warehouse's table files to read, the results tables' files and
 * the workgroup's result prefix to write.
 */
import { Stack } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { WAREHOUSE_URI_ENV } from '#composition/env-names';
import { BLOOM_WORKGROUP_ENV } from '#composition/env-names';
import { GLUE_READ } from './lake-access.ts';
import { acknowledgeWildcardResource } from './nag.ts';
import { WAREHOUSE_PREFIX, type LakelineWarehouse } from './warehouse.ts';

/** Prefix of the workgroup's query results in the warehouse bucket. */
export const ATHENA_RESULTS_PREFIX = 'athena-results';
/** Athena's smallest bytes-scanned cutoff (10 MB). */
export const MIN_BYTES_SCANNED_CUTOFF = 10_000_000;
/** Default cutoff: 1 TiB, far above the routing table's largest interactive band and well below a runaway scan. */
export const DEFAULT_BYTES_SCANNED_CUTOFF = 1024 ** 4;

/** A function that runs bloom statements (the routed query, the runs API). */
export interface BloomFunction {
  readonly executionRole: iam.Role;
  addEnvironment(name: string, value: string): unknown;
  addToRolePolicy(statement: iam.PolicyStatement): unknown;
}

/** Properties of {@link LakelineBloom}. */
export interface LakelineBloomProps {
  /** The lake's bucket: tables to read, results tables to write, the workgroup's results. */
  readonly warehouse: LakelineWarehouse;
  /** The functions that start, poll and stop bloom statements. */
  readonly functions: readonly BloomFunction[];
  /** Most bytes one query may scan; Athena cancels it beyond. @default DEFAULT_BYTES_SCANNED_CUTOFF */
  readonly bytesScannedCutoffPerQuery?: number;
  /** The workgroup's name. @default 'lakeline-bloom' */
  readonly workGroupName?: string;
}

/** The bloom engine in AWS: an Athena workgroup and the access to use it. */
export class LakelineBloom extends Construct {
  public readonly workGroup: athena.CfnWorkGroup;
  public readonly workGroupArn: string;

  constructor(scope: Construct, id: string, props: LakelineBloomProps) {
    super(scope, id);
    const cutoff = props.bytesScannedCutoffPerQuery ?? DEFAULT_BYTES_SCANNED_CUTOFF;
    if (!Number.isSafeInteger(cutoff) || cutoff < MIN_BYTES_SCANNED_CUTOFF) {
      throw new Error(`${this.node.path}: bytesScannedCutoffPerQuery must be a whole number of at least ${MIN_BYTES_SCANNED_CUTOFF} (Athena's minimum), got ${cutoff}`);
    }
    const name = props.workGroupName ?? 'lakeline-bloom';
    const bucket = props.warehouse.bucket;
    const stack = Stack.of(this);

    this.workGroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name,
      description: 'lakeline: the bloom engine (distributed SQL over the lake)',
      state: 'ENABLED',
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        engineVersion: { selectedEngineVersion: 'Athena engine version 3' },
        // Callers cannot override the result location, encryption or cutoff per query.
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: cutoff,
        resultConfiguration: {
          outputLocation: `s3://${bucket.bucketName}/${ATHENA_RESULTS_PREFIX}/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
          expectedBucketOwner: stack.account,
        },
      },
    });
    this.workGroupArn = `arn:${stack.partition}:athena:${stack.region}:${stack.account}:workgroup/${name}`;

    const glue = (resource: string) => `arn:${stack.partition}:glue:${stack.region}:${stack.account}:${resource}`;
    const orgDatabases = [glue('catalog'), glue('database/org_*'), glue('table/org_*/*')];
    const resultsDatabases = [glue('catalog'), glue('database/org_*__lakeline_results'), glue('table/org_*__lakeline_results/*')];
    const tableFiles = `${bucket.bucketArn}/${WAREHOUSE_PREFIX}/*`;
    const resultsTableFiles = `${bucket.bucketArn}/${WAREHOUSE_PREFIX}/org_*/lakeline_results/*`;
    const queryResults = `${bucket.bucketArn}/${ATHENA_RESULTS_PREFIX}/*`;

    for (const fn of props.functions) {
      fn.addEnvironment(BLOOM_WORKGROUP_ENV, name);
      fn.addEnvironment(WAREHOUSE_URI_ENV, props.warehouse.warehouseUri);
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults', 'athena:StopQueryExecution', 'athena:GetWorkGroup'],
          resources: [this.workGroupArn],
        }),
      );
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: GLUE_READ, resources: orgDatabases }));
      // A run's CTAS creates the org's results database and its results table; nothing else is writable.
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['glue:CreateDatabase', 'glue:CreateTable', 'glue:UpdateTable'], resources: resultsDatabases }));
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [tableFiles] }));
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [resultsTableFiles] }));
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'], resources: [queryResults] }));
      // Athena lists table and result prefixes and checks the bucket's region with the caller's rights.
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket', 's3:GetBucketLocation'], resources: [bucket.bucketArn] }));
      for (const resource of [...orgDatabases.filter((r) => r.includes('*')), ...resultsDatabases.filter((r) => r.includes('*'))]) {
        acknowledgeWildcardResource(fn.executionRole, resource, 'Bloom reads the org databases named at run time; it creates and updates tables only in the orgs\' lakeline_results databases.');
      }
      for (const resource of [tableFiles, resultsTableFiles, queryResults]) {
        acknowledgeWildcardResource(fn.executionRole, resource, 'Athena reads the table files and writes the results-table files and query results, all named at run time, under these prefixes of the one lake bucket.');
      }
    }
  }
}
