/**
 * @module stack-outputs
 * The names of the `Lakeline` stack's CloudFormation outputs. The CLI reads these outputs to reach
 * the deployed tables, bucket and secret, so the names are fixed here (logical ids are overridden,
 * never hashed) and kept free of CDK imports: the CLI can import this module without loading CDK.
 */
import type { TableDefinition } from '#shared/table-definitions';

/** The name of the CloudFormation stack `bin/app.ts` creates. */
export const STACK_NAME = 'Lakeline';

/** Output names that do not depend on a table. */
export const STACK_OUTPUTS = {
  /** Base URL of the HTTP API (the `$default` stage), ending in `/`. */
  apiUrl: 'ApiUrl',
  /** Name of the bucket holding raw bodies of large events. */
  blobBucketName: 'BlobBucketName',
  /** ARN of the Secrets Manager secret that signs session cookies. */
  sessionSecretArn: 'SessionSecretArn',
  /** Name of the lake writer function (`lakeline demo load --profile aws` invokes it). */
  lakeWriterFunctionName: 'LakeWriterFunctionName',
  /** The console's URL (the CloudFront distribution; `/api/*` there reaches the API too). */
  consoleUrl: 'ConsoleUrl',
} as const;

/** The output carrying a table's deployed name (`EventsTableName`). */
export const tableOutputName = (table: Pick<TableDefinition, 'id'>): string => `${table.id}TableName`;
