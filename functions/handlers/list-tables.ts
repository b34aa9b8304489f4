/**
 * @module list-tables
 * `GET /api/v1/tables?namespace=`: the caller's lake tables.
 */
import { listTables } from '#domain/lake/tables';
import { lake } from '#composition/index';
import { ListTables } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListTables, async ({ principal, query }) => ({
  statusCode: 200,
  body: await listTables(lake().catalog, principal.orgId, query.namespace),
}));
