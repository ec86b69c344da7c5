import type { FloorDb } from './db.ts';

/**
 * Dictionary codes. Floor rollups store their keys as DuckDB ENUMs over the dimension's ids, so a floor
 * reads keys as small integers (`enum_code(col)`) instead of 36-character UUID strings, and maps them back
 * in JS. The enums are made once per DuckDB instance, before any rollup and before timing.
 */
export const enums = {
  floor_model: 'SELECT id FROM models',
  floor_region: 'SELECT id FROM regions',
  floor_asset: 'SELECT id FROM assets',
  floor_prompt: 'SELECT id FROM prompts',
  floor_topic: 'SELECT id FROM topics',
  floor_persona: 'SELECT id FROM personas',
  floor_tag: 'SELECT id FROM tags',
  floor_theme: 'SELECT id FROM themes',
  floor_claim: 'SELECT id FROM sentiment_claims',
  floor_product: 'SELECT id FROM products',
  floor_cluster: 'SELECT id FROM claim_clusters',
  floor_domain: 'SELECT DISTINCT root_domain FROM citations',
  floor_url: 'SELECT DISTINCT url FROM citations',
  floor_query: 'SELECT DISTINCT query FROM fanouts',
  floor_channel: 'SELECT DISTINCT channel_id FROM citations WHERE channel_id IS NOT NULL',
  floor_video: 'SELECT DISTINCT video_id FROM citations WHERE video_id IS NOT NULL',
  floor_path: 'SELECT path FROM bot_events UNION SELECT path FROM referral_visits',
  floor_bot: 'SELECT DISTINCT bot_name FROM bot_events',
  floor_source: 'SELECT DISTINCT referral_source FROM referral_visits',
} as const;
export type EnumName = keyof typeof enums;

/** The static dimensions' enums, which every floor's dims read. */
const base: readonly EnumName[] = ['floor_model', 'floor_region', 'floor_asset'];

/** Makes the enums named (and the base ones) that do not exist yet. */
export async function createEnums(db: FloorDb, names: readonly EnumName[] = []): Promise<void> {
  const [existing] = await db.columns(`SELECT type_name FROM duckdb_types() WHERE type_name LIKE 'floor_%'`);
  for (const name of new Set([...base, ...names])) {
    if (!existing!.includes(name))
      await db.exec(`CREATE TYPE ${name} AS ENUM (SELECT v FROM (${enums[name]}) t(v) WHERE v IS NOT NULL ORDER BY v)`);
  }
}

/** The enums a piece of SQL names. */
export const enumsIn = (sql: string): EnumName[] =>
  (Object.keys(enums) as EnumName[]).filter((n) => new RegExp(`\\b${n}\\b`).test(sql));

/** The values of an enum by code. */
export async function enumValues(db: FloorDb, name: EnumName): Promise<string[]> {
  const [values] = await db.columns(`SELECT unnest(enum_range(NULL::${name}))`);
  return values as string[];
}

export interface Named {
  readonly id: string;
  readonly name: string;
}

export interface Brand extends Named {
  readonly code: number;
  readonly owned: boolean;
}

/**
 * The dimension tables no API edits (models, regions, brands), read once before timing, by code, as the
 * engine keeps its ownership maps in memory. Editable ones (prompts, topics, tags, personas) are read per
 * request.
 */
export interface Dims {
  readonly models: readonly Named[];
  readonly regions: readonly Named[];
  readonly assets: readonly Brand[];
  readonly modelCode: ReadonlyMap<string, number>;
  readonly regionCode: ReadonlyMap<string, number>;
  /** A category's brands by name, then id. */
  brands(categoryId: string): readonly Brand[];
  /** An enum's values by code, read once. */
  values(name: EnumName): Promise<readonly string[]>;
  /** A static table read once (products, clusters, themes), by a key naming it. */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
}

export const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const byNameThenId = <T extends Named>(a: T, b: T) => compareText(a.name, b.name) || compareText(a.id, b.id);

export async function loadDims(db: FloorDb): Promise<Dims> {
  const named = async (sql: string): Promise<Named[]> => {
    const [id, name] = await db.columns(sql);
    return id!.map((v, i) => ({ id: v as string, name: name![i] as string }));
  };
  const models = await named('SELECT m.id, m.name FROM models m ORDER BY enum_code(m.id::floor_model)');
  const regions = await named('SELECT r.id, r.name FROM regions r ORDER BY enum_code(r.id::floor_region)');
  const [ai, an, ao, ac] = await db.columns(
    'SELECT id, name, is_owned, category_id FROM assets ORDER BY enum_code(id::floor_asset)',
  );
  const assets: Brand[] = ai!.map((id, code) => ({
    id: id as string,
    name: an![code] as string,
    owned: ao![code] as boolean,
    code,
  }));
  const brands = new Map<string, Brand[]>();
  ac!.forEach((c, code) => brands.set(c as string, [...(brands.get(c as string) ?? []), assets[code]!]));
  for (const list of brands.values()) list.sort(byNameThenId);
  const nameCode = (list: readonly Named[]) => new Map(list.map((x, code) => [x.name, code]));
  const cache = new Map<EnumName, Promise<string[]>>();
  const memos = new Map<string, Promise<unknown>>();
  return {
    models,
    regions,
    assets,
    modelCode: nameCode(models),
    regionCode: nameCode(regions),
    brands: (categoryId) => brands.get(categoryId) ?? [],
    values: (name) => {
      if (!cache.has(name)) cache.set(name, enumValues(db, name));
      return cache.get(name)!;
    },
    memo: <T>(key: string, load: () => Promise<T>) => {
      if (!memos.has(key)) memos.set(key, load());
      return memos.get(key) as Promise<T>;
    },
  };
}
