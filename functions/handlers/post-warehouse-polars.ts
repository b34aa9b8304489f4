/**
 * @module post-warehouse-polars
 * The polars sandbox (POST /api/v1/warehouse/polars): answers 501 until that capability is built (see docs/decisions.md, "Unbuilt routes").
 */
import { notBuiltHandler } from '#shared/not-built';

/** Lambda entry point. */
export const handler = notBuiltHandler('PostWarehousePolars', 'The polars sandbox');
