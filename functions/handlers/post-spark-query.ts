/**
 * @module post-spark-query
 * Managed Spark (POST /api/v2/spark/query): answers 501 until that capability is built (see docs/decisions.md, "Unbuilt routes").
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('PostSparkQuery', 'Managed Spark');
