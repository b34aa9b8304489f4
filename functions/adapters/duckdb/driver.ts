/**
 * @module duckdb/driver
 * The one place `@duckdb/node-api` is loaded, lazily. Every function bundle shares the composition
 * root, but only the functions that run DuckDB carry its native bindings (the DuckDB layer); the
 * others must never load them. Bundles mark the package external, and since nothing imports it
 * statically, a function without the layer only fails if it actually tries to run DuckDB.
 */
import type * as DuckDB from '@duckdb/node-api';

/** The `@duckdb/node-api` module. */
export type DuckDBModule = typeof DuckDB;

let loading: Promise<DuckDBModule> | undefined;

/** Loads `@duckdb/node-api` on first use. */
export const loadDuckDB = (): Promise<DuckDBModule> => (loading ??= import('@duckdb/node-api'));
