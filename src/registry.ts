import type { Endpoint } from './reports/endpoint.ts';
import { Routes, type Match } from './reports/routes.ts';
import { channelsReport } from './reports/insights-v2/social/channels.ts';
import { videosReport } from './reports/insights-v2/social/videos.ts';
import { citationsReport } from './reports/insights-v2/citations/citations.ts';
import { sentimentReport } from './reports/insights-v2/sentiment/sentiment.ts';
import { queryFanoutsReport } from './reports/insights-v2/query-fanouts.ts';
import { factcheckReport } from './reports/insights-v2/factcheck/factcheck.ts';
import { promptAnswersReport } from './reports/answers/prompt-answers.ts';
import { promptAnswersV1Report } from './reports/answers/prompt-answers-v1.ts';
import { factcheckClaimsReport } from './reports/insights-v2/factcheck/factcheck-claims.ts';
import { shoppingProductsReport } from './reports/insights-v2/shopping/shopping-products.ts';
import { visibilityReport } from './reports/insights-v2/visibility/visibility.ts';
import { reportEndpoints } from './reports/core/report-endpoints.ts';
import { citationsV1Report } from './reports/tabular-v1/citations.ts';
import { queryFanoutsV1Report } from './reports/tabular-v1/query-fanouts.ts';
import { sentimentV1Report } from './reports/tabular-v1/sentiment.ts';
import { visibilityV1Report } from './reports/tabular-v1/visibility.ts';
import { botsV1Report, botsV2Report } from './reports/traffic/bots.ts';
import { referralsV1Report, referralsV2Report } from './reports/traffic/referrals.ts';
import { rawBotLogsReport, rawLogsReport } from './reports/traffic/raw-logs.ts';
import { orgEndpoints } from './resources/org-listings.ts';
import { categoryEndpoints } from './resources/category-listings.ts';
import { promptEndpoints } from './resources/prompts/index.ts';
import { contentEndpoints } from './resources/content-optimization.ts';
import { allAgentEndpoints } from './resources/agents/index.ts';
import { allKnowledgeBaseEndpoints } from './resources/knowledge-bases/index.ts';
import { withExtensions } from './reports/extensions/extended-endpoint.ts';

/**
 * Every operation of the API. The library, the HTTP routes, `aea query` and OpenAPI are generated from
 * this list. Every report takes the extensions (src/reports/extensions) through the same wrapper.
 */
export const endpoints: readonly Endpoint[] = [
  ...reportEndpoints(visibilityReport),
  ...reportEndpoints(shoppingProductsReport),
  ...reportEndpoints(channelsReport),
  ...reportEndpoints(videosReport),
  ...reportEndpoints(factcheckClaimsReport),
  ...reportEndpoints(citationsReport),
  ...reportEndpoints(sentimentReport),
  ...reportEndpoints(queryFanoutsReport),
  ...reportEndpoints(factcheckReport),
  ...reportEndpoints(promptAnswersReport),
  ...reportEndpoints(promptAnswersV1Report),
  ...reportEndpoints(citationsV1Report),
  ...reportEndpoints(visibilityV1Report),
  ...reportEndpoints(sentimentV1Report),
  ...reportEndpoints(queryFanoutsV1Report),
  ...reportEndpoints(botsV1Report),
  ...reportEndpoints(botsV2Report),
  ...reportEndpoints(referralsV1Report),
  ...reportEndpoints(referralsV2Report),
  ...reportEndpoints(rawLogsReport),
  ...reportEndpoints(rawBotLogsReport),
  ...orgEndpoints,
  ...categoryEndpoints,
  ...promptEndpoints,
  ...contentEndpoints,
  ...allAgentEndpoints,
  ...allKnowledgeBaseEndpoints,
].map(withExtensions);

/** The registry's routes: the agent runner and the REST service's 404/405 decision read them. */
export const routes = new Routes(endpoints);

export const matchEndpoint = (method: string, path: string): Match | undefined => routes.match(method, path);

export const pathExists = (path: string): boolean => routes.exists(path);
