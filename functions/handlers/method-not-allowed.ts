/**
 * @module method-not-allowed
 * The answer to a method a path does not serve (`TRACE /api/v1/events`, `DELETE /openapi.json`):
 * 405 with an `Allow` header listing the methods it does serve, as HTTP asks. In AWS it is the
 * target of one `ANY <path>` route per path (API Gateway prefers the method's own route), so no
 * method falls through to the gateway's bare 404; the local gateway answers with the same handler.
 * It needs no credentials: it reads nothing and says only what the route table says.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ROUTES } from '#shared/routes';

/** The methods the route table serves on a path template (`/api/v1/runs/{run_id}`). */
export const allowedMethods = (pathTemplate: string): string[] => [...new Set(ROUTES.filter((r) => r.path === pathTemplate).map((r) => r.method))].sort();

/** Lambda entry point: the route key is `ANY <path template>`. */
export const handler = async (event: Pick<APIGatewayProxyEventV2, 'routeKey' | 'requestContext'>): Promise<APIGatewayProxyStructuredResultV2> => {
  const template = event.routeKey.slice(event.routeKey.indexOf(' ') + 1);
  const allow = allowedMethods(template);
  const method = event.requestContext?.http?.method ?? '';
  return {
    statusCode: 405,
    headers: { 'content-type': 'application/json', allow: allow.join(', ') },
    body: JSON.stringify({ error: `${method} is not allowed on ${event.requestContext?.http?.path ?? template}; use ${allow.join(' or ')}` }),
  };
};
