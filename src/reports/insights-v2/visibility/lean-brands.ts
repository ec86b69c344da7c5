import type { DimensionRows } from '../../../engine/dimension-cache.ts';
import type { ColumnBatch } from '../../../query/row-shape.ts';
import { compareText, compareValues } from '../../../query/text-order.ts';
import { groupId, type LeanGroup } from './lean-groups.ts';
import { declared, visibilityRank } from './visibility-metrics.ts';
import type { Metric, VisibilityPlan } from './visibility-plan.ts';

/** Whether the request keeps a brand (scope and assets), as SQL's three-valued predicate reads it: NULL keeps nothing. */
export function keeps(plan: VisibilityPlan, id: string, name: unknown, owned: unknown): boolean {
  if (plan.scope === 'owned' && owned !== true) return false;
  if (!plan.assets) return true;
  const values = Array.isArray(plan.assets.value) ? plan.assets.value : [plan.assets.value];
  const hit = values.includes(id) || (typeof name === 'string' && values.includes(name));
  if (hit) return plan.assets.op !== 'not_in';
  return plan.assets.op === 'not_in' && typeof name === 'string';
}

/** Each part a visibility formula reads, for one brand of one group. */
export type Parts = {
  readonly mentioned: number;
  readonly mentions: number;
  readonly executions: number;
  readonly total_mentions: number;
  readonly position_sum: number | null;
};

export interface Scored {
  readonly parts: Parts;
  readonly metric: Readonly<Record<string, number | null>>;
}

export interface GroupMentions {
  readonly count: Map<string, number>;
  readonly positionSum: Map<string, number | null>;
  total: number;
}

export function mentionsByGroup(keyCount: number, batch: ColumnBatch | null): Map<string, GroupMentions> {
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

const visibilityScore = declared.visibility_score.evaluator();
const shareOfVoice = declared.share_of_voice.evaluator();
const averagePosition = declared.average_position.evaluator();

export function scoreGroup(g: LeanGroup, assets: DimensionRows, m: GroupMentions | undefined): Scored[] {
  return assets.ids.map((id) => {
    const mentions = m?.count.get(id) ?? 0;
    const parts: Parts = {
      mentioned: mentions,
      mentions,
      executions: g.n,
      total_mentions: m?.total ?? 0,
      position_sum: m?.positionSum.get(id) ?? null,
    };
    const metric: Record<Metric, number | null> = {
      visibility_score: visibilityScore(parts),
      share_of_voice: shareOfVoice(parts),
      average_position: averagePosition(parts),
    };
    return { parts, metric };
  });
}

/** The brands of a group by the sort metric best first (NULLs last), then name, then id: index 0 is rank 1. */
export function rankOrder(
  scored: readonly Scored[],
  field: string,
  best: 'asc' | 'desc',
  assets: DimensionRows,
): number[] {
  const names = assets.columns.name!;
  const keys = visibilityRank.compareKeys(best);
  return scored
    .map((_, a) => a)
    .sort(
      (a, b) =>
        keys([scored[a]!.metric[field] ?? null], [scored[b]!.metric[field] ?? null]) ||
        compareValues(names[a], names[b]) ||
        compareText(assets.ids[a]!, assets.ids[b]!),
    );
}
