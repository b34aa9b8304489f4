/**
 * @module method-not-allowed
 * The answer to a method a path does not serve (`TRACE /api/v1/events`, `DELETE /openapi.json`):
 * 405 with an `Allow` header listing the methods it does serve, as HTTP asks. In AWS it is the
 * target of one `ANY <path>` route per path (API Gateway prefers the method's own route), so no
 * method falls through to the gateway's bare 404; the local gateway answers with the same handler.
 * Marquez's write APIs that predate OpenLineage get a pointer to OpenLineage: 405 on the lineage
 * graph's paths, 501 on the paths only those APIs had (`MARQUEZ_LEGACY_PATHS`).
 * It needs no credentials: it reads nothing and says only what the route table says.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { MARQUEZ_LEGACY_PATHS, ROUTES } from '#shared/routes';
import { LINEAGE_TABLE } from '#shared/table-definitions';

/** Where lineage comes in: the pointer given to Marquez's write APIs. */
const OPENLINEAGE_WAY_IN = 'lakeline records lineage from OpenLineage events only: send them to POST /api/v1/lineage (https://openlineage.io)';

/** The methods the route table serves on a path template (`/api/v1/runs/{run_id}`). */
export const allowedMethods = (pathTemplate: string): string[] => [...new Set(ROUTES.filter((r) => r.path === pathTemplate).map((r) => r.method))].sort();

/** Lambda entry point: the route key is `ANY <path template>`. */
export const handler = async (event: Pick<APIGatewayProxyEventV2, 'routeKey' | 'requestContext'>): Promise<APIGatewayProxyStructuredResultV2> => {
  const template = event.routeKey.slice(event.routeKey.indexOf(' ') + 1);
  const allow = allowedMethods(template);
  const method = event.requestContext?.http?.method ?? '';
  const path = event.requestContext?.http?.path ?? template;
  if (MARQUEZ_LEGACY_PATHS.includes(template)) {
    return { statusCode: 501, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: `${method} ${path}: Marquez's API here predates OpenLineage and is not served; ${OPENLINEAGE_WAY_IN}` }) };
  }
  // Paths only the lineage graph serves are read-only: Marquez's writes to them predate OpenLineage.
  const served = ROUTES.filter((r) => r.path === template);
  const graphWrite = method !== 'GET' && method !== 'HEAD' && served.length > 0 && served.every((r) => r.tables.some((t) => t.table === LINEAGE_TABLE));
  return {
    statusCode: 405,
    headers: { 'content-type': 'application/json', allow: allow.join(', ') },
    body: JSON.stringify({ error: `${method} is not allowed on ${path}; use ${allow.join(' or ')}${graphWrite ? `. ${OPENLINEAGE_WAY_IN}` : ''}` }),
  };
};
