import type { Formula, Measure } from './metric-formula.ts';

export interface MetricDef {
  readonly name: string;
  readonly reports: string;
  readonly numerator: string;
  readonly denominator: string | null;
  readonly scope: string;
  readonly unit: string;
  /** The NULL rules the definition states, by the ids tests cite (test/null-rules.test.ts); docs carry them as tags. */
  readonly nullRules?: readonly string[];
  /**
   * The derived metrics of the declaration, by the column a report shows, as expressions over named
   * counts. Reports compute them from here (src/query/metric-sql.ts), and the docs show them.
   */
  readonly formulas?: Readonly<Record<string, Formula>>;
  /** The declaration's counts, instants, ranks and attributes, by the column a report shows (src/query/measure-sql.ts). */
  readonly measures?: Readonly<Record<string, Measure>>;
}

const answers =
  'executions of the category whose day (ET) is in the window, whose prompt carries the report’s analysis type, after prompt-level filters';
const anyType =
  'executions of the category in the window (v1: [start_date, end_date) in ET), of every analysis type unless an analysis_type filter narrows them, after prompt-level filters';
const shoppingAnswers =
  'shopping_results of the category’s executions whose day (ET) is in the window (shopping is not tied to an analysis type), the filter read for each answer and product';
const channelCitations =
  'citations with source_type among the requested source types (never other) of the category’s executions whose day (ET) is in the window, any analysis type unless filtered, after the filter';
const factCheckAnswers =
  'executions of the category whose day (ET) is in the window and whose prompt carries the accuracy analysis type, after the filter';
const v2Typed =
  'v2: executions of the category whose day (ET) is in the window, of the prompts carrying the analysis types of the filter’s analysis_type leaf (default visibility; all = every prompt), after the answer-level filter clauses';
const sentimentAnswers =
  'sentiments of the brand (grouped by competitor: of each other brand of the category) in executions whose prompt carries the sentiment analysis type, whose day (ET) is in the window, after the filter; in the citation source mode each assessment counts for every page its answer cites';

export const metrics: readonly MetricDef[] = [
  {
    name: 'executions',
    reports: 'visibility v1',
    numerator: 'count of executions',
    denominator: null,
    scope: answers,
    unit: 'count',
    measures: { executions: { count: 'executions' } },
  },
  {
    name: 'visibility_score',
    reports: 'visibility v1, v2',
    numerator: 'executions with a mentions row for the asset',
    denominator: 'executions in scope (the same group)',
    nullRules: ['fill-zero-counts-null-ratios'],
    scope: answers,
    unit: 'fraction 0–1',
    formulas: { visibility_score: { ratio: ['mentioned', 'executions'], empty: 'null' } },
  },
  {
    name: 'visibility_score, mentions_count, share_of_voice, average_position (v1 without an asset dimension)',
    reports: 'visibility v1',
    numerator:
      'the chosen brands taken together: those the asset_name filter selects, else the organization’s own; visibility_score counts executions mentioning at least one of them',
    denominator:
      'as the per-brand metric: executions in the group; every mention in the group; the chosen brands’ mentions',
    scope: `${answers}; v1 windows are [start_date, end_date) in ET`,
    unit: 'as the per-brand metric',
  },
  {
    name: 'mentions_count',
    reports: 'visibility v1',
    numerator: 'mentions rows of the asset (at most one per execution)',
    denominator: null,
    scope: answers,
    unit: 'count',
    measures: { mentions_count: { count: 'mentions' } },
  },
  {
    name: 'share_of_voice (visibility)',
    reports: 'visibility v1, v2',
    numerator: 'mentions rows of the asset',
    denominator:
      'mentions rows of every asset of the category in the same group (the assets selector and scope never shrink it)',
    scope: answers,
    unit: 'fraction 0–1',
    formulas: { share_of_voice: { ratio: ['mentions', 'total_mentions'], empty: 'zero' } },
  },
  {
    name: 'average_position',
    reports: 'visibility v1, v2',
    numerator: 'sum of mentions.position of the asset',
    denominator:
      'mentions rows of the asset; when there are none: null in v2, 0 in v1 (whose client types it as a number)',
    nullRules: ['average-position-unmentioned'],
    scope: answers,
    unit: 'position, lower is better',
    formulas: { average_position: { ratio: ['position_sum', 'mentions'], empty: { v1: 'zero', v2: 'null' } } },
  },
  {
    name: 'rank (visibility)',
    reports: 'visibility v2',
    numerator:
      '1-based place of the asset when every asset of the category in the group is ordered by the sort metric, best first, then by name and id',
    denominator: null,
    scope: 'the group; never shrunk by scope=owned or the assets selector',
    unit: 'integer',
    measures: {
      rank: { rank: [{ by: 'the sort metric', best: 'requested', nullsLast: true }], ties: 'name, then id' },
    },
  },
  {
    name: 'count (citations)',
    reports: 'citations v1, v2',
    numerator: 'citations rows',
    denominator: null,
    scope: `citations of ${anyType}, after citation-level filters (hostname, path, url, root_domain, citation_category, mentioned); ${v2Typed}, after citation-layer filters (domain, page, citation_category, citation_tag)`,
    unit: 'count',
    measures: { count: { count: 'citations' } },
  },
  {
    name: 'citation_share',
    reports: 'citations v1, v2',
    numerator: 'per model: citations rows of the domain, page or group, after citation-level filters',
    denominator:
      'per model: every citations row in scope of the same answer-level group (date, region, topic, model, tag, prompt, persona; v2: the group_by dimensions other than page) before citation-level filters (so the mentioned, page, domain, citation_category and citation_tag filters never shrink it); the per-model shares are then averaged over the models with citations in that group, adding them in ascending order',
    scope: `citations of ${anyType}; ${v2Typed}`,
    unit: 'fraction 0–1',
    formulas: { citation_share: { balanced: ['citations', 'model_citations'], models: 'models' } },
  },
  {
    name: 'share_of_voice (citations, deprecated)',
    reports: 'citations v1',
    numerator: 'as citation_share',
    denominator: 'as citation_share',
    scope: 'as citation_share',
    unit: 'fraction 0–1',
    formulas: { share_of_voice: { balanced: ['citations', 'model_citations'], models: 'models' } },
  },
  {
    name: 'first_cited_at',
    reports: 'citations v1, v2 (pages)',
    numerator: 'minimum executed_at of the page’s (or row’s) citations (v2: pages only, group_by page)',
    denominator: null,
    scope: 'citations in scope, after citation-level filters',
    unit: 'ISO 8601 instant (v2); Unix seconds in the v1 numeric metrics array',
    measures: { first_cited_at: { earliest: 'executed_at' } },
  },
  {
    name: 'rank (citations)',
    reports: 'citations v2',
    numerator: '1-based place of the domain (or page) by count, then citation_share, then name (or URL)',
    denominator: null,
    scope:
      'the rows the filter keeps in the partition (the group_by dimensions other than page); scope owned removes the rows without an owned citation after ranking',
    unit: 'integer',
    measures: {
      rank: {
        rank: [
          { by: 'count', best: 'desc' },
          { by: 'citation_share', best: 'desc' },
        ],
        ties: 'name (or URL)',
      },
    },
  },
  {
    name: 'shopping visibility_score',
    reports: 'shopping products',
    numerator:
      'shopping answers (executions with at least one shopping_results row) that show the product and that the filter selects for it',
    denominator:
      'shopping answers in the same bucket that the filter selects for the product; brand and merchant leaves are read on the product, so with them the denominator is per product',
    scope: shoppingAnswers,
    unit: 'fraction 0–1',
    formulas: { visibility_score: { ratio: ['shown', 'answers'], empty: 'never' } },
  },
  {
    name: 'shopping average_position',
    reports: 'shopping products',
    numerator: 'sum of shopping_results.position of the product (rows the filter selects)',
    denominator: 'those shopping_results rows',
    scope: 'as shopping visibility_score',
    unit: 'slot, lower is better',
    formulas: { average_position: { ratio: ['position_sum', 'shown'], empty: 'never' } },
  },
  {
    name: 'position1_percentage … position3_percentage, position_above3_percentage',
    reports: 'shopping products',
    numerator: 'shopping_results rows of the product at slot 1, 2, 3, or below 3',
    denominator: 'shopping_results rows of the product; the four fractions sum to 1',
    scope: 'as shopping visibility_score',
    unit: 'fraction 0–1',
    formulas: {
      position1_percentage: { ratio: ['at1', 'shown'], empty: 'never' },
      position2_percentage: { ratio: ['at2', 'shown'], empty: 'never' },
      position3_percentage: { ratio: ['at3', 'shown'], empty: 'never' },
      position_above3_percentage: { ratio: [{ difference: ['shown', 'at1', 'at2', 'at3'] }, 'shown'], empty: 'never' },
    },
  },
  {
    name: 'visibility_rank (product rank)',
    reports: 'shopping products',
    numerator: '1-based place by visibility_score (descending), then average_position (ascending), then name and id',
    denominator: null,
    scope: 'every product shown in the bucket; without group_by the window, which also orders the products (and pages)',
    unit: 'integer',
    measures: {
      visibility_rank: {
        rank: [
          { by: 'visibility_score', best: 'desc' },
          { by: 'average_position', best: 'asc' },
        ],
        ties: 'name, then id',
      },
    },
  },
  {
    name: 'product_rating, product_num_reviews',
    reports: 'shopping products',
    numerator: 'products.rating, products.num_reviews',
    denominator: null,
    scope: 'the product',
    unit: 'rating 1–5, count',
    measures: {
      product_rating: { attribute: 'products.rating' },
      product_num_reviews: { attribute: 'products.num_reviews' },
    },
  },
  {
    name: 'channel count',
    reports: 'video-platform channels',
    numerator: 'citations rows of the channel (or video category, source type, cross-tab cell, period)',
    denominator: null,
    scope: channelCitations,
    unit: 'count',
    measures: { count: { count: 'citations' } },
  },
  {
    name: 'videos',
    reports: 'video-platform channels',
    numerator: 'distinct video_id among those citations (channel and playlist citations have none)',
    denominator: null,
    scope: 'as channel count',
    unit: 'count',
    measures: { videos: { count: 'videos' } },
  },
  {
    name: 'channel citation_share',
    reports: 'video-platform channels',
    numerator: 'channel count of the row',
    denominator:
      'video-platform citations of the requested source types after the prompt-level filter clauses, in the same period with interval; channel clauses never shrink it',
    scope: 'as channel count',
    unit: 'fraction 0–1',
    formulas: { citation_share: { ratio: ['citations', 'platform_citations'], empty: 'never' } },
  },
  {
    name: 'rank (channels)',
    reports: 'video-platform channels',
    numerator:
      '1-based place of the leading channel (or video category, source type) by count over the whole window, then by title (or name), then id',
    denominator: null,
    scope: 'as channel count; repeated on the channel’s cross-tab and period rows',
    unit: 'integer',
    measures: { rank: { rank: [{ by: 'count', best: 'desc' }], ties: 'title (or name), then id' } },
  },
  {
    name: 'fact-check occurrence',
    reports: 'fact-check claims',
    numerator: 'fact-check answers with an inaccurate claim_occurrences row of the cluster (in the section)',
    denominator:
      'fact-check answers in scope (in the section; a theme section counts every answer, a tag section the answers of prompts with that tag)',
    scope: `claim_occurrences of ${factCheckAnswers}`,
    unit: 'percent 0–100',
    formulas: { occurrence: { ratio: ['claim_answers', 'answers'], percent: true, empty: 'never' } },
  },
  {
    name: 'models[].occurrence (fact-check claims)',
    reports: 'fact-check claims',
    numerator: 'answers of the model carrying the inaccurate claim',
    denominator: 'answers of the model in scope (in the section)',
    scope: 'as fact-check occurrence',
    unit: 'percent 0–100',
    formulas: { occurrence: { ratio: ['claim_answers', 'answers'], percent: true, empty: 'never' } },
  },
  {
    name: 'citation_sources[].citation_share (fact-check claims)',
    reports: 'fact-check claims',
    numerator: 'per model: citations rows of the page in the answers carrying the inaccurate claim',
    denominator:
      'per model: every citations row of those answers; the per-model shares are then averaged over the models with such citations (model-balanced)',
    scope: 'citations of the answers carrying the claim',
    unit: 'percent 0–100',
    formulas: {
      citation_share: { balanced: ['citations', 'answer_citations'], models: 'models', percent: true },
    },
  },
  {
    name: 'total_claims (fact-check claims sections)',
    reports: 'fact-check claims',
    numerator: 'inaccurate claims listed in the section',
    denominator: null,
    scope: 'the section',
    unit: 'count',
    measures: { total_claims: { count: 'claims' } },
  },
  {
    name: 'accuracy, accurate, inaccurate',
    reports: 'fact-check, fact-check claims sections',
    numerator: 'accurate: claim_occurrences rows with accurate true; inaccurate: with accurate false',
    denominator: 'accuracy = accurate / (accurate + inaccurate); NULL when both are 0',
    nullRules: ['accuracy-without-claims'],
    scope: 'claim_occurrences in scope',
    unit: 'count, fraction 0–1',
    formulas: { accuracy: { ratio: ['accurate', { sum: ['accurate', 'inaccurate'] }], empty: 'null' } },
    measures: { accurate: { count: 'accurate' }, inaccurate: { count: 'inaccurate' } },
  },
  {
    name: 'bot count',
    reports: 'bots v1, v2',
    numerator: 'bot_events rows (each row is one unique visit), of every bot type including ai_agent',
    denominator: null,
    scope:
      'bot_events of the domain in [start_date, end_date) after filters; v1 reads the daily view: the America/New_York days whose start lies in the window',
    unit: 'count',
    measures: { count: { count: 'visits' } },
  },
  {
    name: 'bot citations, indexing, training',
    reports: 'bots v1, v2',
    numerator: 'bot_events rows (unique visits) with bot_type ai_assistant (citation), index, ai_training respectively',
    denominator: null,
    scope: 'as bot count',
    unit: 'count',
    measures: {
      citations: { count: 'citation visits' },
      indexing: { count: 'index visits' },
      training: { count: 'training visits' },
    },
  },
  {
    name: 'last_visit',
    reports: 'bots, referrals',
    numerator: 'maximum ts, the latest visit instant (also on the daily view)',
    denominator: null,
    scope: 'as the report’s count',
    unit: 'Unix seconds in the numeric metrics array',
    measures: { last_visit: { latest: 'ts' } },
  },
  {
    name: 'visits',
    reports: 'referrals v1, v2',
    numerator: 'referral_visits rows',
    denominator: null,
    scope:
      'referral_visits of the domain in [start_date, end_date) (v1: whole America/New_York days, v2: read in timezone), in the view_id segment (its host, its path prefix), after filters',
    unit: 'count',
    measures: { visits: { count: 'visits' } },
  },
  {
    name: 'raw log count',
    reports: 'raw logs, raw bot logs (deprecated)',
    numerator:
      'visits in the group: bot_events and referral_visits rows together (raw logs), bot_events rows (raw bot logs)',
    denominator: null,
    scope: 'the domain’s visits in [start_date, end_date) after filters, read from the hourly view',
    unit: 'count',
    measures: { count: { count: 'visits' } },
  },
  {
    name: 'positive_sentiment, negative_sentiment',
    reports: 'sentiment v2',
    numerator:
      'positive_sentiment: sentiments rows of the brand in the group with sentiment_type positive; negative_sentiment is 100 − positive_sentiment',
    denominator: 'sentiments rows of the brand in the group; the two sum to 100',
    scope: sentimentAnswers,
    unit: 'percent 0–100',
    formulas: {
      positive_sentiment: { ratio: ['positive', 'assessments'], percent: true, empty: 'never' },
      negative_sentiment: {
        complement: 'positive_sentiment',
        parts: [{ difference: ['assessments', 'positive'] }, 'assessments'],
      },
    },
  },
  {
    name: 'occurrence (sentiment)',
    reports: 'sentiment v2',
    numerator:
      'distinct executions with an assessment of the brand in the row (its theme or claim, after theme and claim filters)',
    denominator:
      'distinct executions with any assessment of the brand in the row’s group without its theme and claim dimensions, before theme and claim filters',
    scope: sentimentAnswers,
    unit: 'percent 0–100',
    formulas: { occurrence: { ratio: ['answers', 'group_answers'], percent: true, empty: 'never' } },
  },
  {
    name: 'rank (sentiment)',
    reports: 'sentiment v2',
    numerator:
      '1-based place of the row by its number of assessments, descending, then by its dimensions’ names and ids',
    denominator: null,
    scope: 'the rows of the same date bucket (all rows without date in group_by)',
    unit: 'integer',
    measures: { rank: { rank: [{ by: 'assessments', best: 'desc' }], ties: 'the dimensions’ names and ids' } },
  },
  {
    name: 'positive, negative, occurrences (v1 sentiment)',
    reports: 'sentiment v1',
    numerator: 'sentiments rows of that type; occurrences: every sentiments row',
    denominator: null,
    scope:
      'sentiments of executions whose prompt carries the sentiment analysis type, in [start_date, end_date) in ET, after filters',
    unit: 'count',
    measures: {
      positive: { count: 'positive' },
      negative: { count: 'negative' },
      occurrences: { count: 'assessments' },
    },
  },
  {
    name: 'total_fanouts',
    reports: 'query-fanouts v1, v2',
    numerator: 'fanouts rows',
    denominator: null,
    scope: `fanouts of ${v2Typed} (v1: ${anyType})`,
    unit: 'count',
    measures: { total_fanouts: { count: 'fanouts' } },
  },
  {
    name: 'fanouts_per_execution',
    reports: 'query-fanouts v1, v2',
    numerator: 'fanouts rows',
    denominator:
      'executions in scope with search_triggered true (runs that produced fan-out data) of the row’s group without the query dimension; NULL when there are none',
    nullRules: ['fanouts-per-execution-none'],
    scope: 'as total_fanouts',
    unit: 'ratio',
    formulas: { fanouts_per_execution: { ratio: ['fanouts', 'searching'], empty: 'null' } },
  },
  {
    name: 'query_variations',
    reports: 'query-fanouts v2',
    numerator: 'distinct fanouts.query of the row (not available with query in group_by)',
    denominator: null,
    scope: 'as total_fanouts',
    unit: 'count',
    measures: { query_variations: { count: 'queries' } },
  },
  {
    name: 'share (fan-outs)',
    reports: 'query-fanouts v1, v2',
    numerator: 'fanouts rows of the query (of the row)',
    denominator:
      'fanouts rows of the same prompt: of the row’s group without the query dimension (v2: only with query in group_by)',
    scope: 'as total_fanouts',
    unit: 'fraction 0–1',
    formulas: { share: { ratio: ['fanouts', 'group_fanouts'], empty: 'never' } },
  },
  {
    name: 'rank (fan-outs)',
    reports: 'query-fanouts v2',
    numerator:
      '1-based place of the row by total_fanouts, descending, then by its dimensions (prompt text, query, names) and ids',
    denominator: null,
    scope: 'the rows of the same date bucket (all rows without date in group_by)',
    unit: 'integer',
    measures: {
      rank: {
        rank: [{ by: 'total_fanouts', best: 'desc' }],
        ties: 'the dimensions (prompt text, query, names) and ids',
      },
    },
  },
  {
    name: 'accuracy, accurate, inaccurate by citation',
    reports: 'fact-check v2 (group_by citation)',
    numerator:
      'claim_occurrences of the answers citing the page (an occurrence counts for every distinct page its answer cites)',
    denominator: 'accuracy = accurate / (accurate + inaccurate)',
    nullRules: ['accuracy-without-claims'],
    scope: `claim_occurrences of ${factCheckAnswers}`,
    unit: 'count, fraction 0–1',
    formulas: { accuracy: { ratio: ['accurate', { sum: ['accurate', 'inaccurate'] }], empty: 'null' } },
    measures: { accurate: { count: 'accurate' }, inaccurate: { count: 'inaccurate' } },
  },
  {
    name: 'video count, video citation_share, video rank',
    reports: 'video-platform videos',
    numerator:
      'count: citations rows of the video (source type video or short) in the cell; citation_share: that count; rank: 1-based place of the video by count over the whole window, then title, then video id',
    denominator:
      'citation_share: the video and short citations of the requested source types after the prompt-level filter clauses (in the same period with interval); channel clauses never shrink it',
    scope:
      'citations with a video (source type video or short) of the category’s executions whose day (ET) is in the window, any analysis type unless filtered',
    unit: 'count, fraction 0–1, integer',
    formulas: { citation_share: { ratio: ['citations', 'platform_citations'], empty: 'never' } },
    measures: {
      count: { count: 'citations' },
      rank: { rank: [{ by: 'count', best: 'desc' }], ties: 'title, then video id' },
    },
  },
  {
    name: 'mentions, citations, search_queries (prompt answers)',
    reports: 'prompt answers v1, v2',
    numerator:
      'per execution: the brands of its mentions rows by position (each once), the URLs of its citations rows and the queries of its fanouts rows, by position as recorded',
    denominator: null,
    scope:
      'one row per execution of the category in the window (v2: day in [start_date, end_date] ET; v1: executed_at in [start_date, end_date)), after the filter',
    unit: 'lists',
  },
];
