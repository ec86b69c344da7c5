import type { Endpoint } from './reports/endpoint.ts';
import { Routes, type Match } from './reports/routes.ts';
import { channelsReport } from './reports/insights-v2/social/channels.ts';
import { videosReport } from './reports/insights-v2/social/videos.ts';
import { citationsReport } from './reports/insights-v2/citations/citations.ts';
import { sentimentReport } from './reports/insights-v2/sentiment/sentiment.ts';
import { queryFanoutsReport } from './reports/insights-v2/query-fanouts.ts';
import { factcheckReport } from './reports/insights-v2/factcheck/factcheck.ts';
import { promptAnswersReport } from './reports/answers/prompt-answers.ts';
import { promptAnswersV1Endpoint } from './reports/answers/prompt-answers-v1.ts';
import { factcheckClaimsReport } from './reports/insights-v2/factcheck/factcheck-claims.ts';
import { shoppingProductsReport } from './reports/insights-v2/shopping/shopping-products.ts';
import { visibilityReport } from './reports/insights-v2/visibility/visibility.ts';
import { pagedEndpoints } from './reports/paged-endpoints.ts';
import { tabularEndpoints } from './reports/tabular/tabular-report.ts';
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
  ...pagedEndpoints(visibilityReport),
  ...pagedEndpoints(shoppingProductsReport),
  ...pagedEndpoints(channelsReport),
  ...pagedEndpoints(videosReport),
  ...pagedEndpoints(factcheckClaimsReport),
  ...pagedEndpoints(citationsReport),
  ...pagedEndpoints(sentimentReport),
  ...pagedEndpoints(queryFanoutsReport),
  ...pagedEndpoints(factcheckReport),
  ...pagedEndpoints(promptAnswersReport),
  promptAnswersV1Endpoint,
  ...tabularEndpoints(citationsV1Report),
  ...tabularEndpoints(visibilityV1Report),
  ...tabularEndpoints(sentimentV1Report),
  ...tabularEndpoints(queryFanoutsV1Report),
  ...tabularEndpoints(botsV1Report),
  ...tabularEndpoints(botsV2Report),
  ...tabularEndpoints(referralsV1Report),
  ...tabularEndpoints(referralsV2Report),
  ...tabularEndpoints(rawLogsReport),
  ...tabularEndpoints(rawBotLogsReport),
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
