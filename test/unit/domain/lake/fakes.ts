/**
 * @module lake-fakes
 * In-memory ports of the lake for the query and run use cases: a catalog with table metadata, a lake writer that
 * "lands" a table by adding it to that catalog, an engine that records what it was asked and
 * answers canned rows, and a lineage sink that keeps events.
 */
import type { Catalog, CatalogTable, LakeStorage, LakeWrite, LakeWriteResult, LakeWriter, QueryEngine, ScratchSpace } from '#domain/lake/ports';
import type { TableName } from '#domain/core/names';
import type { LineageSink } from '#domain/lineage-capture/ports';
import type { EngineRequest, EngineResult, TabularResult } from '#domain/lake/engine';

/** Iceberg metadata of a small table at a location. */
export const metadataJson = (location: string, fields: readonly [string, string][]): string =>
  JSON.stringify({
    'format-version': 2,
    location,
    'current-schema-id': 0,
    schemas: [{ 'schema-id': 0, type: 'struct', fields: fields.map(([name, type], i) => ({ id: i + 1, name, type, required: false })) }],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'current-snapshot-id': 1,
    snapshots: [{ 'snapshot-id': 1, 'timestamp-ms': 1_700_000_000_000, summary: { operation: 'append', 'total-records': '3', 'total-files-size': '1234', 'total-data-files': '1' } }],
  });

/** A catalog and its storage in memory: tables keyed by `ns.table`, metadata by location. */
export class MemoryLake implements Catalog, LakeStorage {
  readonly tables: CatalogTable[] = [];
  readonly files = new Map<string, string>();

  /** Adds a table under `file:///lake/<org>/<ns>/<table>`. */
  add(orgId: string, name: TableName, fields: readonly [string, string][] = [['id', 'long']]): CatalogTable {
    const location = `file:///lake/${orgId}/${name.namespace}/${name.table}`;
    const metadataLocation = `${location}/metadata/00000.metadata.json`;
    this.files.set(metadataLocation, metadataJson(location, fields));
    const table = { ...name, metadataLocation, orgId };
    this.tables.push(table);
    return table;
  }

  async listTables(orgId: string, namespace?: string): Promise<CatalogTable[]> {
    return this.tables.filter((t) => (t as CatalogTable & { orgId: string }).orgId === orgId && (namespace === undefined || t.namespace === namespace));
  }

  async loadTable(orgId: string, name: TableName): Promise<CatalogTable | undefined> {
    return (await this.listTables(orgId)).find((t) => t.namespace === name.namespace && t.table === name.table);
  }

  async readText(uri: string): Promise<string> {
    const text = this.files.get(uri);
    if (text === undefined) throw new Error(`no such file ${uri}`);
    return text;
  }
}

/** A lake writer whose writes appear in a {@link MemoryLake}. */
export class MemoryWriter implements Pick<LakeWriter, 'write'> {
  readonly writes: LakeWrite[] = [];
  constructor(private readonly lake: MemoryLake) {}

  async write(request: LakeWrite): Promise<LakeWriteResult> {
    this.writes.push(request);
    const table = this.lake.add(request.orgId, request, [['n', 'long']]);
    return { table: `${request.namespace}.${request.table}`, rowsWritten: 3, mode: request.mode, snapshotId: '1', metadataLocation: table.metadataLocation };
  }
}

/** An engine that answers canned results and records every request. */
export class FakeEngine implements QueryEngine {
  readonly name = 'duckdb';
  async version(): Promise<string> {
    return '1.5.5';
  }
  readonly requests: EngineRequest[] = [];
  /** What the next runs answer (or throw), in order; the last one repeats. */
  answers: (TabularResult | Error)[] = [{ columns: ['n'], column_types: ['BIGINT'], rows: [[1], [2], [3]] }];

  async run(request: EngineRequest): Promise<EngineResult> {
    this.requests.push(request);
    const answer = this.answers.length > 1 ? this.answers.shift() : this.answers[0];
    if (answer instanceof Error) throw answer;
    const results = answer as TabularResult;
    return {
      results,
      executionMs: 1,
      setupMs: 1,
      ...(request.explain ? { explain: { results: { columns: ['explain_key', 'explain_value'], column_types: ['VARCHAR', 'VARCHAR'], rows: [['physical_plan', 'SCAN']] }, executionMs: 1 } } : {}),
      ...(request.exportDirectory ? { exported: { file: `${request.exportDirectory}/result.parquet`, bytes: 100, rows: results.rows.length } } : {}),
    };
  }
}

/** A sink that keeps events, or fails every emit when told to. */
export class MemorySink implements LineageSink {
  readonly events: { orgId: string; event: Record<string, unknown> }[] = [];
  failing = false;

  async emit(orgId: string, event: object): Promise<void> {
    if (this.failing) throw new Error('event store unavailable');
    this.events.push({ orgId, event: event as Record<string, unknown> });
  }
}

/** Scratch directories that are only names. */
export class MemoryScratch implements ScratchSpace {
  readonly created: string[] = [];
  readonly removed: string[] = [];

  async create(): Promise<string> {
    const dir = `/scratch/${this.created.length}`;
    this.created.push(dir);
    return dir;
  }

  async remove(directory: string): Promise<void> {
    this.removed.push(directory);
  }
}
