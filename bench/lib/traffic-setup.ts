import type { Engine } from '../../src/engine/engine.ts';
import { trafficHourly } from '../../src/reports/traffic/traffic-rollup.ts';
import type { BenchDataset } from './dataset.ts';

/** Builds the engine's hourly traffic rollup of every organization before timing, as the floors build theirs. */
export async function warmTraffic(engine: Engine, dataset: BenchDataset): Promise<void> {
  await engine.core.rollups.warm(trafficHourly, [...new Set(dataset.categories.map((c) => c.organizationId))]);
}
