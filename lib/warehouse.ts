/**
 * @module warehouse
 * `LakelineWarehouse`: the lake's bucket. Iceberg table files live under `warehouse/` (each org
 * under `warehouse/org_<id>/`, the layout the lake writer and Spark share), and managed Spark runs
 * keep their job spec, result document and logs under `runs/org_<id>/<run id>/`. Polars sandbox
 * runs with a destination stage their result under `polars-staging/<run id>/` for the lake writer;
 * nothing there outlives a day.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';

/** Key prefix of the Iceberg warehouse. */
export const WAREHOUSE_PREFIX = 'warehouse';
/** Key prefix of Spark runs' specs, results and logs. */
export const RUNS_PREFIX = 'runs';
/** Key prefix where polars sandbox runs stage a destination's result file (expired after a day). */
export const POLARS_STAGING_PREFIX = 'polars-staging';

/** Properties of {@link LakelineWarehouse}. */
export interface LakelineWarehouseProps {
  /** Receives the bucket's server access logs (the data construct's log bucket). */
  readonly accessLogBucket: s3.IBucket;
  /** What happens to the bucket when the stack is deleted. @default RemovalPolicy.RETAIN — the lake outlives the stack */
  readonly removalPolicy?: RemovalPolicy;
  /** How long a run's spec, result and logs are kept. @default Duration.days(90) */
  readonly runFilesExpiration?: Duration;
}

/** The lake's bucket. */
export class LakelineWarehouse extends Construct {
  public readonly bucket: s3.Bucket;
  /** `s3://<bucket>/warehouse`: the warehouse root every catalog client is given. */
  public readonly warehouseUri: string;
  /** `s3://<bucket>/runs`: where Spark runs keep their files. */
  public readonly runsUri: string;
  /** `s3://<bucket>/polars-staging`: where polars sandbox runs stage a destination's result. */
  public readonly polarsStagingUri: string;

  constructor(scope: Construct, id: string, props: LakelineWarehouseProps) {
    super(scope, id);
    const expiration = props.runFilesExpiration ?? Duration.days(90);
    if (!expiration.isUnresolved() && expiration.toDays() < 1) throw new Error(`${this.node.path}: runFilesExpiration must be at least one day`);
    // Access logs are delivered by a bucket policy on the log bucket (no ACLs), as for the blob bucket.
    this.node.setContext(cxapi.S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // Unversioned: Iceberg never rewrites a file in place, and its snapshots are the history.
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 'warehouse-bucket/',
      lifecycleRules: [
        { prefix: `${RUNS_PREFIX}/`, expiration },
        // A staged result is read once, right after the run; one left by a failed write is garbage.
        { id: 'PolarsStaging', prefix: `${POLARS_STAGING_PREFIX}/`, expiration: Duration.days(1) },
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.warehouseUri = `s3://${this.bucket.bucketName}/${WAREHOUSE_PREFIX}`;
    this.runsUri = `s3://${this.bucket.bucketName}/${RUNS_PREFIX}`;
    this.polarsStagingUri = `s3://${this.bucket.bucketName}/${POLARS_STAGING_PREFIX}`;
  }
}
