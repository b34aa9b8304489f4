// The answer to methods a path does not serve: 405 with `Allow`; Marquez's writes to the lineage
// graph's paths and the paths only Marquez's pre-OpenLineage write APIs had point to OpenLineage.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler, templateOf } from '#handlers/method-not-allowed';

const call = (method: string, template: string, path: string) =>
  handler({ routeKey: `ANY ${template}`, requestContext: { http: { method, path } } } as unknown as APIGatewayProxyEventV2);

describe('method-not-allowed', () => {
  it('Should answer 405 with Allow for another method of a path', async () => {
    // Act
    const answer = await call('DELETE', '/api/v1/events', '/api/v1/events');
    // Assess
    expect(answer.statusCode).toBe(405);
    expect(answer.headers).toMatchObject({ allow: 'GET' });
    expect(JSON.parse(String(answer.body)).error).toBe('DELETE is not allowed on /api/v1/events; use GET');
  });

  it("Should answer Marquez's job creation on the lineage graph's path with 405 naming OpenLineage", async () => {
    // Act
    const answer = await call('PUT', '/api/v1/namespaces/{namespace}/jobs/{job}', '/api/v1/namespaces/etl/jobs/load');
    // Assess
    expect(answer.statusCode).toBe(405);
    expect(JSON.parse(String(answer.body)).error).toMatch(/^PUT is not allowed on \/api\/v1\/namespaces\/etl\/jobs\/load; use GET\. .*OpenLineage events.*POST \/api\/v1\/lineage/);
  });

  it.each([
    ['POST', '/api/v1/jobs/runs/{runId}/{action}', '/api/v1/jobs/runs/0176a8c2-fe01-7439-87e6-56a1a1b4029f/complete'],
    ['GET', '/api/v1/sources', '/api/v1/sources'],
    ['PUT', '/api/v1/sources/{source}', '/api/v1/sources/orders_db'],
  ])("Should answer %s on Marquez's pre-OpenLineage path %s with 501 naming OpenLineage", async (method, template, path) => {
    // Act
    const answer = await call(method, template, path);
    // Assess
    expect(answer.statusCode).toBe(501);
    expect(JSON.parse(String(answer.body)).error).toMatch(new RegExp(`^${method} ${path}: Marquez's API here predates OpenLineage.*POST /api/v1/lineage`));
  });

  it.each([
    ['DELETE', '/api/v1/events', 405, 'GET'],
    ['PUT', '/api/v1/namespaces/etl/jobs/load', 405, 'GET'],
    ['GET', '/api/v1/sources', 501, undefined],
  ] as const)('Should find the template of %s %s itself when API Gateway hands it the $default route', async (method, path, status, allow) => {
    // Act
    const answer = await handler({ routeKey: '$default', requestContext: { http: { method, path } } } as unknown as APIGatewayProxyEventV2);
    // Assess
    expect(answer.statusCode).toBe(status);
    if (allow) expect(answer.headers).toMatchObject({ allow });
  });

  it('Should prefer a literal segment over a parameter, as API Gateway does', () => {
    expect(templateOf('/api/v1/jobs/runs/0176a8c2-fe01-7439-87e6-56a1a1b4029f')).toBe('/api/v1/jobs/runs/{runId}');
  });

  it("Should answer a path no route serves with the gateway's own 404", async () => {
    // Act
    const answer = await handler({ routeKey: '$default', requestContext: { http: { method: 'GET', path: '/api/v1/nothing/here' } } } as unknown as APIGatewayProxyEventV2);
    // Assess
    expect(answer).toMatchObject({ statusCode: 404, body: '{"message":"Not Found"}' });
  });
});
