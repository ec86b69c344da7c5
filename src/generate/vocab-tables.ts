import * as v from './vocab.ts';

export interface VocabTable {
  readonly name: string;
  readonly structure: Record<string, string | string[]>;
  readonly rows: readonly Record<string, unknown>[];
}

const named = (catIdx: number, names: readonly string[]) => names.map((name, i) => ({ cat_idx: catIdx, i, name }));

/** The vocabulary as small relational tables the generator SQL joins against. */
export function vocabTables(): VocabTable[] {
  const categories = v.orgs.flatMap((org, orgIdx) => org.categories.map((c) => ({ org_idx: orgIdx, ...c })));
  const withIdx = categories.map((c, catIdx) => ({ ...c, cat_idx: catIdx }));
  const perCategory = (pick: (c: v.CategoryVocab) => readonly string[]) =>
    withIdx.flatMap((c) => named(c.cat_idx, pick(c)));
  const nameTable = { cat_idx: 'INTEGER', i: 'INTEGER', name: 'VARCHAR' };
  return [
    {
      name: 'g_org',
      structure: { org_idx: 'INTEGER', name: 'VARCHAR', brand: 'VARCHAR', domains: ['VARCHAR'] },
      rows: v.orgs.map((o, orgIdx) => ({ org_idx: orgIdx, name: o.name, brand: o.brand, domains: o.domains })),
    },
    {
      name: 'g_cat',
      structure: { cat_idx: 'INTEGER', org_idx: 'INTEGER', name: 'VARCHAR', noun: 'VARCHAR', shopping: 'BOOLEAN' },
      rows: withIdx.map((c) => ({
        cat_idx: c.cat_idx,
        org_idx: c.org_idx,
        name: c.name,
        noun: c.noun,
        shopping: c.shopping,
      })),
    },
    { name: 'g_topic_name', structure: nameTable, rows: perCategory((c) => c.topics) },
    { name: 'g_tag_name', structure: nameTable, rows: perCategory((c) => c.tags) },
    { name: 'g_persona_name', structure: nameTable, rows: perCategory((c) => c.personas) },
    { name: 'g_theme_name', structure: nameTable, rows: perCategory((c) => c.themes) },
    { name: 'g_audience', structure: nameTable, rows: perCategory((c) => c.audiences) },
    {
      name: 'g_model',
      structure: { model_idx: 'INTEGER', name: 'VARCHAR', shopping: 'BOOLEAN', search_rate: 'DOUBLE' },
      rows: v.models.map((m, i) => ({ model_idx: i, name: m.name, shopping: m.shopping, search_rate: m.searchRate })),
    },
    {
      name: 'g_region',
      structure: { region_idx: 'INTEGER', name: 'VARCHAR', code: 'VARCHAR' },
      rows: v.regions.map((r, i) => ({ region_idx: i, name: r.name, code: r.code })),
    },
    {
      name: 'g_site',
      structure: { name: 'VARCHAR', kind: 'VARCHAR', weight: 'DOUBLE' },
      rows: [
        ...v.socialDomains.map((name) => ({
          name,
          kind: 'social',
          weight: name === 'youtube.com' ? 9 : name === 'reddit.com' ? 6 : 1.5,
        })),
        ...v.mediaDomains.map((name) => ({
          name,
          kind: ['cnet.com', 'techradar.com', 'consumerreports.org'].includes(name) ? 'Review sites' : 'earned_media',
          weight: 2,
        })),
        ...v.institutionDomains.map((name) => ({ name, kind: 'earned_institutions', weight: 1 })),
        ...v.prWireDomains.map((name) => ({ name, kind: 'pr_wire', weight: 0.5 })),
        ...v.otherDomains.map((name) => ({ name, kind: 'other', weight: name === 'wikipedia.org' ? 3 : 1 })),
      ],
    },
    { name: 'g_list', structure: { kind: 'VARCHAR', i: 'INTEGER', name: 'VARCHAR' }, rows: listRows() },
    {
      name: 'g_bot',
      structure: { i: 'INTEGER', name: 'VARCHAR', provider: 'VARCHAR', type: 'VARCHAR', weight: 'INTEGER' },
      rows: v.bots.map((b, i) => ({ i, name: b.name, provider: b.provider, type: b.type, weight: b.weight })),
    },
    {
      name: 'g_referral_source',
      structure: { i: 'INTEGER', source: 'VARCHAR', weight: 'INTEGER' },
      rows: v.referralSources.map((r, i) => ({ i, source: r.source, weight: r.weight })),
    },
  ];
}

function listRows() {
  const lists: Record<string, readonly string[]> = {
    syllable_a: v.syllablesA,
    syllable_b: v.syllablesB,
    video_category: v.videoCategories,
    merchant: v.merchants,
    template: v.promptTemplates,
    modifier: v.fanoutModifiers,
    site_path: v.sitePaths,
    product_line: ['Pro', 'Lite', 'Max', 'Trail', 'Edge', 'Prime', 'Air', 'One'],
    claim_statement: [
      'offers a lifetime warranty',
      'is the cheapest option on the market',
      'ships internationally for free',
      'was founded in 1998',
      'has a 4.9 star average rating',
      'is certified carbon neutral',
      'offers 24/7 phone support',
      'includes a 90-day return window',
      'is made entirely in the USA',
      'charges no hidden fees',
    ],
    claim_verdict: ['exceeds expectations', 'falls short of its promise', 'is average for the price'],
    channel_noun: ['Reviews', 'Lab', 'Guide', 'Talk', 'Academy', 'Daily', 'Insider', 'HQ'],
  };
  return Object.entries(lists).flatMap(([kind, names]) => names.map((name, i) => ({ kind, i, name })));
}
