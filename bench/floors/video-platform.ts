import type { IterationParams } from '../lib/case.ts';
import { dayLabel, daySql } from './days.ts';
import { compareText } from './dims.ts';
import { num, str, v2Page } from './json.ts';
import { inList } from './keys.ts';
import { page, stream, type FloorEnv, type FloorRollup, type PageFloor, type StreamFloor } from './types.ts';
import { windowParams } from './window.ts';

/**
 * The video-platform reports (channels, videos). Leading units (channels, or videos) rank by their count
 * over the whole window, then title, then id; a page holds `limit` leading units with all their rows
 * (periods ascending, count descending, the crossed value by name). citation_share divides by the
 * citations of the requested source types after the prompt-level clauses, per period with an interval.
 * The floor ranks the units first, then reads the page's units' rows only (a stream, a slice of units at
 * a time).
 */

export const videoRollups: FloorRollup[] = [
  {
    name: 'floor_yt_cites',
    grain: 'category × day × model × source type × channel × video × URL',
    measures: 'citations',
    source: 'video-platform citations (source types video, short, channel, playlist) of every prompt',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, f.source_type AS source, f.channel_id::floor_channel AS channel,
  TRY_CAST(f.video_id AS floor_video) AS video, f.url::floor_url AS url, count(*)::INTEGER AS n
FROM citations f SEMI JOIN prompts p ON p.id = f.prompt_id WHERE f.source_type IN ('video', 'short', 'channel', 'playlist') GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_yt_channels',
    grain: 'channel',
    measures: 'title, handle, URL',
    source: 'citations with a channel',
    sql: `SELECT DISTINCT channel_id::floor_channel AS channel, channel_title AS title, channel_handle AS handle, channel_url AS url FROM citations WHERE channel_id IS NOT NULL`,
  },
  {
    name: 'floor_yt_videos',
    grain: 'video',
    measures: 'title, video category, channel',
    source: 'citations with a video',
    sql: `SELECT DISTINCT video_id::floor_video AS video, video_title AS title, video_category AS category, channel_id::floor_channel AS channel FROM citations WHERE video_id IS NOT NULL`,
  },
];

interface Unit {
  readonly id: string;
  readonly title: string;
  /** The row's leading fields as JSON, up to and excluding rank. */
  readonly head: string;
}

const units = (env: FloorEnv, kind: 'channel' | 'video') =>
  env.dims.memo(`yt-${kind}`, async () => {
    const out = new Map<number, Unit>();
    const [cc, ct, ch, cu] = await env.db.columns(
      'SELECT enum_code(channel), title, handle, url FROM floor_yt_channels',
    );
    const ids = await env.dims.values(kind === 'channel' ? 'floor_channel' : 'floor_video');
    if (kind === 'channel') {
      cc!.forEach((c, i) =>
        out.set(c as number, {
          id: ids[c as number]!,
          title: ct![i] as string,
          head: `"name":${str(ct![i] as string)},"handle":${str(ch![i] as string)},"url":${str(cu![i] as string)}`,
        }),
      );
      return out;
    }
    const channels = new Map(
      cc!.map((c, i) => [c as number, `"channel":${str(ct![i] as string)},"handle":${str(ch![i] as string)}`]),
    );
    const [vc, vt, vcat, vch] = await env.db.columns(
      'SELECT enum_code(video), title, category, enum_code(channel) FROM floor_yt_videos',
    );
    vc!.forEach((c, i) =>
      out.set(c as number, {
        id: ids[c as number]!,
        title: vt![i] as string,
        head: `"name":${str(vt![i] as string)},"video_id":${str(ids[c as number]!)},"url":%URL%,${channels.get(vch![i] as number)},"video_category":${str((vcat![i] as string | null) ?? '')}`,
      }),
    );
    return out;
  });

export interface VideoSpec {
  readonly unit: 'channel' | 'video';
  readonly sources: readonly string[];
  readonly cross?: 'model' | 'source_type';
  readonly interval?: 'day' | 'week';
  /** A prompt-level predicate over the rollup (scopes the denominators too). */
  readonly filter?: (env: FloorEnv) => string;
  readonly limit?: number;
  readonly page?: number;
}

const window = 'category_id = $1 AND d BETWEEN $2 AND $3';
const periodSql = (s: VideoSpec) => (s.interval === 'week' ? '(d - (d + 3) % 7)' : s.interval === 'day' ? 'd' : '0');
const crossSql = (s: VideoSpec) =>
  s.cross === 'model' ? 'enum_code(model)' : s.cross === 'source_type' ? 'source' : "''";
const scope = (env: FloorEnv, s: VideoSpec) =>
  `${window} AND source IN (${s.sources.map((x) => `'${x}'`).join(', ')})${s.filter?.(env) ?? ''}`;

/** The window's units in rank order, the per-period denominators and the models of the scope. */
async function ranking(env: FloorEnv, p: IterationParams, s: VideoSpec) {
  const [uc, un] = await env.db.columns(
    `SELECT enum_code(${s.unit}), sum(n)::INTEGER FROM floor_yt_cites WHERE ${scope(env, s)} GROUP BY ALL`,
    windowParams(p),
  );
  const catalog = await units(env, s.unit);
  const ranked = uc!
    .map((c, i) => ({ code: c as number, count: un![i] as number }))
    .sort((a, b) => {
      const x = catalog.get(a.code)!;
      const y = catalog.get(b.code)!;
      return b.count - a.count || compareText(x.title, y.title) || compareText(x.id, y.id);
    });
  const [tp, tm, tn] = await env.db.columns(
    `SELECT ${periodSql(s)}, enum_code(model), sum(n)::INTEGER FROM floor_yt_cites WHERE ${scope(env, s)} GROUP BY ALL`,
    windowParams(p),
  );
  const totals = new Map<number, number>();
  tp!.forEach((x, i) => totals.set(x as number, (totals.get(x as number) ?? 0) + (tn![i] as number)));
  const models = [...new Set(tm as number[])].map((m) => env.dims.models[m]!.name).sort();
  return { ranked, totals, models, catalog };
}

interface Cell {
  readonly per: number;
  readonly cross: unknown;
  readonly n: number;
  /** Distinct videos (channels), or the cell's smallest URL code (videos: codes are in text order). */
  readonly extra: number;
}

/** The cells of some units (all of the scope's when `units` is null), by unit. */
async function cellsOf(
  env: FloorEnv,
  p: IterationParams,
  s: VideoSpec,
  units: readonly number[] | null,
): Promise<Map<number, Cell[]>> {
  const ids = await env.dims.values(s.unit === 'channel' ? 'floor_channel' : 'floor_video');
  const measure = s.unit === 'channel' ? 'count(DISTINCT video)::INTEGER' : 'min(enum_code(url))::INTEGER';
  const bound = units
    ? inList(
        s.unit,
        units.map((code) => ids[code]!),
      )
    : '';
  const [u, per, cross, n, extra] = await env.db.columns(
    `SELECT enum_code(${s.unit}), ${periodSql(s)}, ${crossSql(s)}, sum(n)::INTEGER, ${measure} FROM floor_yt_cites WHERE ${scope(env, s)}${bound} GROUP BY ALL`,
    windowParams(p),
  );
  const cells = new Map<number, Cell[]>();
  for (let i = 0; i < u!.length; i++) {
    const code = u![i] as number;
    const list = cells.get(code);
    const cell = { per: per![i] as number, cross: cross![i], n: n![i] as number, extra: extra![i] as number };
    if (list) list.push(cell);
    else cells.set(code, [cell]);
  }
  return cells;
}

/** The rows of some ranked units (their 1-based ranks given), in order: periods ascending, count descending, the crossed value by name. */
async function unitRows(
  env: FloorEnv,
  s: VideoSpec,
  list: readonly { code: number; rank: number }[],
  cells: Map<number, Cell[]>,
  totals: Map<number, number>,
  catalog: Map<number, Unit>,
): Promise<string[]> {
  const models = env.dims.models;
  const urls = s.unit === 'video' ? await env.dims.values('floor_url') : [];
  const crossName = (v: unknown) => (s.cross === 'model' ? models[v as number]!.name : (v as string));
  const out: string[] = [];
  for (const { code, rank } of list) {
    const own = (cells.get(code) ?? []).sort(
      (a, b) => a.per - b.per || b.n - a.n || compareText(crossName(a.cross), crossName(b.cross)),
    );
    const unit = catalog.get(code)!;
    const head =
      s.unit === 'video' ? unit.head.replace('%URL%', str(urls[Math.min(...own.map((c) => c.extra))]!)) : unit.head;
    for (const c of own) {
      const cross =
        s.cross === 'model'
          ? `"model":${str(crossName(c.cross))},`
          : s.cross === 'source_type'
            ? `"source_type":${str(c.cross as string)},`
            : '';
      const date = s.interval ? `"date":"${dayLabel(c.per)}",` : '';
      const videos = s.unit === 'channel' ? `"videos":${c.extra},` : '';
      out.push(
        `{${head},"rank":${rank},${cross}${date}"count":${c.n},${videos}"citation_share":${num(c.n / totals.get(c.per)!)}}`,
      );
    }
  }
  return out;
}

export function videoPage(s: VideoSpec): PageFloor {
  const limit = s.limit ?? 10;
  return page(async (env, p) => {
    const { ranked, totals, models, catalog } = await ranking(env, p, s);
    const offset = ((s.page ?? 1) - 1) * limit;
    const onPage = ranked.slice(offset, offset + limit).map((x, i) => ({ code: x.code, rank: offset + i + 1 }));
    const cells = onPage.length
      ? await cellsOf(
          env,
          p,
          s,
          onPage.map((x) => x.code),
        )
      : new Map<number, Cell[]>();
    return v2Page(ranked.length, models, await unitRows(env, s, onPage, cells, totals, catalog));
  });
}

/**
 * Every unit's rows in rank order: the units ranked, then every cell read once (the order is by unit rank,
 * so it cannot be sliced by time), and the rows written `slice` units at a time.
 */
export function videoStream(s: VideoSpec, slice: number): StreamFloor {
  return stream(async function* (env, p) {
    const { ranked, totals, catalog } = await ranking(env, p, s);
    const cells = await cellsOf(env, p, s, null);
    for (let at = 0; at < ranked.length; at += slice) {
      yield await unitRows(
        env,
        s,
        ranked.slice(at, at + slice).map((x, i) => ({ code: x.code, rank: at + i + 1 })),
        cells,
        totals,
        catalog,
      );
    }
  });
}
