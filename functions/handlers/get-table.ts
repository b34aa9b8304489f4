/**
 * @module get-table
 * `GET /api/v1/tables/{namespace}/{table}`: schema, partition spec, snapshot, size and history.
 */
import { getTable } from '#domain/lake/tables';
import { catalog, lakeStorage } from '#shared/container-lake';
import { httpHandler } from '#shared/middleware';

/** Lambda entry point. */
export const handler = httpHandler('GetTable', async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getTable(catalog(), lakeStorage(), principal.orgId, { namespace: pathParameters.namespace ?? '', table: pathParameters.table ?? '' }),
}));
