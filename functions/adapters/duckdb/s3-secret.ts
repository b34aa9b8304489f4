/**
 * @module duckdb/s3-secret
 * AWS: the statement that lets a query's DuckDB read the lake on S3 with the function's own role.
 * Lambda hands the role's temporary credentials to the function in its environment; they are read
 * per query, because they rotate while a container lives.
 */
import { sqlString } from './instance.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The secret's endpoint fields for an S3 endpoint other than the region's (an emulator, set by
 * configuration): host and port, TLS by the URL's scheme, and path-style URLs (a bucket name is no
 * host name there). None for a deployment, where DuckDB uses the region's S3 endpoint.
 */
const endpointFields = (endpoint: string | undefined): string[] => {
  if (!endpoint) return [];
  const url = new URL(endpoint);
  return [`ENDPOINT '${sqlString(url.host)}'`, `USE_SSL ${url.protocol === 'https:'}`, `URL_STYLE 'path'`];
};

/**
 * `CREATE SECRET` for S3 from the Lambda environment; none when no credentials are present.
 * @param endpoint - an S3 endpoint other than the region's (`config.awsEndpoints.s3`); unset in AWS
 */
export const s3SecretStatements = (endpoint?: string, env: Env = process.env): string[] => {
  const keyId = env.AWS_ACCESS_KEY_ID;
  const secret = env.AWS_SECRET_ACCESS_KEY;
  if (!keyId || !secret) return [];
  const fields = [
    'TYPE s3',
    `KEY_ID '${sqlString(keyId)}'`,
    `SECRET '${sqlString(secret)}'`,
    ...(env.AWS_SESSION_TOKEN ? [`SESSION_TOKEN '${sqlString(env.AWS_SESSION_TOKEN)}'`] : []),
    ...(env.AWS_REGION ? [`REGION '${sqlString(env.AWS_REGION)}'`] : []),
    ...endpointFields(endpoint),
  ];
  return [`CREATE SECRET lakeline_s3 (${fields.join(', ')})`];
};
