import type { FloorDb } from './db.ts';
import { createEnums, enumsIn } from './dims.ts';
import type { FloorRollup, ReportFloors } from './types.ts';
import { citationsFloors } from './citations.ts';
import { citationsV1Floors } from './citations-v1.ts';
import { botsV1Floors, botsV2Floors, rawLogsFloors, referralsV1Floors, referralsV2Floors } from './traffic.ts';
import { channelsFloors } from './channels.ts';
import { factcheckClaimsFloors } from './factcheck-claims.ts';
import { factcheckFloors } from './factcheck.ts';
import { promptAnswersFloors } from './prompt-answers.ts';
import { queryFanoutsFloors } from './query-fanouts.ts';
import { sentimentFloors } from './sentiment.ts';
import { shoppingFloors } from './shopping.ts';
import { videosFloors } from './videos.ts';
import { visibilityFloors } from './visibility.ts';
import { visibilityV1Floors } from './visibility-v1.ts';

/** The expert floors of every report the bench knows, by report name (bench/cases). */
export const reportFloors: readonly ReportFloors[] = [
  visibilityFloors,
  botsV1Floors,
  botsV2Floors,
  referralsV1Floors,
  referralsV2Floors,
  rawLogsFloors,
  citationsV1Floors,
  visibilityV1Floors,
  citationsFloors,
  shoppingFloors,
  channelsFloors,
  videosFloors,
  factcheckClaimsFloors,
  factcheckFloors,
  sentimentFloors,
  queryFanoutsFloors,
  promptAnswersFloors,
];

export function floorsOf(report: string): ReportFloors {
  const found = reportFloors.find((f) => f.report === report);
  if (!found) throw new Error(`no expert floors for report ${report} (bench/floors)`);
  return found;
}

/** Builds a report's key enums and floor rollups as types and tables of the engine's DuckDB instance (before timing). */
export async function buildRollups(db: FloorDb, floors: ReportFloors): Promise<void> {
  const rollups = floors.rollups ?? [];
  await createEnums(db, [...(floors.enums ?? []), ...rollups.flatMap((r) => enumsIn(r.sql))]);
  for (const r of rollups) await db.exec(`CREATE OR REPLACE TABLE ${r.name} AS ${r.sql}`);
}

export async function dropRollups(db: FloorDb, rollups: readonly FloorRollup[]): Promise<void> {
  for (const r of rollups) await db.exec(`DROP TABLE IF EXISTS ${r.name}`);
}
