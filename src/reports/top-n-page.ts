import type { ColumnBatch } from '../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../query/sql.ts';
import type { LeanPage, LeanReads, UnitRange } from './rows-query.ts';

/** Rows of `from` kept by `where`, one unit each, in `order` (a total order): the columns a page shows. */
export interface TopNSource {
  readonly ctes: Fragment;
  readonly from: Fragment;
  readonly where: Fragment;
  readonly order: Fragment;
  /** Each column the report's shape reads, by name, and its value over `from`. */
  readonly columns: readonly (readonly [name: string, value: Fragment])[];
  /** The page's rows are worth cutting before its columns are written (an instant's label, a name): the page is then sorted twice. */
  readonly cutFirst?: boolean;
}

// TRICKY: a column is sent under another name, so that ORDER BY reads `from`'s own column and not an
// output of the same name (a label cast to text sorts otherwise than an enum).
const sent = (name: string) => `out_${name}`;

/** Pages of at most this many rows with `cutFirst` are cut before their columns are written. */
const smallPage = 1024;

/**
 * A page whose units are rows, as the expert floors read one: a single top-N statement (ORDER BY … LIMIT
 * … OFFSET) that carries the total beside each row: no head row, no window numbering every row. Only a
 * page past the last row reads the total by a statement of its own.
 */
export function topNPage(s: TopNSource): LeanPage {
  // TRICKY: the kept groups are read twice (the total, the page), so DuckDB materializes them once; a
  // window counting them beside each row cost a pass over every group on large answers.
  const kept = sql`WITH ${s.ctes},
page_units AS (SELECT * FROM ${s.from} WHERE ${s.where})`;
  const cut = (range: UnitRange) =>
    sql`ORDER BY ${s.order}${range.upTo === null ? sql`` : sql` LIMIT ${range.upTo - range.after}`} OFFSET ${range.after}`;
  const columns = join(
    s.columns.map(([name, value]) => sql`${value} AS ${ident(sent(name))}`),
    ', ',
  );
  // After the cut, the columns are computed from the page's rows alone; a query around the cut does not
  // keep its order, so the page is sorted again, which costs next to nothing for a page of at most
  // `smallPage` rows. A larger page may hold every group, and then sorting it twice cost more than the labels
  // saved (bots-v2's 26,703-row page by hour × path × bot: 115 ms, 140-163 ms with the cut).
  const rows = (range: UnitRange) =>
    s.cutFirst && range.upTo !== null && range.upTo - range.after <= smallPage
      ? sql`${kept}
SELECT ${columns}, (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ${cut(range)}) page_rows
ORDER BY ${s.order}`
      : sql`${kept}
SELECT ${columns}, (SELECT count(*) FROM page_units) AS head_total
FROM page_units
${cut(range)}`;
  const count = sql`${kept}
SELECT count(*) AS head_total FROM page_units`;
  const totalOf = async (reads: LeanReads) => Number((await reads.read(count)).columns.head_total![0] ?? 0);
  const read = async (range: UnitRange, reads: LeanReads) => {
    const batch = await reads.read(rows(range));
    const pastTheEnd = batch.length === 0 && (range.after > 0 || range.upTo === 0);
    const total = pastTheEnd ? await totalOf(reads) : Number(batch.columns.head_total?.[0] ?? 0);
    return { head: { total, info: {} }, rows: unitsOf(batch, range.after) };
  };
  const unitsOf = (batch: ColumnBatch, after: number): ColumnBatch => {
    const columns: Record<string, readonly unknown[]> = {
      unit: Array.from({ length: batch.length }, (_, i) => after + i + 1),
      seq: new Array<number>(batch.length).fill(0),
    };
    for (const [name] of s.columns) columns[name] = batch.columns[sent(name)]!;
    return { length: batch.length, columns };
  };
  return {
    role: 'page (lean: one top-N statement)',
    statements: (_answerRows, range) => [rows(range)],
    dimensions: [],
    read,
    oneStatement: true,
  };
}
