import type { Engine } from '../../src/library/engine.ts';
import { trafficDaily } from '../../src/reports/traffic/traffic-daily.ts';
import { trafficHourly } from '../../src/reports/traffic/traffic-rollup.ts';
import type { BenchDataset } from './dataset.ts';

/** Builds the engine's hourly and daily traffic rollups of every organization before timing, as the floors build theirs. */
export async function warmTraffic(engine: Engine, dataset: BenchDataset): Promise<void> {
  const organizations = [...new Set(dataset.categories.map((c) => c.organizationId))];
  await engine.core.rollups.warm(trafficHourly, organizations);
  await engine.core.rollups.warm(trafficDaily, organizations);
}
