/**
 * @module post-lineage
 * Lineage ingestion (POST /api/v1/lineage): answers 501 until that capability is built.
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('PostLineage', 'Lineage ingestion');
