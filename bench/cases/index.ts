import type { ReportCase } from '../lib/case.ts';
import { botsV1Case, botsV2Case } from './bots.ts';
import { channelsCase } from './channels.ts';
import { citationsCase } from './citations.ts';
import { citationsV1Case } from './citations-v1.ts';
import { factcheckClaimsCase } from './factcheck-claims.ts';
import { factcheckCase } from './factcheck.ts';
import { shoppingCase } from './shopping.ts';
import { rawLogsCase } from './raw-logs.ts';
import { promptAnswersCase } from './prompt-answers.ts';
import { queryFanoutsCase } from './query-fanouts.ts';
import { referralsV1Case, referralsV2Case } from './referrals.ts';
import { sentimentCase } from './sentiment.ts';
import { visibilityCase } from './visibility.ts';
import { videosCase } from './videos.ts';
import { visibilityV1Case } from './visibility-v1.ts';

/** Every report the bench knows: one case module each. */
export const reportCases: readonly ReportCase[] = [
  visibilityCase,
  shoppingCase,
  channelsCase,
  videosCase,
  factcheckClaimsCase,
  citationsCase,
  sentimentCase,
  queryFanoutsCase,
  factcheckCase,
  promptAnswersCase,
  citationsV1Case,
  visibilityV1Case,
  botsV1Case,
  botsV2Case,
  referralsV1Case,
  referralsV2Case,
  rawLogsCase,
];
