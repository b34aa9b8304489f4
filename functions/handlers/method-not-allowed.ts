/**
 * @module method-not-allowed
 * The answer to a method a path does not serve (`TRACE /api/v1/events`, `DELETE /openapi.json`):
 * 405 with an `Allow` header listing the methods it does serve, as HTTP asks. In AWS it is the
 * target of the HTTP API's `$default` route, which API Gateway picks when no route matches the
 * method and path: the handler finds the path's template itself, and answers a path no route
 * serves with the gateway's own 404. (One `ANY <path>` route per path did the same at two
 * resources a path, against CloudFormation's 500 per stack.) The local gateway calls it with
 * `ANY <template>`, which it still takes.
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

/** Every path template something answers on: the route table's and Marquez's legacy paths. */
const TEMPLATES = [...new Set([...ROUTES.map((r) => r.path), ...MARQUEZ_LEGACY_PATHS])];

/**
 * The template a concrete path falls under (a `{name}` segment matches any one segment), the most
 * specific when several do: literal segments win over parameters, leftmost first, as API Gateway
 * chooses between routes.
 */
export const templateOf = (path: string): string | undefined => {
  const segments = path.split('/');
  const specificity = (template: string) => template.split('/').map((t) => (t.startsWith('{') ? '0' : '1')).join('');
  const matching = TEMPLATES.filter((template) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((part, i) => part.startsWith('{') || part === segments[i]);
  });
  return matching.sort((a, b) => specificity(b).localeCompare(specificity(a)))[0];
};

/** API Gateway's own answer to a path no route serves. */
const NOT_FOUND: APIGatewayProxyStructuredResultV2 = { statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"Not Found"}' };

/** Lambda entry point: the route key is `$default` (AWS) or `ANY <path template>` (the local gateway). */
export const handler = async (event: Pick<APIGatewayProxyEventV2, 'routeKey' | 'requestContext'>): Promise<APIGatewayProxyStructuredResultV2> => {
  const method = event.requestContext?.http?.method ?? '';
  const requested = event.requestContext?.http?.path;
  const template = event.routeKey === '$default' ? templateOf(requested ?? '') : event.routeKey.slice(event.routeKey.indexOf(' ') + 1);
  if (template === undefined) return NOT_FOUND;
  const allow = allowedMethods(template);
  const path = requested ?? template;
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
