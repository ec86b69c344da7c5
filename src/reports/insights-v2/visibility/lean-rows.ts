import type { DimensionRows } from '../../../engine/dimension-cache.ts';
import type { ColumnBatch } from '../../../query/row-shape.ts';
import type { GroupDimension } from '../../insights/dimensions.ts';
import type { LeanGroup } from './lean-groups.ts';
import type { Scored } from './lean-brands.ts';
import { declared, partsOf } from './visibility-metrics.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

/** The page's rows as the columns the report's shape reads, in unit order. */
export class RowsOut {
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
