import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { ClaimsFixture } from '../fixtures/claims.ts';
import { byId, cmp, inWindow, promptContext } from './context.ts';
import { evaluate } from './filter.ts';

export interface ClaimsQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: string[];
  include?: string[];
  filter?: FilterNode;
}

type Claim = Record<string, unknown> & { occurrence: number; claim: string; cluster_id: string };

/** Every claim (or section) the fact-check claims report should return, in order, computed the plain way. */
export function referenceClaims(f: ClaimsFixture, q: ClaimsQuery): Record<string, unknown>[] {
  const context = promptContext(f);
  const prompts = byId(f.prompts);
  const models = byId(f.models);
  const clusters = byId(f.claim_clusters);
  const inScope = (r: Row) =>
    inWindow(r, q) &&
    (prompts.get(String(r.prompt_id))!.analysis_types as string[]).includes('accuracy') &&
    (!q.filter || evaluate(q.filter, context(r)));
  const answers = f.executions.filter(inScope);
  const occurrences = f.claim_occurrences.filter((o) => inScope(o) && clusters.has(String(o.cluster_id)));
  const dim = q.group_by?.[0];
  const include = new Set(q.include ?? []);

  /** The section keys of a fact row: one, several (tags) or, for theme, none of the answer's own. */
  const keysOf = (r: Row): (string | null)[] => {
    if (!dim) return [''];
    if (dim === 'theme') return [String(clusters.get(String(r.cluster_id))!.theme)];
    if (dim === 'topic') return [String(prompts.get(String(r.prompt_id))!.topic_id)];
    if (dim === 'tag') {
      const tags = prompts.get(String(r.prompt_id))!.tag_ids as string[];
      return tags.length === 0 ? [null] : tags;
    }
    const v = r[`${dim}_id`];
    return [v == null ? null : String(v)];
  };
  const answerKeys = (e: Row): (string | null)[] | 'all' => (dim === 'theme' ? 'all' : keysOf(e));
  const answersIn = (k: string | null, model?: string) =>
    answers.filter((e) => {
      const ks = answerKeys(e);
      return (ks === 'all' || ks.includes(k)) && (model === undefined || e.model_id === model);
    }).length;

  const claimsOf = (k: string | null): Claim[] => {
    const bad = occurrences.filter((o) => !o.accurate && keysOf(o).includes(k));
    const byCluster = new Map<string, Row[]>();
    for (const o of bad) byCluster.set(String(o.cluster_id), [...(byCluster.get(String(o.cluster_id)) ?? []), o]);
    const total = answersIn(k);
    const claims = [...byCluster].map(([id, rows]) => {
      const c = clusters.get(id)!;
      const claim: Claim = { cluster_id: id, claim: String(c.claim), occurrence: (100 * rows.length) / total };
      if (include.has('theme')) claim.theme = c.theme;
      if (include.has('reasoning')) claim.reasoning = c.reasoning;
      if (include.has('models')) {
        const perModel = new Map<string, number>();
        for (const o of rows) perModel.set(String(o.model_id), (perModel.get(String(o.model_id)) ?? 0) + 1);
        claim.models = [...perModel]
          .map(([m, n]) => ({ id: m, name: String(models.get(m)!.name), occurrence: (100 * n) / answersIn(k, m) }))
          .sort((a, b) => b.occurrence - a.occurrence || cmp(a.name, b.name) || cmp(a.id, b.id));
      }
      if (include.has('evidence')) {
        claim.evidence = f.claim_evidence_links
          .filter((e) => e.cluster_id === id)
          .flatMap((e) => {
            const doc = f.kb_documents.find(
              (d) => d.knowledge_base_id === e.knowledge_base_id && d.path === e.document_path,
            );
            const section = doc ? sectionsOf(String(doc.text))[Number(e.section) - 1] : undefined;
            if (!doc || section === undefined) return [];
            return [
              {
                id: e.id,
                kb_path: `${String(e.document_path)}#${Number(e.section)}`,
                kb_snippet: section,
                source_updated_at: new Date(String(doc.updated_at)).toISOString().replace('.000Z', 'Z'),
              },
            ];
          })
          .sort((a, b) => cmp(a.kb_path, b.kb_path) || cmp(String(a.id), String(b.id)));
      }
      if (include.has('citation_sources')) claim.citation_sources = citationSources(f, q, rows);
      return claim;
    });
    return claims.sort(
      (a, b) => b.occurrence - a.occurrence || cmp(a.claim, b.claim) || cmp(a.cluster_id, b.cluster_id),
    );
  };

  if (!dim) return claimsOf('');
  const table = {
    model: models,
    region: byId(f.regions),
    persona: byId(f.personas),
    prompt: prompts,
    topic: byId(f.topics),
    tag: byId(f.tags),
  }[dim as 'model'];
  const themeIds = new Map(
    (f.themes ?? []).filter((t) => t.category_id === q.category_id).map((t) => [String(t.name), String(t.id)]),
  );
  const ref = (k: string | null) => {
    if (k === null) return null;
    if (dim === 'theme') return { id: themeIds.get(k) ?? null, name: k };
    return { id: k, name: String(table.get(k)?.[dim === 'prompt' ? 'prompt' : 'name'] ?? '') };
  };
  const keys = [...new Set(occurrences.flatMap(keysOf))];
  keys.sort((a, b) => cmp(ref(a)?.name, ref(b)?.name) || cmp(a, b));
  return keys.map((k) => {
    const rows = occurrences.filter((o) => keysOf(o).includes(k));
    const accurate = rows.filter((o) => o.accurate).length;
    const inaccurate = rows.length - accurate;
    const claims = claimsOf(k);
    return {
      [dim]: ref(k),
      accuracy: accurate / (accurate + inaccurate),
      accurate,
      inaccurate,
      total_claims: claims.length,
      claims,
    };
  });
}

/** The claim's cited pages: per model, each page's share of that model's citations, averaged over the models (top 10). */
function citationSources(f: ClaimsFixture, q: ClaimsQuery, carriers: Row[]): Record<string, unknown>[] {
  const executions = new Set(carriers.map((o) => String(o.execution_id)));
  const cited = f.citations.filter((c) => executions.has(String(c.execution_id)) && inWindow(c, q));
  const byModel = new Map<string, Row[]>();
  for (const c of cited) byModel.set(String(c.model_id), [...(byModel.get(String(c.model_id)) ?? []), c]);
  const shares = new Map<string, { model: string; share: number }[]>();
  for (const [model, rows] of byModel) {
    const perUrl = new Map<string, number>();
    for (const c of rows) perUrl.set(String(c.url), (perUrl.get(String(c.url)) ?? 0) + 1);
    for (const [url, n] of perUrl) shares.set(url, [...(shares.get(url) ?? []), { model, share: n / rows.length }]);
  }
  return [...shares]
    .map(([url, list]) => {
      const c = cited.find((x) => x.url === url)!;
      const total = list
        .map((x) => x.share)
        .sort((a, b) => a - b)
        .reduce((s, x) => s + x, 0);
      return {
        url,
        row: {
          href: url.replace(/^[a-z]+:\/\//, ''),
          hostname: c.hostname,
          citation_category: c.citation_category,
          domain_category: c.citation_category,
          snippet: c.title,
          citation_share: (100 * total) / byModel.size,
        },
      };
    })
    .sort((a, b) => (b.row.citation_share as number) - (a.row.citation_share as number) || cmp(a.url, b.url))
    .slice(0, 10)
    .map((x) => x.row);
}

/** Blocks of text between blank lines, trimmed, empty ones dropped. */
const sectionsOf = (text: string): string[] =>
  text
    .replace(/\r/g, '')
    .split(/\n(?:[ \t]*\n)+/)
    .map((s) => s.replace(/^[ \t\n]+|[ \t\n]+$/g, ''))
    .filter((s) => s !== '');
