import { concatBatches, sliceBatch } from '../engine/column-reads.ts';
import type { ColumnBatch, RowShape } from '../query/row-shape.ts';
import type { CallContext, RowsResult, Statement } from './endpoint.ts';
import { Decoder } from './dictionaries.ts';
import type { DimensionRows, DimensionSpec } from '../engine/dimension-cache.ts';
import {
  codedColumns,
  headOf,
  pageStatements,
  type Head,
  type LeanPage,
  type ShapedReport,
  type UnitRange,
} from './rows-query.ts';

/** A page's statements as explain shows them: its lean form's when pages read it. */
export function pageStatement(ctx: CallContext, c: ShapedReport, range: UnitRange): Statement {
  const lean = c.lean;
  return lean && ctx.core.leanPages
    ? { role: lean.role, queries: () => lean.statements(ctx.core.limits.leanAnswerRows, range) }
    : { role: 'page', queries: (dialect) => pageStatements(c, range, dialect) };
}

/** Runs a page's one statement: its head, and its rows as columns. */
export async function readPage(
  ctx: CallContext,
  c: ShapedReport,
  range: UnitRange,
): Promise<{ head: Head; rows: ColumnBatch }> {
  const backend = ctx.core.backend;
  if (c.lean && ctx.core.leanPages) {
    const page = await leanPage(ctx, c.lean, range);
    if (page) return page;
  }
  const batch = concatBatches(
    await Promise.all(pageStatements(c, range, backend.dialect).map((q) => backend.read(q, ctx.signal))),
  );
  const decoder = new Decoder(codedColumns(c, range, backend.dialect));
  if (decoder.empty) return { head: headOf(batch), rows: sliceBatch(batch, 1) };
  decoder.take(batch, 0);
  return { head: headOf(batch), rows: decoder.decode(batch, 1) };
}

/**
 * A lean page: its dimension tables from memory first, then its statements in one snapshot. Null when its
 * groups are not few, or an edit committed meanwhile (the names might not match the rows): the caller then
 * reads the one-statement page, which ranks in SQL and cannot tear.
 */
async function leanPage(
  ctx: CallContext,
  lean: LeanPage,
  range: UnitRange,
): Promise<{ head: Head; rows: ColumnBatch } | null> {
  const { backend, state } = ctx.core;
  const answerRows = ctx.core.limits.leanAnswerRows;
  const generation = state.generation;
  const dimension = await leanDimensions(ctx, lean);
  const page =
    backend.together && !lean.oneStatement
      ? await backend.together((read) => lean.read(range, { read, dimension, answerRows }), ctx.signal)
      : await lean.read(range, { read: (q) => backend.read(q, ctx.signal), dimension, answerRows });
  if (page && state.generation === generation) {
    ctx.core.stats.leanPages++;
    return page;
  }
  ctx.core.stats.leanFallbacks++;
  return null;
}

/** A lean page's dimension tables from memory, each as `LeanReads.dimension` serves it. */
async function leanDimensions(ctx: CallContext, lean: LeanPage) {
  const tables = await Promise.all(lean.dimensions.map((d) => ctx.core.dimensions.rows(d.spec, d.scopeId, ctx.signal)));
  return (spec: DimensionSpec, scopeId: string | null): DimensionRows => {
    const i = lean.dimensions.findIndex(
      (d) => d.spec.table === spec.table && d.spec.columns.join() === spec.columns.join() && d.scopeId === scopeId,
    );
    if (i < 0) throw new Error(`a lean page read the dimension ${spec.table}, which it did not declare`);
    return tables[i]!;
  };
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
