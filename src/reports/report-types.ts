import type { z } from 'zod';
import type { channelsReport } from './insights-v2/social/channels.ts';
import type { citationsReport } from './insights-v2/citations/citations.ts';
import type { factcheckClaimsReport } from './insights-v2/factcheck/factcheck-claims.ts';
import type { factcheckReport } from './insights-v2/factcheck/factcheck.ts';
import type { queryFanoutsReport } from './insights-v2/query-fanouts.ts';
import type { sentimentReport } from './insights-v2/sentiment/sentiment.ts';
import type { shoppingProductsReport } from './insights-v2/shopping/shopping-products.ts';
import type { videosReport } from './insights-v2/social/videos.ts';
import type { visibilityReport } from './insights-v2/visibility/visibility.ts';
import type { promptAnswersReport } from './answers/prompt-answers.ts';
import type { PromptAnswersV1Body } from './answers/prompt-answers-v1.ts';
import type { citationsV1Report } from './tabular-v1/citations.ts';
import type { queryFanoutsV1Report } from './tabular-v1/query-fanouts.ts';
import type { sentimentV1Report } from './tabular-v1/sentiment.ts';
import type { visibilityV1Report } from './tabular-v1/visibility.ts';
import type { botsV1Report, botsV2Report } from './traffic/bots.ts';
import type { referralsV1Report, referralsV2Report } from './traffic/referrals.ts';
import type { rawBotLogsReport, rawLogsReport } from './traffic/raw-logs.ts';
import type * as V2 from './insights-v2/answer-types.ts';
import type {
  PromptAnswerRow,
  PromptAnswersInfo,
  PromptAnswersV1Info,
  PromptAnswerV1Row,
} from './answers/answer-types.ts';
import type { TabularInfo, TabularRow, TabularSummary } from './tabular/tabular-answer.ts';

/**
 * The library's typed reports: for every report method of the registry (src/registry.ts), the
 * body it takes (its declaration's schema input) and the answer it gives. `test/report-types.test.ts`
 * checks that these names are exactly the registry's.
 */

/** The body a report declaration's schema takes, before defaults. */
export type BodyOf<R extends { readonly schema: z.ZodType }> =
  R['schema'] extends z.ZodType<unknown, infer In> ? In : never;

/** A report whose page is `{info, data}` and, when it has one, whose stream's summary is `Summary`. */
export interface Declared<Body, Info, Row, Summary> {
  readonly body: Body;
  readonly info: Info;
  readonly row: Row;
  readonly summary: Summary;
}

type V2Report<R extends { readonly schema: z.ZodType }, Info, Row> = Declared<BodyOf<R>, Info, Row, Info>;
type Tabular<R extends { readonly schema: z.ZodType }> = Declared<BodyOf<R>, TabularInfo, TabularRow, TabularSummary>;

/** Every report's page method, by library name. */
export interface ReportTypes {
  visibility: V2Report<typeof visibilityReport, V2.VisibilityInfo, V2.VisibilityRow>;
  shoppingProducts: V2Report<typeof shoppingProductsReport, V2.ShoppingInfo, V2.ShoppingRow>;
  youtubeChannels: V2Report<typeof channelsReport, V2.ChannelsInfo, V2.ChannelRow>;
  videoplatformChannels: V2Report<typeof channelsReport, V2.ChannelsInfo, V2.ChannelRow>;
  youtubeVideos: V2Report<typeof videosReport, V2.VideosInfo, V2.VideoRow>;
  videoplatformVideos: V2Report<typeof videosReport, V2.VideosInfo, V2.VideoRow>;
  factcheckClaims: V2Report<typeof factcheckClaimsReport, V2.ClaimsInfo, V2.ClaimsRow>;
  citations: V2Report<typeof citationsReport, V2.CitationsInfo, V2.CitationsRow>;
  sentiment: V2Report<typeof sentimentReport, V2.SentimentInfo, V2.SentimentRow>;
  queryFanouts: V2Report<typeof queryFanoutsReport, V2.FanoutsInfo, V2.FanoutsRow>;
  factcheck: V2Report<typeof factcheckReport, V2.FactcheckInfo, V2.FactcheckRow>;
  promptAnswers: V2Report<typeof promptAnswersReport, PromptAnswersInfo, PromptAnswerRow>;
  promptAnswersV1: Declared<PromptAnswersV1Body, PromptAnswersV1Info, PromptAnswerV1Row, never>;
  citationsV1: Tabular<typeof citationsV1Report>;
  visibilityV1: Tabular<typeof visibilityV1Report>;
  sentimentV1: Tabular<typeof sentimentV1Report>;
  queryFanoutsV1: Tabular<typeof queryFanoutsV1Report>;
  botsV1: Tabular<typeof botsV1Report>;
  bots: Tabular<typeof botsV2Report>;
  referralsV1: Tabular<typeof referralsV1Report>;
  referrals: Tabular<typeof referralsV2Report>;
  rawLogs: Tabular<typeof rawLogsReport>;
  rawBotLogs: Tabular<typeof rawBotLogsReport>;
}

/** The reports that also stream (`<name>Stream`). */
export type StreamedReport =
  | 'visibility'
  | 'shoppingProducts'
  | 'youtubeChannels'
  | 'videoplatformChannels'
  | 'youtubeVideos'
  | 'videoplatformVideos'
  | 'factcheckClaims'
  | 'citations'
  | 'sentiment'
  | 'queryFanouts'
  | 'factcheck'
  | 'promptAnswers'
  | 'citationsV1'
  | 'visibilityV1'
  | 'sentimentV1';

/** The library's report method names at run time, each with whether it streams (the registry test compares them). */
export const typedReports = {
  visibility: true,
  shoppingProducts: true,
  youtubeChannels: true,
  videoplatformChannels: true,
  youtubeVideos: true,
  videoplatformVideos: true,
  factcheckClaims: true,
  citations: true,
  sentiment: true,
  queryFanouts: true,
  factcheck: true,
  promptAnswers: true,
  promptAnswersV1: false,
  citationsV1: true,
  visibilityV1: true,
  sentimentV1: true,
  queryFanoutsV1: false,
  botsV1: false,
  bots: false,
  referralsV1: false,
  referrals: false,
  rawLogs: false,
  rawBotLogs: false,
} as const satisfies { readonly [K in keyof ReportTypes]: K extends StreamedReport ? true : false };
