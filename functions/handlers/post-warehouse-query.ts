/**
 * @module post-warehouse-query
 * The DuckDB warehouse engine (POST /api/v1/warehouse/query): answers 501 until that capability is built (see docs/decisions.md, "Unbuilt routes").
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('PostWarehouseQuery', 'The DuckDB warehouse engine');
