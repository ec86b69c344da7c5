/**
 * Dimensions of the v1 Insights floors over a fact row `f` and its prompt `p`, and the `rows` CTE
 * that numbers a grouped relation `g` (keys `k0…`, metrics `m0…`) as the tabular reports order it:
 * the first metric descending, then every dimension ascending (names by name, then id), missing last.
 */
export interface V1Dimension {
  readonly key: string;
  /** The table and column a named dimension shows. */
  readonly table?: readonly [string, string];
  readonly date?: boolean;
}

const named = (key: string, table: string, column = 'name'): V1Dimension => ({ key, table: [table, column] });

export const v1Dimensions: Record<string, V1Dimension> = {
  date: { key: 'f.day', date: true },
  region: named('f.region_id', 'regions'),
  model: named('f.model_id', 'models'),
  persona: named('f.persona_id', 'personas'),
  topic: named('p.topic_id', 'topics'),
  prompt: named('f.prompt_id', 'prompts', 'prompt'),
  topic_id: { key: 'p.topic_id' },
  prompt_id: { key: 'f.prompt_id' },
  url: { key: 'f.url' },
  root_domain: { key: 'f.root_domain' },
  hostname: { key: 'f.hostname' },
  citation_category: { key: 'f.citation_category' },
};

/** `rows` over `g`: ord by the first metric descending (or `order`), then the dimensions; labels `d0…` as text. */
export function v1Rows(dims: readonly V1Dimension[], metrics: number, order = 'g.m0 DESC NULLS LAST'): string {
  const label = (d: V1Dimension, i: number) =>
    d.date ? `strftime(g.k${i}, '%Y-%m-%d')` : d.table ? `n${i}.${d.table[1]}` : `g.k${i}`;
  const sort = dims.flatMap((d, i) =>
    d.table ? [`${label(d, i)} ASC NULLS LAST`, `g.k${i} ASC NULLS LAST`] : [`g.k${i} ASC NULLS LAST`],
  );
  return `rows AS (
  SELECT row_number() OVER (ORDER BY ${[order, ...sort].join(', ')}) AS ord, 0 AS seq,
         ${[...dims.map((d, i) => `CAST(${label(d, i)} AS VARCHAR) AS d${i}`), ...Array.from({ length: metrics }, (_, j) => `g.m${j}`)].join(', ')}
  FROM g
  ${dims.flatMap((d, i) => (d.table ? [`LEFT JOIN ${d.table[0]} n${i} ON n${i}.id = g.k${i}`] : [])).join('\n  ')}
)`;
}
