/**
 * @module post-lineage-batch
 * Batch lineage ingestion (POST /api/v1/lineage/batch): answers 501 until that capability is built.
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('PostLineageBatch', 'Batch lineage ingestion');
