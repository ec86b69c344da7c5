import {
  JSDuckDBValueConverter,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
} from '@duckdb/node-api';

/** Columns of a result as JS arrays (`getColumnsJS`): strings, numbers, booleans, lists; no row objects. */
export type Columns = unknown[][];

/**
 * A floor's connection: its statements are prepared once per SQL text and bound per call, and every
 * read is columnar (`getColumnsJS`, or one chunk's columns at a time when streaming).
 */
export class FloorDb {
  private readonly statements = new Map<string, DuckDBPreparedStatement>();

  constructor(readonly conn: DuckDBConnection) {}

  async prepared(sql: string): Promise<DuckDBPreparedStatement> {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = await this.conn.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  /** Every column of the statement's result. */
  async columns(sql: string, params: readonly DuckDBValue[] = []): Promise<Columns> {
    const stmt = await this.prepared(sql);
    stmt.bind(params as DuckDBValue[]);
    const reader = await stmt.runAndReadAll();
    return reader.currentRowCount === 0
      ? Array.from({ length: reader.columnCount }, () => [])
      : (reader.getColumnsJS() as Columns);
  }

  /** The statement's result a chunk (≤ 2,048 rows) at a time, each as columns: DuckDB stops producing while the reader waits. */
  async *chunks(sql: string, params: readonly DuckDBValue[] = []): AsyncGenerator<{ columns: Columns; rows: number }> {
    const stmt = await this.prepared(sql);
    stmt.bind(params as DuckDBValue[]);
    const result = await stmt.stream();
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return;
      yield { columns: chunk.convertColumns(JSDuckDBValueConverter) as Columns, rows: chunk.rowCount };
    }
  }

  async exec(sql: string): Promise<void> {
    await this.conn.run(sql);
  }

  close(): void {
    for (const stmt of this.statements.values()) stmt.destroySync();
    this.statements.clear();
  }
}

/** Column `c` as numbers (BIGINT and HUGEINT arrive as bigint). */
export const nums = (c: unknown[]): number[] => c.map((v) => (typeof v === 'bigint' ? Number(v) : (v as number)));
