/**
 * @module get-openapi
 * `GET /openapi.json`: the OpenAPI document, public. Built once per cold start.
 */
import { GetOpenApi } from '#shared/contracts';
import { httpHandler } from '#composition/http';
import { buildOpenApiDocument } from '#shared/openapi';

let document: Record<string, unknown> | undefined;

/** Lambda entry point. */
export const handler = httpHandler(GetOpenApi, async () => ({ statusCode: 200, body: (document ??= buildOpenApiDocument()) }));
