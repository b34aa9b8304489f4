/**
 * @module post-warehouse-polars
 * `POST /api/v1/warehouse/polars`: polars SQL or a dataframe script over the org's Iceberg tables,
 * run in an isolated sandbox (a warm bubblewrap worker locally, a Python Lambda per tier in AWS),
 * answering the contract's `PolarsResponse`; 4xx bodies are `{error, details}`.
 */
import { runPolars } from '#domain/polars/run-polars';
import { polarsDeps, warmPolarsSandbox } from '#shared/container-polars';
import { httpHandler } from '#shared/middleware';
import { jsonBody } from '#shared/request';
import { parsePolarsRequest } from '#shared/schemas/polars';

/** Largest request body: API Gateway's own limit (scripts are capped again inside the sandbox). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

// The first worker (Python with polars imported) starts during cold start.
warmPolarsSandbox();

/** Lambda entry point. */
export const handler = httpHandler('PostWarehousePolars', async ({ event, principal }) => {
  const body = parsePolarsRequest(jsonBody(event, MAX_BODY_BYTES).value);
  return { statusCode: 200, body: await runPolars(polarsDeps(), principal.orgId, body) };
});
