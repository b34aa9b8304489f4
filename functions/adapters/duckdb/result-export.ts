/**
 * @module duckdb/result-export
 * Writes a query's result to a Parquet file for the lake writer. The locked instance that ran the
 * caller's SQL can write no files, and must not be unlocked for it; instead its result chunks are
 * appended to a table in a separate, internal instance that no caller SQL ever reaches, and that
 * instance writes the file.
 */
import { stat } from 'node:fs/promises';
import type { DuckDBAppender, DuckDBConnection, DuckDBDataChunk, DuckDBInstance, DuckDBType } from '@duckdb/node-api';
import { loadDuckDB, type DuckDBModule } from './driver.ts';
import { sqlIdent, sqlString } from './instance.ts';

/**
 * How a result column is stored so that an Iceberg table (through pyarrow and pyiceberg) can hold
 * it: types Iceberg has no counterpart for are widened (unsigned and 128-bit integers to DECIMAL,
 * second/millisecond/nanosecond timestamps to microseconds) or kept as their text.
 */
export const storageCast = (type: DuckDBType, DuckDBTypeId: DuckDBModule['DuckDBTypeId']): string | undefined => {
  switch (type.typeId) {
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
      return 'INTEGER';
    case DuckDBTypeId.UINTEGER:
      return 'BIGINT';
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return 'DECIMAL(38,0)';
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
      return 'TIMESTAMP';
    case DuckDBTypeId.TIME_NS:
      return 'TIME';
    case DuckDBTypeId.INTERVAL:
    case DuckDBTypeId.BIT:
    case DuckDBTypeId.UNION:
    case DuckDBTypeId.TIME_TZ:
    case DuckDBTypeId.ENUM:
    case DuckDBTypeId.UUID:
    case DuckDBTypeId.GEOMETRY:
    case DuckDBTypeId.VARIANT:
      return 'VARCHAR';
    default:
      return undefined;
  }
};

/** An export in progress: chunks go in, a Parquet file comes out. */
export class ResultExport {
  private rows = 0;
  private appenderOpen = true;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly appender: DuckDBAppender,
    private readonly names: readonly string[],
    private readonly types: readonly DuckDBType[],
    private readonly typeIds: DuckDBModule['DuckDBTypeId'],
  ) {}

  /**
   * Opens an export for a result's columns.
   *
   * @param names - the result's column names, made unique (`deduplicatedColumnNames`)
   * @param types - the result's column types
   */
  static async open(names: readonly string[], types: readonly DuckDBType[]): Promise<ResultExport> {
    const duck = await loadDuckDB();
    const instance = await duck.DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false', threads: '1' });
    const connection = await instance.connect();
    try {
      const columns = names.map((n, i) => `${sqlIdent(n)} ${String(types[i])}`);
      await connection.run(`CREATE TABLE result (${columns.join(', ')})`);
      const appender = await connection.createAppender('result');
      return new ResultExport(instance, connection, appender, names, types, duck.DuckDBTypeId);
    } catch (err) {
      connection.closeSync();
      instance.closeSync();
      throw err;
    }
  }

  /** Appends one chunk of the result (chunks of another instance are copied, not shared). */
  append(chunk: DuckDBDataChunk): void {
    this.appender.appendDataChunk(chunk);
    this.rows += chunk.rowCount;
  }

  /** Writes everything appended to a Parquet file and closes the export. */
  async finish(file: string): Promise<{ rows: number; bytes: number }> {
    try {
      this.appender.flushSync();
      this.appender.closeSync();
      this.appenderOpen = false;
      const select = this.names
        .map((n, i) => {
          const cast = storageCast(this.types[i] as DuckDBType, this.typeIds);
          return cast ? `CAST(${sqlIdent(n)} AS ${cast}) AS ${sqlIdent(n)}` : sqlIdent(n);
        })
        .join(', ');
      await this.connection.run(`COPY (SELECT ${select || '*'} FROM result) TO '${sqlString(file)}' (FORMAT parquet, COMPRESSION zstd)`);
      return { rows: this.rows, bytes: (await stat(file)).size };
    } finally {
      this.close();
    }
  }

  /** Releases the internal instance (also after a failure). */
  close(): void {
    if (this.appenderOpen) {
      this.appenderOpen = false;
      try {
        this.appender.closeSync();
      } catch {
        // the export is being abandoned; its rows do not matter
      }
    }
    try {
      this.connection.closeSync();
      this.instance.closeSync();
    } catch {
      // already closed
    }
  }
}
