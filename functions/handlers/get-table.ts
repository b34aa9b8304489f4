/**
 * @module get-table
 * `GET /api/v1/tables/{namespace}/{table}`: schema, partition spec, snapshot, size and history.
 */
import { getTable } from '#domain/lake/tables';
import { lake } from '#composition/index';
import { GetTable } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetTable, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getTable(lake().catalog, lake().storage, principal.orgId, { namespace: pathParameters.namespace ?? '', table: pathParameters.table ?? '' }),
}));
