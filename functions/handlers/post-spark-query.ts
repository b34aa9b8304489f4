/**
 * @module post-spark-query
 * `POST /api/v2/spark/query`: starts a managed Spark run of one query into an output table and
 * answers at once with the run to poll (`GET /api/v1/runs/{run_id}`). Locally the run is a
 * supervised `spark-submit`; in AWS an EMR Serverless job run.
 */
import { submitSparkQuery } from '#domain/runs/submit';
import { runDeps } from '#composition/index';
import { PostSparkQuery } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostSparkQuery, async ({ body, principal }) => {
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
