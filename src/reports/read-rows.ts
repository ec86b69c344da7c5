import { concatBatches, sliceBatch } from '../engine/column-reads.ts';
import type { ColumnBatch, RowShape } from '../query/row-shape.ts';
import type { CallContext, RowsResult } from './endpoint.ts';
import { Decoder } from './dictionaries.ts';
import { codedColumns, headOf, pageStatements, type Head, type ShapedReport, type UnitRange } from './rows-query.ts';

/** Runs a page's one statement: its head, and its rows as columns. */
export async function readPage(
  ctx: CallContext,
  c: ShapedReport,
  range: UnitRange,
): Promise<{ head: Head; rows: ColumnBatch }> {
  const backend = ctx.core.backend;
  if (c.lean && ctx.core.leanPages)
    return c.lean.read(range, {
      read: (q) => backend.read(q, ctx.signal),
      dimension: (spec, scopeId) => ctx.core.dimensions.rows(spec, scopeId, ctx.signal),
    });
  const batch = concatBatches(
    await Promise.all(pageStatements(c, range, backend.dialect).map((q) => backend.read(q, ctx.signal))),
  );
  const decoder = new Decoder(codedColumns(c, range, backend.dialect));
  if (decoder.empty) return { head: headOf(batch), rows: sliceBatch(batch, 1) };
  decoder.take(batch, 0);
  return { head: headOf(batch), rows: decoder.decode(batch, 1) };
}

/** A page already read, as a rows result. */
export function pageResult(shape: RowShape, head: Record<string, unknown>, rows: ColumnBatch): RowsResult {
  return {
    kind: 'rows',
    framing: 'page',
    shape,
    read: async function* () {
      yield { head };
      yield { batch: rows };
    },
  };
}
