import type { RollupDef } from '../../src/engine/rollups.ts';
import type { ReportCase } from './case.ts';

/** A case's setup that builds the engine's category rollups before timing, as a warm engine holds them. */
export const warmCategoryRollups =
  (...defs: RollupDef[]): NonNullable<ReportCase['setup']> =>
  async (engine, dataset) => {
    const categories = [...new Set(dataset.categories.map((c) => c.categoryId))];
    for (const def of defs) await engine.core.rollups.warm(def, categories);
  };
