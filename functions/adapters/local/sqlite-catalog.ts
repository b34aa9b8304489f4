/**
 * @module sqlite-catalog
 * The local Catalog: the Iceberg SQL catalog in SQLite (`iceberg_tables` in the JDBC-catalog
 * layout pyiceberg's SqlCatalog writes), read through DuckDB's sqlite scanner so the service needs
 * no second native SQLite binding. Each org is its own `catalog_name`, so a query can only ever
 * see rows of the caller's org.
 */
import { existsSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Catalog, CatalogTable } from '#domain/lake/ports';
import { catalogNameForOrg, type TableName } from '#domain/core/names';
import { openDuckDB, sqlString } from '../duckdb/instance.ts';

/** SQLite-backed {@link Catalog}. */
export class SqliteCatalog implements Catalog {
  private connection?: Promise<DuckDBConnection>;

  constructor(
    private readonly catalogFile: string,
    private readonly extensionDir: string,
  ) {}

  async listTables(orgId: string, namespace?: string): Promise<CatalogTable[]> {
    const rows = await this.query(orgId, namespace === undefined ? '' : ` AND table_namespace = '${sqlString(namespace)}'`);
    return rows.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.table.localeCompare(b.table));
  }

  async loadTable(orgId: string, name: TableName): Promise<CatalogTable | undefined> {
    const rows = await this.query(orgId, ` AND table_namespace = '${sqlString(name.namespace)}' AND table_name = '${sqlString(name.table)}'`);
    return rows[0];
  }

  private async query(orgId: string, filter: string): Promise<CatalogTable[]> {
    // No catalog file yet means no table was ever written: an empty lake, not an error.
    if (!existsSync(this.catalogFile)) return [];
    const connection = await (this.connection ??= openDuckDB(this.extensionDir, ['sqlite_scanner']).then((d) => d.connection));
    const reader = await connection.runAndReadAll(
      `SELECT table_namespace, table_name, metadata_location FROM sqlite_scan('${sqlString(this.catalogFile)}', 'iceberg_tables')
       WHERE catalog_name = '${sqlString(catalogNameForOrg(orgId))}'${filter}`,
    );
    return reader.getRows().map(([namespace, table, metadataLocation]) => ({
      namespace: String(namespace),
      table: String(table),
      metadataLocation: String(metadataLocation),
    }));
  }
}
