import type { DimensionRows } from '../../../engine/dimension-cache.ts';
import type { ColumnBatch } from '../../../query/row-shape.ts';
import { sql } from '../../../query/sql.ts';
import { compareText } from '../../../query/text-order.ts';
import type { LeanPage, LeanReads, UnitRange } from '../../rows-query.ts';
import { keeps, mentionsByGroup, rankOrder, scoreGroup } from './lean-brands.ts';
import { dimensionOf, leanGroups } from './lean-groups.ts';
import { RowsOut } from './lean-rows.ts';
import { leanStatements, pageBound, type LeanSources } from './lean-statements.ts';
import { bestFirst, type VisibilityPlan } from './visibility-plan.ts';

const assetsSpec = { table: 'assets', columns: ['name', 'is_owned'], scope: 'category' } as const;
const modelsSpec = { table: 'models', columns: ['name'], scope: 'global' } as const;

/**
 * Visibility's lean page (plans without fill or compare): the groups are counted and ordered in JS, then
 * only the mentions of the page's groups are read, and each group's
 * brands ranked as the statement path ranks them (sort metric best first, NULLs last, then name, then id).
 * The ungrouped answer reads all its mentions (one group). Past `LeanReads.answerRows` answer rows the groups
 * are not few, and the page is read through the one-statement form.
 */
export function leanVisibility(plan: VisibilityPlan, rollups: LeanSources | null): LeanPage {
  const s = leanStatements(plan, rollups);
  const dims = plan.groupBy;
  const best = bestFirst[plan.sort.field];
  const reversed = plan.sort.dir !== best;

  /** The groups, the brands the request keeps, the total and the info. */
  const prepare = async (reads: LeanReads) => {
    const parts = s.ungrouped ? splitParts(await reads.read(s.ungrouped)) : null;
    const answers = parts?.answers ?? (await reads.read(s.answers(reads.answerRows)));
    if (answers.length > reads.answerRows) return null;
    const models = parts?.models ?? (s.models ? await reads.read(s.models) : null);
    const early = parts?.mentions ?? null;
    const assets = reads.dimension(assetsSpec, plan.categoryId);
    const groups = leanGroups(dims, answers, reads, plan.categoryId);
    const names = assets.columns.name!;
    const owned = assets.columns.is_owned!;
    const kept = new Set(assets.ids.flatMap((id, a) => (keeps(plan, id, names[a], owned[a]) ? [a] : [])));
    const info = { models: modelsIn(s.withModel ? answers : models!, reads.dimension(modelsSpec, null)) };
    return { groups, assets, kept, early, head: { total: groups.length * kept.size, info } };
  };
  type Prepared = NonNullable<Awaited<ReturnType<typeof prepare>>>;

  /** The rows of units `range` (within whole groups `first` to `last`, exclusive). */
  const build = async (p: Prepared, reads: LeanReads, first: number, last: number, range: UnitRange) => {
    const k = p.kept.size;
    const page = p.groups.slice(first, last);
    const mentions = p.early ?? (page.length > 0 ? await reads.read(s.mentions(pageBound(plan, page))) : null);
    const byGroup = mentionsByGroup(dims.length, mentions);
    const rows = new RowsOut(dims, plan);
    page.forEach((g, i) => {
      const scored = scoreGroup(g, p.assets, byGroup.get(g.id));
      const order = rankOrder(scored, plan.sort.field, best, p.assets);
      const placed = order.filter((a) => p.kept.has(a));
      if (reversed) placed.reverse();
      const rankOf = new Map(order.map((a, r) => [a, r + 1]));
      placed.forEach((a, place) => {
        const unit = (first + i) * k + place + 1;
        if (unit > range.after && (range.upTo === null || unit <= range.upTo))
          rows.push(unit, g, p.assets, a, rankOf.get(a)!, scored[a]!);
      });
    });
    return rows.batch();
  };

  const read = async (range: UnitRange, reads: LeanReads) => {
    const p = await prepare(reads);
    if (!p) return null;
    const k = p.kept.size;
    const first = k === 0 ? p.groups.length : Math.floor(range.after / k);
    const last =
      k === 0 || range.upTo === null ? p.groups.length : Math.min(p.groups.length, Math.ceil(range.upTo / k));
    return { head: p.head, rows: await build(p, reads, first, last, range) };
  };

  const dimensions = [
    { spec: assetsSpec, scopeId: plan.categoryId },
    { spec: modelsSpec, scopeId: null },
    ...dims.flatMap((d) => dimensionOf(d, plan.categoryId) ?? []),
  ];
  return {
    role: 'page (lean: then ranked and cut in JS)',
    statements: (answerRows) =>
      s.ungrouped ? [s.ungrouped] : [s.answers(answerRows), ...(s.models ? [s.models] : []), s.mentions(sql``)],
    dimensions,
    read,
    oneStatement: s.ungrouped !== null,
  };
}

/** The ungrouped statement's parts as the batches the grouped statements give. */
function splitParts(batch: ColumnBatch): { answers: ColumnBatch; mentions: ColumnBatch; models: ColumnBatch } {
  const { part, id, n, position_sum: positions } = batch.columns;
  const rows = (p: number) => [...Array(batch.length).keys()].filter((i) => Number(part![i]) === p);
  const [a, m, s] = [rows(0), rows(1), rows(2)];
  return {
    answers: { length: a.length, columns: { model_id: a.map((i) => id![i]), n: a.map((i) => n![i]) } },
    mentions: {
      length: m.length,
      columns: {
        asset_id: m.map((i) => id![i]),
        mentions: m.map((i) => n![i]),
        position_sum: m.map((i) => positions![i]),
      },
    },
    models: { length: s.length, columns: { model_id: s.map((i) => id![i]) } },
  };
}

function modelsIn(batch: ColumnBatch, models: DimensionRows): string[] {
  const names = new Set<string>();
  for (const id of batch.columns.model_id ?? []) {
    const row = models.rowOf.get(String(id));
    const name = row === undefined ? null : models.columns.name![row];
    if (typeof name === 'string') names.add(name);
  }
  return [...names].sort(compareText);
}
