import type { ColumnBatch, RowShape } from '../../src/query/row-shape.ts';
import type { RowsResult } from '../../src/query/rows-result.ts';

/** A page's rows as the engine hands them to a format: the head, then the batches. */
export const rowsOf = (shape: RowShape, batches: ColumnBatch[], head: Record<string, unknown>): RowsResult => ({
  kind: 'rows',
  framing: 'page',
  shape,
  read: async function* () {
    yield { head };
    for (const batch of batches) yield { batch };
  },
});
