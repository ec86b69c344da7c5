import type { ColumnBatch } from '../query/row-shape.ts';
import { dictionaryColumn } from './rows-query.ts';

/**
 * Turns dictionary codes back into text. A statement that codes a column sends the column's
 * dictionary once (the JSON text of its distinct values, in code order) in a row before the rows that
 * use it; `take` reads it, and `decode` gives the rows with each code replaced by its text. A column
 * that a statement did not code arrives as text and passes through.
 */
export class Decoder {
  private readonly dictionaries = new Map<string, readonly string[]>();

  constructor(private readonly columns: readonly string[]) {}

  get empty(): boolean {
    return this.columns.length === 0;
  }

  /** Reads the dictionaries row `row` of the batch carries, if any. */
  take(batch: ColumnBatch, row: number): void {
    for (const column of this.columns) {
      const text = batch.columns[dictionaryColumn(column)]?.[row];
      if (typeof text === 'string') this.dictionaries.set(column, JSON.parse(text) as string[]);
    }
  }

  /** Rows `from` to the end, codes replaced by text, the dictionary columns left out. */
  decode(batch: ColumnBatch, from = 0): ColumnBatch {
    const columns: Record<string, readonly unknown[]> = {};
    const dropped = new Set(this.columns.map(dictionaryColumn));
    for (const [name, values] of Object.entries(batch.columns)) {
      if (dropped.has(name)) continue;
      const rows = from === 0 ? values : values.slice(from);
      const dictionary = this.dictionaries.get(name);
      columns[name] =
        dictionary && this.columns.includes(name) ? rows.map((v) => (typeof v === 'number' ? dictionary[v] : v)) : rows;
    }
    return { length: Math.max(0, batch.length - from), columns };
  }
}
