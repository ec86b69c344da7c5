import { dimensionCacheBytes } from '../limits.ts';
import { ident, join, sql } from '../query/sql.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import type { ReportBackend } from './backend.ts';

/** A dimension table a lean page reads whole: its id, the columns it needs, and whether its rows belong to a category. */
export interface DimensionSpec {
  readonly table: string;
  readonly columns: readonly string[];
  readonly scope: 'global' | 'category';
}

/** A dimension's rows: ids in table order, each column by name, and the row of each id. */
export interface DimensionRows {
  readonly ids: readonly string[];
  readonly columns: Readonly<Record<string, readonly unknown[]>>;
  readonly rowOf: ReadonlyMap<string, number>;
}

interface Entry {
  readonly generation: number;
  readonly rows: DimensionRows;
  readonly bytes: number;
}

const bytesOf = (batch: ColumnBatch) =>
  Object.values(batch.columns).reduce(
    (sum, column) => sum + column.reduce((s: number, v) => s + 16 + (typeof v === 'string' ? 2 * v.length : 8), 0),
    0,
  );

/**
 * The small dimension tables (models, regions, a category's brands, topics, personas and prompts) in
 * memory, so a lean page names its groups and ranks its brands without joining them in SQL. An entry is
 * read again once the state store's generation moves on (an edit committed), so names are never stale.
 * At most `dimensionCacheBytes`; the least recently read go first, and a table larger than the bound is
 * read but not kept.
 */
export class DimensionCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly backend: Pick<ReportBackend, 'read'>,
    private readonly generation: () => number,
  ) {}

  async rows(spec: DimensionSpec, scopeId: string | null, signal?: AbortSignal): Promise<DimensionRows> {
    const key = `${spec.table}\u0000${spec.columns.join(',')}\u0000${scopeId ?? ''}`;
    const generation = this.generation();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.rows;
    }
    const where = spec.scope === 'category' ? sql` WHERE category_id = ${scopeId}` : sql``;
    const batch = await this.backend.read(
      sql`SELECT id, ${join(
        spec.columns.map((c) => ident(c)),
        ', ',
      )} FROM ${ident(spec.table)}${where} ORDER BY id`,
      signal,
    );
    const ids = (batch.columns.id ?? []).map(String);
    const rows: DimensionRows = {
      ids,
      columns: Object.fromEntries(spec.columns.map((c) => [c, batch.columns[c] ?? []])),
      rowOf: new Map(ids.map((id, i) => [id, i])),
    };
    this.put(key, { generation, rows, bytes: bytesOf(batch) });
    return rows;
  }

  private put(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    if (entry.bytes > dimensionCacheBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= dimensionCacheBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  /** Bytes held (for tests of the bound). */
  get heldBytes(): number {
    return this.bytes;
  }
}
