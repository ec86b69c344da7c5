import type { DimensionRows } from '../../../engine/dimension-cache.ts';
import type { ColumnBatch } from '../../../query/row-shape.ts';
import { and, join, list, sql, type Fragment, type SqlValue } from '../../../query/sql.ts';
import { compareText, compareValues } from '../../../query/text-order.ts';
import { nextBucket } from '../../../query/time.ts';
import { groupKey, promptDimensions, type GroupDimension } from '../../insights/dimensions.ts';
import type { VisibilityRollup } from '../../insights/visibility-rollup.ts';
import type { LeanPage, LeanReads, UnitRange } from '../../rows-query.ts';
import { groupId, leanGroups, type LeanGroup } from './lean-groups.ts';
import { declared, partsOf } from './visibility-metrics.ts';
import { bestFirst, metricNames, type VisibilityPlan } from './visibility-plan.ts';
import { rollupFrom, visibilityPrompts, visibilityWindow } from './visibility-sources.ts';

const assetsSpec = { table: 'assets', columns: ['name', 'is_owned'], scope: 'category' } as const;
const modelsSpec = { table: 'models', columns: ['name'], scope: 'global' } as const;

interface Sources {
  readonly rows: VisibilityRollup;
  readonly models: VisibilityRollup;
}

/** The three small statements: answers per group (and model, when the source keeps it), the models in scope, and mentions per group and brand. */
function statements(plan: VisibilityPlan, rollups: Sources | null) {
  const window = visibilityWindow(plan);
  const keys = plan.groupBy.map((d) => sql`${groupKey(d, plan.interval)}, `);
  const keysSelect = join(keys, '');
  const withModel = !rollups || rollups.rows.keeps.includes('model');
  const model = withModel ? sql`f.model_id, ` : sql``;
  if (rollups) {
    return {
      withModel,
      answers: sql`SELECT ${keysSelect}${model}sum(f.executions) AS n FROM ${rollupFrom(rollups.rows, 'executions')} WHERE ${window} GROUP BY ALL`,
      models: withModel
        ? null
        : sql`SELECT DISTINCT f.model_id FROM ${rollupFrom(rollups.models, 'executions')} WHERE ${window}`,
      mentions: (bound: Fragment) =>
        sql`SELECT ${keysSelect}f.asset_id, sum(f.mentions) AS mentions, sum(f.position_sum) AS position_sum FROM ${rollupFrom(rollups.rows, 'mentions')} WHERE ${window}${bound} GROUP BY ALL`,
    };
  }
  const prompts = visibilityPrompts(plan);
  return {
    withModel,
    answers: sql`WITH ${prompts} SELECT ${keysSelect}${model}count(*) AS n FROM executions f JOIN visibility_prompts p ON p.id = f.prompt_id WHERE ${window} GROUP BY ALL`,
    models: null,
    mentions: (bound: Fragment) =>
      sql`WITH ${prompts} SELECT ${keysSelect}f.asset_id, count(*) AS mentions, sum(f.position) AS position_sum FROM mentions f JOIN visibility_prompts p ON p.id = f.prompt_id WHERE ${window}${bound} GROUP BY ALL`,
  };
}

const isoDay = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);

/** Mentions bounded to the page's groups: their days, and each other key among the page's values. */
function pageBound(plan: VisibilityPlan, page: readonly LeanGroup[]): Fragment {
  const parts = plan.groupBy.map((d, i) => {
    const values = page.map((g) => g.keys[i]);
    if (d === 'date') {
      const days = values.map(isoDay).sort();
      return sql`f.day >= CAST(${days[0]!} AS DATE) AND f.day < CAST(${nextBucket(plan.interval, days.at(-1)!)} AS DATE)`;
    }
    const column = promptDimensions[d].column;
    const present = [...new Set(values.filter((v) => v !== null && v !== undefined))] as SqlValue[];
    const hits = [
      ...(present.length > 0 ? [sql`${column} IN (${list(present)})`] : []),
      ...(present.length < values.length ? [sql`${column} IS NULL`] : []),
    ];
    return sql`(${join(hits, ' OR ')})`;
  });
  return parts.length === 0 ? sql`` : sql` AND ${and(parts)}`;
}

/** Whether the request keeps a brand (scope and assets), as SQL's three-valued predicate reads it: NULL keeps nothing. */
function keeps(plan: VisibilityPlan, id: string, name: unknown, owned: unknown): boolean {
  if (plan.scope === 'owned' && owned !== true) return false;
  if (!plan.assets) return true;
  const values = Array.isArray(plan.assets.value) ? plan.assets.value : [plan.assets.value];
  const hit = values.includes(id) || (typeof name === 'string' && values.includes(name));
  if (hit) return plan.assets.op !== 'not_in';
  return plan.assets.op === 'not_in' && typeof name === 'string';
}

/** Each part a visibility formula reads, for one brand of one group. */
type Parts = {
  readonly mentioned: number;
  readonly mentions: number;
  readonly executions: number;
  readonly total_mentions: number;
  readonly position_sum: number | null;
};

interface Scored {
  readonly parts: Parts;
  readonly metric: Readonly<Record<string, number | null>>;
}

/**
 * Visibility's lean page (plans without fill or compare): the groups are counted and ordered in JS, then
 * only the page's groups' mentions are read, and each group's brands ranked as the statement path ranks
 * them (sort metric best first, NULLs last, then name, then id). The ungrouped answer reads its mentions
 * beside its answers.
 */
export function leanVisibility(plan: VisibilityPlan, rollups: Sources | null): LeanPage {
  const s = statements(plan, rollups);
  const dims = plan.groupBy;
  const best = bestFirst[plan.sort.field];
  const reversed = plan.sort.dir !== best;
  const read = async (range: UnitRange, reads: LeanReads) => {
    const [answers, models, early, assets, modelNames] = await Promise.all([
      reads.read(s.answers),
      s.models ? reads.read(s.models) : null,
      dims.length === 0 ? reads.read(s.mentions(sql``)) : null,
      reads.dimension(assetsSpec, plan.categoryId),
      reads.dimension(modelsSpec, null),
    ]);
    const groups = await leanGroups(dims, answers, reads, plan.categoryId);
    const info = { models: modelsIn(s.withModel ? answers : models!, modelNames) };
    const names = assets.columns.name!;
    const owned = assets.columns.is_owned!;
    const kept = new Set(assets.ids.flatMap((id, a) => (keeps(plan, id, names[a], owned[a]) ? [a] : [])));
    const k = kept.size;
    const total = groups.length * k;
    const first = k === 0 ? groups.length : Math.floor(range.after / k);
    const last = k === 0 || range.upTo === null ? groups.length : Math.min(groups.length, Math.ceil(range.upTo / k));
    const page = groups.slice(first, last);
    const mentions = early ?? (page.length > 0 ? await reads.read(s.mentions(pageBound(plan, page))) : null);
    const byGroup = mentionsByGroup(dims.length, mentions);
    const rows = new RowsOut(dims, plan);
    page.forEach((g, i) => {
      const scored = scoreGroup(g, assets, byGroup.get(g.id));
      const order = rankOrder(scored, plan.sort.field, best, assets);
      const placed = order.filter((a) => kept.has(a));
      if (reversed) placed.reverse();
      const rankOf = new Map(order.map((a, r) => [a, r + 1]));
      placed.forEach((a, place) => {
        const unit = (first + i) * k + place + 1;
        if (unit > range.after && (range.upTo === null || unit <= range.upTo))
          rows.push(unit, g, assets, a, rankOf.get(a)!, scored[a]!);
      });
    });
    return { head: { total, info }, rows: rows.batch() };
  };
  return { statements: [s.answers, ...(s.models ? [s.models] : []), s.mentions(sql``)], read };
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

interface GroupMentions {
  readonly count: Map<string, number>;
  readonly positionSum: Map<string, number | null>;
  total: number;
}

function mentionsByGroup(keyCount: number, batch: ColumnBatch | null): Map<string, GroupMentions> {
  const out = new Map<string, GroupMentions>();
  if (!batch) return out;
  const keyColumns = Object.values(batch.columns).slice(0, keyCount);
  const { asset_id: ids, mentions, position_sum: positions } = batch.columns;
  for (let i = 0; i < batch.length; i++) {
    const id = groupId(keyColumns.map((c) => c[i]));
    let m = out.get(id);
    if (!m) out.set(id, (m = { count: new Map(), positionSum: new Map(), total: 0 }));
    const n = Number(mentions![i]);
    const asset = String(ids![i]);
    m.count.set(asset, n);
    m.positionSum.set(asset, positions![i] === null ? null : Number(positions![i]));
    m.total += n;
  }
  return out;
}

function scoreGroup(g: LeanGroup, assets: DimensionRows, m: GroupMentions | undefined): Scored[] {
  return assets.ids.map((id) => {
    const mentions = m?.count.get(id) ?? 0;
    const parts: Parts = {
      mentioned: mentions,
      mentions,
      executions: g.n,
      total_mentions: m?.total ?? 0,
      position_sum: m?.positionSum.get(id) ?? null,
    };
    return { parts, metric: Object.fromEntries(metricNames.map((name) => [name, declared[name].value(parts)])) };
  });
}

/** The brands of a group by the sort metric best first (NULLs last), then name, then id: index 0 is rank 1. */
function rankOrder(scored: readonly Scored[], field: string, best: 'asc' | 'desc', assets: DimensionRows): number[] {
  const names = assets.columns.name!;
  return scored
    .map((_, a) => a)
    .sort((a, b) => {
      const [x, y] = [scored[a]!.metric[field] ?? null, scored[b]!.metric[field] ?? null];
      if (x !== y) {
        if (x === null) return 1;
        if (y === null) return -1;
        return best === 'desc' ? y - x : x - y;
      }
      return compareValues(names[a], names[b]) || compareText(assets.ids[a]!, assets.ids[b]!);
    });
}

/** The page's rows as the columns the report's shape reads, in unit order. */
class RowsOut {
  private readonly columns: Record<string, unknown[]>;
  private length = 0;
  private readonly parts: ReturnType<typeof partsOf>;

  constructor(
    private readonly dims: readonly GroupDimension[],
    private readonly plan: VisibilityPlan,
  ) {
    this.parts = partsOf(plan);
    const names = [
      'unit',
      'seq',
      ...dims.flatMap((d) => (d === 'date' ? ['k_date'] : [`k_${d}`, `n_${d}`])),
      'asset_name',
      'asset_owned',
      'rank',
      ...plan.metrics,
      ...this.parts.map((p) => p.name),
    ];
    this.columns = Object.fromEntries(names.map((n) => [n, []]));
  }

  push(unit: number, g: LeanGroup, assets: DimensionRows, asset: number, rank: number, s: Scored): void {
    const c = this.columns;
    c.unit!.push(unit);
    c.seq!.push(0);
    this.dims.forEach((d, i) => {
      c[`k_${d}`]!.push(g.keys[i]);
      if (d !== 'date') c[`n_${d}`]!.push(g.names[i]);
    });
    c.asset_name!.push(assets.columns.name![asset]);
    c.asset_owned!.push(assets.columns.is_owned![asset]);
    c.rank!.push(rank);
    for (const m of this.plan.metrics) c[m]!.push(s.metric[m]);
    if (this.parts.length > 0) {
      const built = { ...s.parts, position_sum: s.parts.position_sum ?? 0 };
      for (const m of this.plan.metrics) {
        const t = declared[m].termValues(built);
        c[`${m}_numerator`]!.push(t.numerator);
        c[`${m}_denominator`]!.push(t.denominator);
      }
    }
    this.length++;
  }

  batch(): ColumnBatch {
    return { length: this.length, columns: this.columns };
  }
}
