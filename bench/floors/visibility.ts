import type { IterationParams } from '../lib/case.ts';
import type { Brand } from './dims.ts';
import { num, str, v2Page } from './json.ts';
import { byKeys, dateKeys, groupKey, inList, refKeys, resolveKeys, type Key, type KeyDef } from './keys.ts';
import { page, stream, type FloorEnv, type ReportFloors } from './types.ts';
import { grains, visibilityRollups, type Grain } from './visibility-rollups.ts';
import { daySlices, windowParams } from './window.ts';

/**
 * v2 visibility. Per group: the answers of the visibility prompts, and each brand's mentions and position
 * sum; every brand of the category ranked by visibility (mentions / answers) descending, then name, then
 * id; share of voice over every mention of the group. A page reads the answers per group (total = groups ×
 * brands, and the models), then the mentions of the page's groups only; a stream reads the mentions one
 * slice of days at a time, so its first row comes after the first slice.
 */

interface Spec {
  readonly grain: Grain;
  readonly keys: readonly KeyDef[];
  /** A predicate over the rollup's columns (ids resolved from names when the floor runs). */
  readonly where?: (env: FloorEnv) => string;
}

interface Group {
  readonly vals: (number | null)[];
  /** The row's key fields as JSON, each followed by a comma. */
  prefix: string;
  n: number;
}

const pageSize = 10;
const window = 'category_id = $1 AND d BETWEEN $2 AND $3';

/** Answers per group of the window, the groups in row order, and (for pages) the models with answers. */
async function answerGroups(
  env: FloorEnv,
  p: IterationParams,
  spec: Spec,
  keys: readonly Key[],
  withModels: boolean,
): Promise<{ groups: Group[]; models: string[] }> {
  const where = spec.where?.(env) ?? '';
  const k = keys.length;
  const hasModel = 'model' in grains[spec.grain].cols;
  const cols = [...spec.keys.map((x) => x.sql), ...(hasModel ? ['enum_code(model)'] : []), 'sum(n)::INTEGER'];
  const c = await env.db.columns(
    `SELECT ${cols.join(', ')} FROM floor_vis_answers_${spec.grain} WHERE ${window}${where} GROUP BY ALL`,
    windowParams(p),
  );
  const n = c[c.length - 1] as number[];
  const byKey = new Map<string, Group>();
  for (let i = 0; i < n.length; i++) {
    const vals = keys.map((_, j) => c[j]![i] as number);
    const key = groupKey(vals);
    const g = byKey.get(key);
    if (g) g.n += n[i]!;
    else byKey.set(key, { vals, prefix: '', n: n[i]! });
  }
  const groups = [...byKey.values()].sort(byKeys(keys));
  for (const g of groups) g.prefix = keys.map((key, i) => `${key.part(g.vals[i]!)},`).join('');
  let codes: number[] = [];
  if (withModels)
    codes = hasModel
      ? (c[k] as number[])
      : ((
          await env.db.columns(
            `SELECT DISTINCT enum_code(model) FROM floor_vis_answers_dmr WHERE ${window}${where}`,
            windowParams(p),
          )
        )[0] as number[]);
  const models = [...new Set(codes)].map((code) => env.dims.models[code]!.name).sort();
  return { groups, models };
}

/** Mentions (count, position sum) per group key and brand over days [from, to], bounded to some groups' key values when given. */
async function mentionsOf(
  env: FloorEnv,
  spec: Spec,
  keys: readonly Key[],
  p: IterationParams,
  groups: readonly Group[] | null,
  from: number,
  to: number,
) {
  const bounds = groups
    ? keys
        .map((key, i) =>
          key.def.column ? inList(key.def.column, [...new Set(groups.map((g) => key.id(g.vals[i]!)))]) : '',
        )
        .join('')
    : '';
  const k = keys.length;
  const c = await env.db.columns(
    `SELECT ${[...spec.keys.map((x) => x.sql), 'enum_code(asset)', 'sum(n)::INTEGER', 'sum(pos)'].join(', ')} FROM floor_vis_mentions_${spec.grain} WHERE ${window}${spec.where?.(env) ?? ''}${bounds} GROUP BY ALL`,
    [p.categoryId, from, to],
  );
  const out = new Map<string, { n: Map<number, number>; pos: Map<number, number> }>();
  const [assets, n, pos] = [c[k]! as number[], c[k + 1]! as number[], c[k + 2]! as number[]];
  for (let i = 0; i < assets.length; i++) {
    const key = groupKey(keys.map((_, j) => c[j]![i] as number));
    let m = out.get(key);
    if (!m) out.set(key, (m = { n: new Map(), pos: new Map() }));
    m.n.set(assets[i]!, n[i]!);
    m.pos.set(assets[i]!, pos[i]!);
  }
  return out;
}

const brandJson = new Map<number, string>();
const brandPart = (b: Brand) => {
  let s = brandJson.get(b.code);
  if (s === undefined) brandJson.set(b.code, (s = `"asset":{"name":${str(b.name)},"owned":${b.owned}}`));
  return s;
};

/** A group's rows from rank `from` to `to` (0-based, exclusive): brands by mentions descending, then name, then id. */
function groupRows(
  brands: readonly Brand[],
  g: Group,
  m: { n: Map<number, number>; pos: Map<number, number> } | undefined,
  from: number,
  to: number,
  out: string[],
): void {
  const n = brands.map((b) => m?.n.get(b.code) ?? 0);
  const order = brands.map((_, i) => i).sort((a, b) => n[b]! - n[a]! || a - b);
  const total = n.reduce((s, x) => s + x, 0);
  for (let r = from; r < to; r++) {
    const i = order[r]!;
    const b = brands[i]!;
    const mentions = n[i]!;
    const avg = mentions === 0 ? null : m!.pos.get(b.code)! / mentions;
    out.push(
      `{${g.prefix}${brandPart(b)},"rank":${r + 1},"visibility_score":${num(mentions / g.n)},"share_of_voice":${total === 0 ? 0 : num(mentions / total)},"average_position":${num(avg)}}`,
    );
  }
}

/** The day numbers a set of groups covers: their own days when grouped by date, else the window. */
function spanOf(keys: readonly Key[], groups: readonly Group[], [, from, to]: readonly unknown[]): [number, number] {
  const d = keys.findIndex((k) => k.def.kind === 'date');
  if (d < 0) return [from as number, to as number];
  const first = groups[0]!.vals[d]!;
  const last = keys[d]!.def.bucketEnd!(groups[groups.length - 1]!.vals[d]!);
  return [Math.max(first, from as number), Math.min(last, to as number)];
}

export interface VisibilityPage {
  readonly total: number;
  readonly models: readonly string[];
  /** The page's rows as JSON. */
  readonly rows: readonly string[];
}

/** A page of visibility rows (the floor's answer, and the body of the HTTP floor server). */
async function visibilityPage(env: FloorEnv, p: IterationParams, spec: Spec, pageNo: number): Promise<VisibilityPage> {
  const keys = await resolveKeys(env, p, spec.keys);
  const { groups, models } = await answerGroups(env, p, spec, keys, true);
  const brands = env.dims.brands(p.categoryId);
  const b = brands.length;
  const offset = (pageNo - 1) * pageSize;
  const first = Math.floor(offset / b);
  const last = Math.min(groups.length - 1, Math.floor((offset + pageSize - 1) / b));
  const rows: string[] = [];
  if (first <= last) {
    const onPage = groups.slice(first, last + 1);
    const [from, to] = spanOf(keys, onPage, windowParams(p));
    const mentions = await mentionsOf(env, spec, keys, p, onPage, from, to);
    onPage.forEach((g, i) => {
      const at = (first + i) * b;
      groupRows(
        brands,
        g,
        mentions.get(groupKey(g.vals)),
        Math.max(0, offset - at),
        Math.min(b, offset + pageSize - at),
        rows,
      );
    });
  }
  return { total: groups.length * b, models, rows };
}

function pageFloor(spec: Spec, pageNo: number) {
  return page(async (env, p) => {
    const { total, models, rows } = await visibilityPage(env, p, spec, pageNo);
    return v2Page(total, models, rows);
  });
}

/** Page 1 of a window, ungrouped, scope all (the HTTP floor server's request). */
export const visibilityWindowPage = (env: FloorEnv, p: IterationParams) =>
  visibilityPage(env, p, { grain: 'dm', keys: [] }, 1);

/** Every row: the groups first (the summary's count), then the mentions one slice of days at a time. */
function streamFloor(spec: Spec, sliceDays: number) {
  return stream(async function* (env, p) {
    const keys = await resolveKeys(env, p, spec.keys);
    const { groups } = await answerGroups(env, p, spec, keys, false);
    const brands = env.dims.brands(p.categoryId);
    const d = keys.findIndex((k) => k.def.kind === 'date');
    const [, start, end] = windowParams(p) as [string, number, number];
    let at = 0;
    for (const [from, to] of daySlices(start, end, sliceDays)) {
      const slice: Group[] = [];
      while (at < groups.length && groups[at]!.vals[d]! <= to) slice.push(groups[at++]!);
      if (slice.length === 0) continue;
      const mentions = await mentionsOf(env, spec, keys, p, null, from, to);
      const rows: string[] = [];
      for (const g of slice) groupRows(brands, g, mentions.get(groupKey(g.vals)), 0, brands.length, rows);
      yield rows;
    }
  });
}

const regionsAndModels = (env: FloorEnv) =>
  `${inList(
    'region',
    ['United States', 'Canada'].map((n) => env.dims.regions[env.dims.regionCode.get(n)!]!.id),
  )} AND model <> '${env.dims.models[env.dims.modelCode.get('Grok')!]!.id}'`;
const unitedStates = (env: FloorEnv) =>
  ` AND region = '${env.dims.regions[env.dims.regionCode.get('United States')!]!.id}'`;
const { day, week } = dateKeys;
const { model, topic, prompt } = refKeys;

export const visibilityFloors: ReportFloors = {
  report: 'visibility',
  rollups: (['dm', 'dmr', 'drt', 'dp'] as const).flatMap(visibilityRollups),
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, pageFloor({ grain: 'dm', keys: [] }, 1)])),
    'date-30': pageFloor({ grain: 'dm', keys: [day] }, 1),
    'date-model-30': pageFloor({ grain: 'dm', keys: [day, model] }, 1),
    'date-model-30-p50': pageFloor({ grain: 'dm', keys: [day, model] }, 50),
    'model-filter-90': pageFloor({ grain: 'dmr', keys: [model], where: regionsAndModels }, 1),
    'week-365': pageFloor({ grain: 'dm', keys: [week] }, 1),
    'topic-filter-365': pageFloor({ grain: 'drt', keys: [topic], where: unitedStates }, 1),
    'stream-date-model-365': streamFloor({ grain: 'dm', keys: [day, model] }, 31),
    'stream-date-prompt-30': streamFloor({ grain: 'dp', keys: [day, prompt] }, 7),
  }),
};
