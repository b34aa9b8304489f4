/**
 * @module env-names
 * Environment variable names shared by the CDK constructs (`lib/`) and the runtime config
 * (`functions/shared/config.ts`), so the two can never drift apart.
 */

/** `aws` or `local`: which adapters the composition root builds. */
export const PROFILE_ENV = 'LAKELINE_PROFILE';
/** Directory holding local state (`.lakeline/` by default). Local profile only. */
export const HOME_ENV = 'LAKELINE_HOME';
/** Endpoint of the local DynamoDB API (dynalite). Local profile only. */
export const DYNAMODB_ENDPOINT_ENV = 'LAKELINE_DYNAMODB_ENDPOINT';
/** Bucket holding raw bodies of events above the DynamoDB item limit. AWS profile only. */
export const BLOB_BUCKET_ENV = 'LAKELINE_BLOB_BUCKET';
/** Secrets Manager secret (AWS) whose value signs session cookies. */
export const SESSION_SECRET_ARN_ENV = 'LAKELINE_SESSION_SECRET_ARN';
/** Local profile: the session signing secret itself (read from `.lakeline/session-secret`). */
export const SESSION_SECRET_ENV = 'LAKELINE_SESSION_SECRET';
/** Log level for the structured logger. */
export const LOG_LEVEL_ENV = 'LAKELINE_LOG_LEVEL';
