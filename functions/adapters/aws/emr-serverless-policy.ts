/**
 * @module emr-serverless-policy
 * The per-run execution IAM policy. The application's execution role may touch every org's part
 * of the lake (it serves them all); each job run is started with an inline policy that EMR
 * intersects with the role, so a run can reach only its own org's warehouse prefix and Glue
 * databases, its own spec and result objects, and the job's code. User SQL that slipped past the
 * firewall and the job's own checks would still be refused by IAM. EMR accepts at most 2048
 * characters of inline policy, so ARNs use wildcards for region and account (the role already
 * pins both).
 */

/** EMR Serverless's limit on the inline policy's length. */
export const MAX_INLINE_POLICY_CHARS = 2048;

/** What one run may reach. */
export interface RunScope {
  /** `aws`, `aws-cn`, `aws-us-gov`. */
  readonly partition: string;
  /** The org's internal catalog name (`org_<id>`). */
  readonly orgCatalog: string;
  readonly warehouseBucket: string;
  /** Key prefix of the warehouse in its bucket (`warehouse`). */
  readonly warehousePrefix: string;
  readonly runsBucket: string;
  /** Key prefix of this run's spec, result and logs (`runs/org_x/<run id>`). */
  readonly runPrefix: string;
  /** S3 object ARNs-to-be of the entry script and package (`bucket/key`). */
  readonly codeObjects: readonly string[];
}

const trim = (prefix: string): string => prefix.replace(/^\/+|\/+$/g, '');

/** The inline policy document of a run, as compact JSON. */
export const runExecutionPolicy = (scope: RunScope): string => {
  const s3 = (bucketAndKey: string) => `arn:${scope.partition}:s3:::${bucketAndKey}`;
  const glue = (resource: string) => `arn:${scope.partition}:glue:*:*:${resource}`;
  const orgData = `${trim(scope.warehousePrefix)}/${scope.orgCatalog}`;
  const policy = {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
        Resource: [s3(`${scope.warehouseBucket}/${orgData}/*`), s3(`${scope.runsBucket}/${trim(scope.runPrefix)}/*`)],
      },
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: s3(scope.warehouseBucket),
        Condition: { StringLike: { 's3:prefix': [`${orgData}/*`] } },
      },
      { Effect: 'Allow', Action: 's3:GetObject', Resource: scope.codeObjects.map(s3) },
      {
        Effect: 'Allow',
        Action: ['glue:Get*', 'glue:CreateDatabase', 'glue:CreateTable', 'glue:UpdateTable', 'glue:DeleteTable'],
        Resource: [glue('catalog'), glue(`database/${scope.orgCatalog}__*`), glue(`table/${scope.orgCatalog}__*/*`)],
      },
      // Spark looks up the `default` database when its session starts; reading it reveals nothing.
      { Effect: 'Allow', Action: 'glue:GetDatabase', Resource: glue('database/default') },
    ],
  };
  const text = JSON.stringify(policy);
  if (text.length > MAX_INLINE_POLICY_CHARS) throw new Error(`the run's execution policy is ${text.length} characters; EMR accepts ${MAX_INLINE_POLICY_CHARS}`);
  return text;
};
