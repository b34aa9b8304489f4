/**
 * @module glue-catalog
 * The AWS Catalog: Glue, where Iceberg tables carry their current metadata file in the
 * `metadata_location` table parameter. Glue has one database namespace per account, so an org's
 * namespace `ns` is the Glue database `org_<id>__ns` (the same rule as the lake writer's).
 */
import { GetTableCommand, GetTablesCommand, EntityNotFoundException, paginateGetDatabases, type GlueClient } from '@aws-sdk/client-glue';
import type { Catalog, CatalogTable } from '#domain/lake/ports';
import { catalogNameForOrg, type TableName } from '#domain/core/names';

/** The Glue database of an org's namespace. */
export const glueDatabaseName = (orgId: string, namespace: string): string => `${catalogNameForOrg(orgId)}__${namespace}`;

/** Glue-backed {@link Catalog}. */
export class GlueCatalog implements Catalog {
  constructor(private readonly glue: GlueClient) {}

  async listTables(orgId: string, namespace?: string): Promise<CatalogTable[]> {
    const prefix = `${catalogNameForOrg(orgId)}__`;
    const namespaces = namespace !== undefined ? [namespace] : await this.namespaces(prefix);
    const tables: CatalogTable[] = [];
    for (const ns of namespaces) {
      let token: string | undefined;
      do {
        try {
          const out = await this.glue.send(new GetTablesCommand({ DatabaseName: prefix + ns, NextToken: token }));
          for (const t of out.TableList ?? []) {
            const location = t.Parameters?.metadata_location;
            if (t.Name && location) tables.push({ namespace: ns, table: t.Name, metadataLocation: location });
          }
          token = out.NextToken;
        } catch (err) {
          if (err instanceof EntityNotFoundException) break;
          throw err;
        }
      } while (token);
    }
    return tables.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.table.localeCompare(b.table));
  }

  async loadTable(orgId: string, name: TableName): Promise<CatalogTable | undefined> {
    try {
      const out = await this.glue.send(new GetTableCommand({ DatabaseName: glueDatabaseName(orgId, name.namespace), Name: name.table }));
      const location = out.Table?.Parameters?.metadata_location;
      return location ? { ...name, metadataLocation: location } : undefined;
    } catch (err) {
      if (err instanceof EntityNotFoundException) return undefined;
      throw err;
    }
  }

  private async namespaces(prefix: string): Promise<string[]> {
    const names: string[] = [];
    for await (const page of paginateGetDatabases({ client: this.glue }, {})) {
      for (const db of page.DatabaseList ?? []) if (db.Name?.startsWith(prefix)) names.push(db.Name.slice(prefix.length));
    }
    return names;
  }
}
