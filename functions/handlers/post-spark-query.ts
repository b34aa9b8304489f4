/**
 * @module post-spark-query
 * `POST /api/v2/spark/query`: starts a managed Spark run of one query into an output table and
 * answers at once with the run to poll (`GET /api/v1/runs/{run_id}`). Locally the run is a
 * supervised `spark-submit`; in AWS an EMR Serverless job run.
 */
import { submitSparkQuery } from '#domain/runs/submit';
import { runDeps } from '#composition/index';
import { httpHandler } from '#shared/middleware';
import { jsonBody } from '#shared/request';
import { parseSparkQueryRequest } from '#shared/schemas/query';

/** Largest request body (the SQL itself is capped at 100 000 characters). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Lambda entry point. */
export const handler = httpHandler('PostSparkQuery', async ({ event, principal }) => {
  const body = parseSparkQueryRequest(jsonBody(event, MAX_BODY_BYTES).value);
  const answer = await submitSparkQuery(runDeps(), principal.orgId, {
    namespace: body.namespace,
    name: body.name,
    query: body.query,
    outputTable: body.output_table,
    driverMachineType: body.driver_machine_type,
    executorMachineType: body.executor_machine_type,
    executorNumbers: body.executor_numbers,
  });
  return { statusCode: 200, body: answer };
});
