import { createHash } from 'node:crypto';

/**
 * An independent model of PATCH /v1/org/categories/{id}/prompts over plain objects: the entries of a
 * batch apply one after another; references resolve by id, or by name ignoring case; unknown topic and
 * tag names are created; a topic `{id, name}` with a new name renames it; any issue rejects the batch.
 */
export interface Ref {
  id?: string | null;
  name?: string | null;
}
export type RefInput = Ref | string;

export interface NamedItem {
  id: string;
  name: string;
}

export interface ModelPrompt {
  id: string;
  prompt: string;
  topic_id: string;
  language: string;
  analysis_types: string[];
  asset_id: string | null;
  tag_ids: string[];
  region_ids: string[];
  platform_ids: string[];
  persona_ids: string[];
}

export interface Model {
  categoryId: string;
  prompts: ModelPrompt[];
  topics: NamedItem[];
  tags: NamedItem[];
  personas: NamedItem[];
  assets: NamedItem[];
  regions: NamedItem[];
  platforms: NamedItem[];
  languages: string[];
}

export type Entry = { id: string } & Record<string, unknown>;

const order = ['visibility', 'sentiment', 'accuracy'];
const uuidLike = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const lower = (s: string) => s.toLowerCase();

function createdId(categoryId: string, kind: string, name: string, ordinal: number): string {
  const h = createHash('sha256')
    .update([categoryId, kind, lower(name), String(ordinal)].join('\0'))
    .digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function asRef(r: RefInput): { id: string | null; name: string | null } {
  if (typeof r === 'string') return uuidLike.test(r) ? { id: r.toLowerCase(), name: null } : { id: null, name: r };
  return { id: r.id ? r.id.toLowerCase() : null, name: r.name ? r.name : null };
}

export interface Outcome {
  locs?: (string | number)[][];
  result?: { updated: number; topics_created: number; tags_created: number; prompts: Record<string, unknown>[] };
  model?: Model;
}

export function applyBatch(start: Model, entries: Entry[]): Outcome {
  const m: Model = structuredClone(start);
  const locs: (string | number)[][] = [];
  let topicsCreated = 0;
  let tagsCreated = 0;
  const seen = new Set<string>();
  const diffs: Record<string, unknown>[] = [];
  const changed = new Set<string>();
  const kinds: Record<string, NamedItem[]> = {
    topic: m.topics,
    tag: m.tags,
    persona: m.personas,
    asset: m.assets,
    region: m.regions,
    platform: m.platforms,
  };
  const nameOf = (kind: string, id: string) => ({ id, name: kinds[kind]!.find((x) => x.id === id)?.name ?? '' });

  const resolve = (kind: string, input: RefInput, loc: (string | number)[]): NamedItem | undefined => {
    const ref = asRef(input);
    const list = kinds[kind]!;
    if (ref.id !== null) {
      const item = list.find((x) => x.id === ref.id);
      if (!item) {
        locs.push(ref.name === null ? loc : [...loc, 'id']);
        return undefined;
      }
      if (ref.name === null || ref.name === item.name) return { ...item };
      if (kind === 'topic') {
        if (list.some((x) => x.id !== item.id && lower(x.name) === lower(ref.name!))) {
          locs.push([...loc, 'name']);
          return undefined;
        }
        item.name = ref.name;
        return { ...item };
      }
      if (lower(ref.name) !== lower(item.name)) {
        locs.push([...loc, 'name']);
        return undefined;
      }
      return { ...item };
    }
    const exact = list.find((x) => x.name === ref.name) ?? list.find((x) => lower(x.name) === lower(ref.name!));
    if (exact) return { ...exact };
    if (kind === 'topic' || kind === 'tag') {
      const item = { id: createdId(m.categoryId, kind, ref.name!, list.length), name: ref.name! };
      list.push(item);
      if (kind === 'topic') topicsCreated++;
      else tagsCreated++;
      return { ...item };
    }
    locs.push(loc);
    return undefined;
  };

  entries.forEach((e, i) => {
    const loc = ['body', 'prompts', i];
    const p = m.prompts.find((x) => x.id === e.id);
    if (!p) return void locs.push([...loc, 'id']);
    if (seen.has(e.id)) return void locs.push([...loc, 'id']);
    seen.add(e.id);
    const given = (k: string) => e[k] !== undefined && e[k] !== null;
    const keys = [
      'prompt',
      'topic',
      'language',
      'analysis_types',
      'prompt_type',
      'tags',
      'regions',
      'platforms',
      'personas',
    ];
    if (!keys.some(given) && e.asset === undefined) return void locs.push(loc);
    const before = structuredClone(p);
    const topicBefore = nameOf('topic', p.topic_id);
    const assetBefore = p.asset_id === null ? null : nameOf('asset', p.asset_id);
    const issues = locs.length;
    const next = structuredClone(p);
    if (given('prompt')) next.prompt = e.prompt as string;
    if (given('language')) {
      if (m.languages.includes(e.language as string)) next.language = e.language as string;
      else locs.push([...loc, 'language']);
    }
    const types =
      (e.analysis_types as string[] | undefined) ?? (given('prompt_type') ? [e.prompt_type as string] : null);
    if (types) next.analysis_types = order.filter((t) => types.includes(t));
    let topic: NamedItem | undefined = topicBefore;
    if (given('topic')) {
      topic = resolve('topic', e.topic as RefInput, [...loc, 'topic']);
      if (topic) next.topic_id = topic.id;
    }
    let asset: NamedItem | null | undefined = assetBefore;
    if (e.asset === null) asset = next.asset_id = null;
    else if (e.asset !== undefined) {
      asset = resolve('asset', e.asset as RefInput, [...loc, 'asset']);
      if (asset) next.asset_id = asset.id;
    }
    const sets = [
      ['tags', 'tag', 'tag_ids'],
      ['personas', 'persona', 'persona_ids'],
      ['platforms', 'platform', 'platform_ids'],
      ['regions', 'region', 'region_ids'],
    ] as const;
    for (const [field, kind, column] of sets) {
      if (!given(field)) continue;
      const ids: string[] = [];
      let ok = true;
      (e[field] as RefInput[]).forEach((r, j) => {
        const item = resolve(kind, r, [...loc, field, j]);
        if (!item) ok = false;
        else if (!ids.includes(item.id)) ids.push(item.id);
      });
      if (ok) next[column] = ids;
    }
    if (locs.length > issues) return;
    const diff: Record<string, unknown> = { id: e.id };
    if (next.prompt !== before.prompt) diff.prompt = { old: before.prompt, new: next.prompt };
    if (next.language !== before.language) diff.language = { old: before.language, new: next.language };
    if (next.analysis_types.join() !== before.analysis_types.join())
      diff.analysis_types = { old: before.analysis_types, new: next.analysis_types };
    if (topic && (topic.id !== topicBefore.id || topic.name !== topicBefore.name))
      diff.topic = { old: topicBefore, new: { id: topic.id, name: topic.name } };
    if ((asset?.id ?? null) !== (assetBefore?.id ?? null))
      diff.asset = { old: assetBefore, new: asset ? { id: asset.id, name: asset.name } : null };
    for (const [field, kind, column] of sets) {
      const old = before[column];
      const now = next[column];
      const added = now.filter((x) => !old.includes(x));
      const removed = old.filter((x) => !now.includes(x));
      if (added.length === 0 && removed.length === 0) next[column] = old;
      else diff[field] = { added: added.map((id) => nameOf(kind, id)), removed: removed.map((id) => nameOf(kind, id)) };
    }
    diffs.push(diff);
    if (Object.keys(diff).length > 1) changed.add(e.id);
    Object.assign(p, next);
  });
  if (locs.length > 0) return { locs };
  return {
    result: { updated: changed.size, topics_created: topicsCreated, tags_created: tagsCreated, prompts: diffs },
    model: m,
  };
}
