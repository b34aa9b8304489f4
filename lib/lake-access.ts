/**
 * @module lake-access
 * The IAM vocabulary of the lake, shared by every construct that grants it: which Glue actions
 * read and write Iceberg tables, which Glue resources hold the orgs' databases
 * (`org_<id>__<namespace>`), and the read grant (Glue metadata plus the warehouse's files).
 */
import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { acknowledgeWildcardResource } from './nag.ts';
import type { ServiceFunction } from './service-function.ts';
import { WAREHOUSE_PREFIX } from './warehouse.ts';

/** Glue actions that read the catalog (Iceberg resolves a table's metadata location through them). */
export const GLUE_READ = ['glue:GetDatabase', 'glue:GetDatabases', 'glue:GetTable', 'glue:GetTables'];
/** Glue actions Iceberg catalogs need to create, replace and commit tables. */
export const GLUE_WRITE = ['glue:CreateDatabase', 'glue:CreateTable', 'glue:UpdateTable', 'glue:DeleteTable'];

/** Glue resources of the lake: the catalog and every org's databases and tables, and `default`. */
export const glueLakeResources = (scope: IConstruct): { orgs: string[]; defaultDatabase: string } => {
  const stack = Stack.of(scope);
  const arn = (resource: string) => `arn:${stack.partition}:glue:${stack.region}:${stack.account}:${resource}`;
  return { orgs: [arn('catalog'), arn('database/org_*'), arn('table/org_*/*')], defaultDatabase: arn('database/default') };
};

/** Read access to the lake: Glue metadata of org databases and the warehouse's files. */
export const grantLakeRead = (fn: ServiceFunction, bucketArn: string, why: string): void => {
  const glue = glueLakeResources(fn);
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: GLUE_READ, resources: glue.orgs }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [`${bucketArn}/${WAREHOUSE_PREFIX}/*`] }));
  for (const resource of [...glue.orgs.filter((r) => r.includes('*')), `${bucketArn}/${WAREHOUSE_PREFIX}/*`]) {
    acknowledgeWildcardResource(fn.executionRole, resource, `This function ${why}; org databases and table files are named at run time.`);
  }
};
