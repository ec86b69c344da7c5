import type { RollupDef } from '../engine/rollups.ts';
import { answersDaily } from './insights/answers-rollup.ts';
import { citationsDaily } from './insights/citations-rollup.ts';
import { factcheckAnswers } from './insights/factcheck-rollup.ts';
import { fanoutsDaily } from './insights/fanouts-rollup.ts';
import { platformDaily } from './insights/platform-rollup.ts';
import { sentimentDaily } from './insights/sentiment-rollup.ts';
import { shoppingDaily } from './insights/shopping-rollup.ts';
import { visibilityRollups } from './insights/visibility-rollup.ts';
import { trafficDaily } from './traffic/traffic-daily.ts';
import { trafficHourly } from './traffic/traffic-rollup.ts';

/** Every rollup the reports read: what `aea rollups build` builds and a stored rollup may be of. */
export const rollupCatalog: readonly RollupDef[] = [
  ...visibilityRollups.map((r) => r.def),
  answersDaily,
  citationsDaily,
  factcheckAnswers,
  fanoutsDaily,
  platformDaily,
  sentimentDaily,
  shoppingDaily,
  trafficHourly,
  trafficDaily,
];
