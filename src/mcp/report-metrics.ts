import { metrics, type MetricDef } from '../model/metrics.ts';

/**
 * The report family and version each report operation answers, in the words src/model/metrics.ts
 * uses in its `reports` field, so a tool's description quotes the one metric declaration.
 */
const families: Record<string, { readonly family: string; readonly version?: 'v1' | 'v2' }> = {
  visibility: { family: 'visibility', version: 'v2' },
  visibilityV1: { family: 'visibility', version: 'v1' },
  citations: { family: 'citations', version: 'v2' },
  citationsV1: { family: 'citations', version: 'v1' },
  sentiment: { family: 'sentiment', version: 'v2' },
  sentimentV1: { family: 'sentiment', version: 'v1' },
  queryFanouts: { family: 'query-fanouts', version: 'v2' },
  queryFanoutsV1: { family: 'query-fanouts', version: 'v1' },
  factcheck: { family: 'fact-check', version: 'v2' },
  factcheckClaims: { family: 'fact-check claims' },
  shoppingProducts: { family: 'shopping products' },
  youtubeChannels: { family: 'video-platform channels' },
  videoplatformChannels: { family: 'video-platform channels' },
  youtubeVideos: { family: 'video-platform videos' },
  videoplatformVideos: { family: 'video-platform videos' },
  promptAnswers: { family: 'prompt answers', version: 'v2' },
  promptAnswersV1: { family: 'prompt answers', version: 'v1' },
  bots: { family: 'bots', version: 'v2' },
  botsV1: { family: 'bots', version: 'v1' },
  referrals: { family: 'referrals', version: 'v2' },
  referralsV1: { family: 'referrals', version: 'v1' },
};

interface Clause {
  readonly family: string;
  readonly version?: string;
}

/**
 * Reads a `reports` text such as `visibility v1, v2`, `bots, referrals` or `fact-check, fact-check
 * claims sections`: a bare version continues the family before it; a parenthesis or a trailing
 * `sections` narrows the clause to part of the family's answer, which still belongs to it.
 */
export function reportClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  for (const raw of text.split(',')) {
    const token = raw.replace(/\(.*\)/, '').trim();
    const m = /^(.*?)\s*\b(v[12])$/.exec(token);
    const family = (m ? m[1]! : token).replace(/ sections$/, '').trim();
    const version = m?.[2];
    if (family === '') clauses.push({ family: clauses.at(-1)?.family ?? '', version });
    else clauses.push({ family, version });
  }
  return clauses;
}

/** The metric definitions that apply to a report operation (none for one that is not a report family). */
export function metricsOf(endpointName: string): MetricDef[] {
  const own = families[endpointName.replace(/Stream$/, '')];
  if (!own) return [];
  return metrics.filter((m) =>
    reportClauses(m.reports).some(
      (c) =>
        c.family === own.family && (c.version === undefined || own.version === undefined || c.version === own.version),
    ),
  );
}

/** One metric definition as a line of text. */
export const metricLine = (m: MetricDef): string =>
  `${m.name} = ${m.numerator}${m.denominator ? ` / ${m.denominator}` : ''} [${m.unit}]; over ${m.scope}`;
