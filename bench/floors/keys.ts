import type { IterationParams } from '../lib/case.ts';
import { dayLabel, monthEnd } from './days.ts';
import { compareText, type EnumName, type Named } from './dims.ts';
import { refJson, str } from './json.ts';
import type { FloorEnv } from './types.ts';

/**
 * A group key of a v2 floor. Rollups hold keys as integers (day numbers, enum codes); a key says how to
 * read it (`sql`), how a row shows it (a date label, or `{id, name}` with the name looked up per request
 * for editable dimensions), and how groups sort (dates ascending; names, then ids, missing last).
 */
export interface KeyDef {
  readonly field: string;
  /** An integer expression over a rollup or fact row: a day number or an enum code. */
  readonly sql: string;
  /** A date bucket, a `{id, name}` ref, or a text value shown as itself (an enum, sorted by code = text order). */
  readonly kind: 'date' | 'ref' | 'text';
  /** Refs shown as `"<field>": name, "<field>_id": id` instead of `{id, name}` (fan-outs show prompts so). */
  readonly flat?: boolean;
  /** Date buckets: the last day of the bucket starting at day number d. */
  readonly bucketEnd?: (d: number) => number;
  /** Ref keys: the enum and where names come from (`(id, name)` SQL over `$1` = the category, or static). */
  readonly enumName?: EnumName;
  readonly names?: string | ((env: FloorEnv) => readonly Named[]);
  /** The rollup column holding the key (an enum), to bound a read to some groups. */
  readonly column?: string;
}

/** A key resolved for one request: each code's JSON and order. */
export interface Key {
  readonly def: KeyDef;
  /** `"field":value` for a code. */
  part(code: number | null): string;
  compare(a: number | null, b: number | null): number;
  /** A number that sorts as `compare` does (missing last), to sort by precomputed keys. */
  ord(code: number | null): number;
  /** The id behind a code (ref keys), for bounding reads. */
  id(code: number): string;
}

export async function resolveKeys(env: FloorEnv, p: IterationParams, defs: readonly KeyDef[]): Promise<Key[]> {
  return Promise.all(defs.map((d) => resolveKey(env, p, d)));
}

async function resolveKey(env: FloorEnv, p: IterationParams, def: KeyDef): Promise<Key> {
  const field = str(def.field);
  if (def.kind === 'date') {
    return {
      def,
      part: (d) => `${field}:"${dayLabel(d!)}"`,
      compare: (a, b) => a! - b!,
      ord: (d) => d ?? Number.MAX_SAFE_INTEGER,
      id: () => '',
    };
  }
  if (def.kind === 'text') {
    const values = await env.dims.values(def.enumName!);
    return {
      def,
      part: (v) => `${field}:${v === null ? 'null' : str(values[v]!)}`,
      compare: (a, b) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : a - b),
      ord: (v) => v ?? Number.MAX_SAFE_INTEGER,
      id: (v) => values[v]!,
    };
  }
  const byCode = new Map<number, Named>();
  const ids = await env.dims.values(def.enumName!);
  if (typeof def.names === 'function') {
    for (const x of def.names(env)) byCode.set(ids.indexOf(x.id), x);
  } else {
    const [code, id, name] = await env.db.columns(
      `SELECT enum_code(TRY_CAST(t.id AS ${def.enumName})), t.id, t.name FROM (${def.names}) t(id, name)`,
      [p.categoryId],
    );
    code!.forEach((c, i) => byCode.set(c as number, { id: id![i] as string, name: name![i] as string }));
  }
  const parts = new Map<number, string>();
  // Each named code's place by name, then id, computed once: sorting groups compares integers.
  const ranks = new Int32Array(ids.length).fill(-1);
  const named = [...byCode.entries()].sort(([, x], [, y]) => compareText(x.name, y.name) || compareText(x.id, y.id));
  named.forEach(([code], i) => code >= 0 && code < ranks.length && (ranks[code] = i));
  // Codes without a name (a row that left the category) sort as an empty name, before the named ones.
  const unnamed = [...ranks.keys()].filter((c) => ranks[c]! < 0).sort((a, b) => compareText(ids[a]!, ids[b]!));
  const ords = new Float64Array(ids.length);
  unnamed.forEach((c, i) => (ords[c] = i));
  ranks.forEach((r, c) => r >= 0 && (ords[c] = unnamed.length + r));
  return {
    def,
    part: (code) => {
      if (code === null) return `${field}:null`;
      let s = parts.get(code);
      if (s === undefined) {
        const x = byCode.get(code);
        const id = x?.id ?? ids[code]!;
        parts.set(
          code,
          (s = def.flat
            ? `${field}:${x?.name === undefined ? 'null' : str(x.name)},${str(`${def.field}_id`)}:${str(id)}`
            : `${field}:${refJson(id, x?.name)}`),
        );
      }
      return s;
    },
    compare: (a, b) => {
      if (a === null) return b === null ? 0 : 1;
      if (b === null) return -1;
      if (ranks[a]! >= 0 && ranks[b]! >= 0) return ranks[a]! - ranks[b]!;
      const x = byCode.get(a);
      const y = byCode.get(b);
      return compareText(x?.name ?? '', y?.name ?? '') || compareText(x?.id ?? ids[a]!, y?.id ?? ids[b]!);
    },
    ord: (code) => (code === null ? Number.MAX_SAFE_INTEGER : ords[code]!),
    id: (code) => ids[code]!,
  };
}

export const groupKey = (vals: readonly (number | null)[]) => vals.join(',');

/** Orders groups by their keys in order. */
export const byKeys =
  (keys: readonly Key[]) => (a: { vals: readonly (number | null)[] }, b: { vals: readonly (number | null)[] }) => {
    for (let i = 0; i < keys.length; i++) {
      const c = keys[i]!.ord(a.vals[i]!) - keys[i]!.ord(b.vals[i]!);
      if (c !== 0) return c;
    }
    return 0;
  };

/** ` AND col IN ('a', 'b')` for ids the floor itself read or resolved (never request text). */
export const inList = (column: string, ids: readonly string[]) =>
  ` AND ${column} IN (${ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(', ')})`;

/** Date keys over a rollup's day number `d`. */
export const dateKeys = {
  day: { field: 'date', sql: 'd', kind: 'date', bucketEnd: (d: number) => d },
  week: { field: 'date', sql: '(d - (d + 3) % 7)', kind: 'date', bucketEnd: (d: number) => d + 6 },
  month: {
    field: 'date',
    sql: `(date_trunc('month', DATE '1970-01-01' + d) - DATE '1970-01-01')::INTEGER`,
    kind: 'date',
    bucketEnd: monthEnd,
  },
} satisfies Record<string, KeyDef>;

/** `{id, name}` keys over a rollup's enum columns. */
export const refKeys = {
  model: {
    field: 'model',
    sql: 'enum_code(model)',
    kind: 'ref',
    enumName: 'floor_model',
    names: (env) => env.dims.models,
    column: 'model',
  },
  region: {
    field: 'region',
    sql: 'enum_code(region)',
    kind: 'ref',
    enumName: 'floor_region',
    names: (env) => env.dims.regions,
    column: 'region',
  },
  topic: {
    field: 'topic',
    sql: 'enum_code(topic)',
    kind: 'ref',
    enumName: 'floor_topic',
    names: 'SELECT id, name FROM topics WHERE category_id = $1',
    column: 'topic',
  },
  prompt: {
    field: 'prompt',
    sql: 'enum_code(prompt)',
    kind: 'ref',
    enumName: 'floor_prompt',
    names: 'SELECT id, prompt FROM prompts WHERE category_id = $1',
    column: 'prompt',
  },
  persona: {
    field: 'persona',
    sql: 'enum_code(persona)',
    kind: 'ref',
    enumName: 'floor_persona',
    names: 'SELECT id, name FROM personas WHERE category_id = $1',
    column: 'persona',
  },
} satisfies Record<string, KeyDef>;

/**
 * Ranks groups within their date bucket (all together without a date key): by date, then `first` (the
 * report's measure, as a number that sorts best first: e.g. −count), then the other keys' names and ids.
 * Returns them in row order, each with its rank and its key fields as JSON (each followed by a comma).
 */
export function rankWithinDate<G extends { vals: (number | null)[] }>(
  keys: readonly Key[],
  groups: G[],
  first: (g: G) => number,
  slice = { start: 0, end: Number.POSITIVE_INFINITY },
): { g: G; rank: number; prefix: string }[] {
  const d = keys.findIndex((k) => k.def.kind === 'date');
  const others = keys.map((_, i) => i).filter((i) => i !== d);
  // TRICKY: each group's sort key is computed once into one flat array (date, the measure, then the other
  // keys' order numbers), so sorting compares numbers without allocating.
  const width = 2 + others.length;
  const sk = new Float64Array(groups.length * width);
  groups.forEach((g, n) => {
    const at = n * width;
    sk[at] = d >= 0 ? g.vals[d]! : 0;
    sk[at + 1] = first(g);
    for (let j = 0; j < others.length; j++) sk[at + 2 + j] = keys[others[j]!]!.ord(g.vals[others[j]!]!);
  });
  const order = Array.from({ length: groups.length }, (_, i) => i);
  order.sort((a, b) => {
    const x = a * width;
    const y = b * width;
    for (let i = 0; i < width; i++) if (sk[x + i] !== sk[y + i]) return sk[x + i]! - sk[y + i]!;
    return 0;
  });
  // Every group is ranked; only those in `slice` (a page's positions in the order) are written.
  const out: { g: G; rank: number; prefix: string }[] = [];
  let rank = 0;
  let bucket: number | null = null;
  for (let at = 0; at < order.length && at < slice.end; at++) {
    const g = groups[order[at]!]!;
    rank = d >= 0 && g.vals[d] !== bucket ? 1 : rank + 1;
    bucket = d >= 0 ? g.vals[d]! : null;
    if (at < slice.start) continue;
    let prefix = '';
    for (let j = 0; j < keys.length; j++) prefix += `${keys[j]!.part(g.vals[j]!)},`;
    out.push({ g, rank, prefix });
  }
  return out;
}

/** ` AND col IN ('…'::UUID, …)` for run ids the floor itself read. */
export const uuidList = (column: string, ids: readonly string[]) =>
  ` AND ${column} IN (${ids.map((id) => `'${id.replace(/'/g, "''")}'::UUID`).join(', ')})`;
