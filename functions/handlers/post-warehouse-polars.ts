/**
 * @module post-warehouse-polars
 * `POST /api/v1/warehouse/polars`: polars SQL or a dataframe script over the org's Iceberg tables,
 * run in an isolated sandbox (a warm bubblewrap worker locally, a Python Lambda per tier in AWS),
 * answering the contract's `PolarsResponse`; 4xx bodies are `{error, details}`.
 */
import { runPolars } from '#domain/polars/run-polars';
import { polarsDeps, warmPolarsSandbox } from '#composition/index';
import { PostWarehousePolars } from '#shared/contracts';
import { httpHandler } from '#composition/http';

// The first worker (Python with polars imported) starts during cold start.
warmPolarsSandbox();

/** Lambda entry point. */
export const handler = httpHandler(PostWarehousePolars, async ({ body, principal }) => ({
  statusCode: 200,
  body: await runPolars(polarsDeps(), principal.orgId, body),
}));
