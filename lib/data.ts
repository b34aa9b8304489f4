/**
 * @module data
 * `LakelineData`: everything that holds state. One DynamoDB table per entry of ALL_TABLES (built
 * from its definition, never restated), the blob bucket for raw bodies of events above the item
 * limit (with its access-log bucket), and the secret that signs session cookies.
 */
import { CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { ALL_TABLES, type IndexDefinition, type KeyAttribute, type TableDefinition } from '#shared/table-definitions';
import { acknowledge } from './nag.ts';
import { STACK_OUTPUTS, tableOutputName } from './stack-outputs.ts';

/** DynamoDB's limits that a definition could break before CloudFormation notices. */
const MAX_GSIS = 20;
const MAX_PROJECTED_ATTRIBUTES = 100;

/** A table together with the definition it was built from (its env var name, keys and indexes). */
export interface IDefinedTable extends dynamodb.ITable {
  readonly definition: TableDefinition;
}

const toAttribute = (key: KeyAttribute): dynamodb.Attribute => ({
  name: key.name,
  type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

const toProjection = (index: IndexDefinition): Pick<dynamodb.GlobalSecondaryIndexProps, 'projectionType' | 'nonKeyAttributes'> => {
  if (index.projection === 'ALL') return { projectionType: dynamodb.ProjectionType.ALL };
  if (index.projection === 'KEYS_ONLY') return { projectionType: dynamodb.ProjectionType.KEYS_ONLY };
  return { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] };
};

/** Rejects a definition DynamoDB would reject, at synth time and with the table named. */
const validateDefinition = (def: TableDefinition): void => {
  const where = `table ${def.id}`;
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(def.id)) throw new Error(`${where}: id must be alphanumeric (it becomes a construct and output id)`);
  if (!/^[A-Z][A-Z0-9_]*$/.test(def.envName)) throw new Error(`${where}: envName ${def.envName} is not an environment variable name`);
  if (def.indexes.length > MAX_GSIS) throw new Error(`${where}: ${def.indexes.length} GSIs, DynamoDB allows ${MAX_GSIS}`);
  const types = new Map<string, string>();
  const keyOf = (key: KeyAttribute | undefined): void => {
    if (!key) return;
    const seen = types.get(key.name);
    if (seen && seen !== key.type) throw new Error(`${where}: key attribute ${key.name} is both ${seen} and ${key.type}`);
    types.set(key.name, key.type);
  };
  keyOf(def.partitionKey);
  keyOf(def.sortKey);
  const names = new Set<string>();
  let projected = 0;
  for (const index of def.indexes) {
    if (names.has(index.indexName)) throw new Error(`${where}: index ${index.indexName} is defined twice`);
    names.add(index.indexName);
    keyOf(index.partitionKey);
    keyOf(index.sortKey);
    if (typeof index.projection !== 'string') {
      const ownKeys = new Set([def.partitionKey.name, def.sortKey?.name, index.partitionKey.name, index.sortKey?.name]);
      const clash = index.projection.find((a) => ownKeys.has(a));
      if (clash) throw new Error(`${where}: index ${index.indexName} projects key attribute ${clash}`);
      projected += index.projection.length;
    }
  }
  if (projected > MAX_PROJECTED_ATTRIBUTES) throw new Error(`${where}: ${projected} projected attributes, DynamoDB allows ${MAX_PROJECTED_ATTRIBUTES}`);
};

/** Properties of a {@link DefinedTable}. */
export interface DefinedTableProps {
  /** The definition to build (from `functions/shared/table-definitions.ts`). */
  readonly definition: TableDefinition;
  /** What happens to the table when the stack is deleted. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
  /** Whether DynamoDB refuses to delete the table. @default true */
  readonly deletionProtection?: boolean;
}

/**
 * One DynamoDB table built from a {@link TableDefinition}: on-demand, point-in-time recovery,
 * AWS-managed encryption, the definition's TTL attribute, GSIs and stream.
 */
export class DefinedTable extends dynamodb.Table implements IDefinedTable {
  public readonly definition: TableDefinition;

  constructor(scope: Construct, id: string, props: DefinedTableProps) {
    validateDefinition(props.definition);
    const def = props.definition;
    super(scope, id, {
      partitionKey: toAttribute(def.partitionKey),
      ...(def.sortKey ? { sortKey: toAttribute(def.sortKey) } : {}),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // AWS-owned keys would not show in the account's KMS audit trail; a customer-managed key
      // would need grants in every function. The AWS-managed key sits between the two.
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      ...(def.ttlAttribute ? { timeToLiveAttribute: def.ttlAttribute } : {}),
      ...(def.stream === 'NEW_IMAGE' ? { stream: dynamodb.StreamViewType.NEW_IMAGE } : {}),
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.definition = def;
    for (const index of def.indexes) {
      this.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: toAttribute(index.partitionKey),
        ...(index.sortKey ? { sortKey: toAttribute(index.sortKey) } : {}),
        ...toProjection(index),
      });
    }
  }
}

/** Properties of {@link LakelineData}. */
export interface LakelineDataProps {
  /** The tables to create. @default ALL_TABLES */
  readonly tables?: readonly TableDefinition[];
  /**
   * What happens to tables, the blob bucket, its log bucket and the secret when the stack is
   * deleted. Lineage history is the product, so it outlives the stack unless asked otherwise.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /** DynamoDB deletion protection on every table. @default true */
  readonly deletionProtection?: boolean;
  /** How long replaced or deleted versions of blobs are kept. @default Duration.days(30) */
  readonly blobNoncurrentVersionExpiration?: Duration;
  /** How long S3 server access logs are kept. @default Duration.days(365) */
  readonly accessLogExpiration?: Duration;
}

/** The service's state: tables, blob bucket (+ access-log bucket) and session-signing secret. */
export class LakelineData extends Construct {
  /** Every table, by definition id (`Events`). */
  public readonly tables: ReadonlyMap<string, DefinedTable>;
  /** Raw bodies of events above DynamoDB's item limit. */
  public readonly blobBucket: s3.Bucket;
  /** Receives the blob bucket's server access logs. */
  public readonly accessLogBucket: s3.Bucket;
  /** Signs session cookies. */
  public readonly sessionSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: LakelineDataProps = {}) {
    super(scope, id);
    const definitions = props.tables ?? ALL_TABLES;
    if (definitions.length === 0) throw new Error(`${this.node.path}: no tables to create`);
    const ids = new Set<string>();
    const envNames = new Set<string>();
    for (const def of definitions) {
      if (ids.has(def.id)) throw new Error(`${this.node.path}: table id ${def.id} is used twice`);
      if (envNames.has(def.envName)) throw new Error(`${this.node.path}: env var ${def.envName} is used by two tables`);
      ids.add(def.id);
      envNames.add(def.envName);
    }
    for (const [name, duration] of [
      ['blobNoncurrentVersionExpiration', props.blobNoncurrentVersionExpiration],
      ['accessLogExpiration', props.accessLogExpiration],
    ] as const) {
      if (duration && !duration.isUnresolved() && duration.toDays() < 1) throw new Error(`${this.node.path}: ${name} must be at least one day`);
    }
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;

    // Deliver access logs through a bucket policy scoped to the source bucket rather than the legacy
    // log-delivery ACL, so both buckets can keep ACLs disabled (BucketOwnerEnforced). Set on this
    // construct only, before its children exist, so the choice does not depend on cdk.json.
    this.node.setContext(cxapi.S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);

    this.tables = new Map(
      definitions.map((definition) => [
        definition.id,
        new DefinedTable(this, definition.id, {
          definition,
          removalPolicy,
          deletionProtection: props.deletionProtection ?? true,
        }),
      ]),
    );

    this.accessLogBucket = new s3.Bucket(this, 'AccessLogBucket', {
      // S3 server access logging can only deliver to SSE-S3 buckets, not SSE-KMS.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // Unversioned: S3 writes each log object once and nothing else may write here.
      lifecycleRules: [{ expiration: props.accessLogExpiration ?? Duration.days(365) }],
      removalPolicy,
    });

    this.blobBucket = new s3.Bucket(this, 'BlobBucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      serverAccessLogsBucket: this.accessLogBucket,
      serverAccessLogsPrefix: 'blob-bucket/',
      lifecycleRules: [
        {
          noncurrentVersionExpiration: props.blobNoncurrentVersionExpiration ?? Duration.days(30),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy,
    });

    this.sessionSecret = new secretsmanager.Secret(this, 'SessionSecret', {
      description: 'lakeline: HMAC key that signs session cookies',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    acknowledge(
      this.sessionSecret,
      'AwsSolutions-SMG4',
      'The value is an HMAC key for short-lived session cookies, not a credential of another system: there is nothing to rotate it against, and rotating only logs everyone out. It is replaced with put-secret-value when compromised (docs/adr/0004-api-keys-and-sessions.md), so no rotation Lambda is deployed.',
    );

    // Stable, export-free output names: the CLI reads them (lib/stack-outputs.ts).
    for (const table of this.tables.values()) {
      new CfnOutput(this, tableOutputName(table.definition), {
        value: table.tableName,
        description: `DynamoDB table ${table.definition.id} (${table.definition.envName})`,
      }).overrideLogicalId(tableOutputName(table.definition));
    }
    new CfnOutput(this, STACK_OUTPUTS.blobBucketName, { value: this.blobBucket.bucketName, description: 'Bucket for raw bodies of large events' }).overrideLogicalId(
      STACK_OUTPUTS.blobBucketName,
    );
    new CfnOutput(this, STACK_OUTPUTS.sessionSecretArn, { value: this.sessionSecret.secretArn, description: 'Secret that signs session cookies' }).overrideLogicalId(
      STACK_OUTPUTS.sessionSecretArn,
    );
  }

  /**
   * The table built from a definition.
   * @throws when the definition is not one of this construct's tables
   */
  public table(definition: Pick<TableDefinition, 'id'>): DefinedTable {
    const table = this.tables.get(definition.id);
    if (!table) throw new Error(`${this.node.path}: no table ${definition.id}`);
    return table;
  }
}
