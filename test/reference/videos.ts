import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { ChannelsFixture } from '../fixtures/channels.ts';
import { byId, bucketOf, cmp, inWindow, promptContext } from './context.ts';
import { evaluate, type FieldValues } from './filter.ts';
import { answerPart, evaluateTree } from './groups.ts';

export interface VideosQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: string[];
  source_types?: string[];
  interval?: 'day' | 'week' | 'month';
  filter?: FilterNode;
}

type Leaf = Extract<FilterNode, { kind: 'leaf' }>;

/** The channel leaf as the channels report documents it: is/in exact handles; text operators on the title or the handle. */
function channelLeaf(l: Leaf, r: Row): boolean {
  const values = (Array.isArray(l.value) ? l.value : [l.value]).map(String);
  const texts = [r.channel_title, r.channel_handle].filter((t) => t != null).map(String);
  const has = (ci: boolean) =>
    texts.some((t) => (ci ? t.toLowerCase().includes(values[0]!.toLowerCase()) : t.includes(values[0]!)));
  switch (l.op) {
    case 'is':
    case 'in':
      return r.channel_handle != null && values.includes(String(r.channel_handle));
    case 'contains':
      return has(false);
    case 'not_contains':
      return !has(false);
    case 'contains_case_insensitive':
      return has(true);
    case 'not_contains_case_insensitive':
      return !has(true);
    default:
      throw new Error(l.op);
  }
}

/** Every row the videos report should return, in order, computed the plain way. */
export function referenceVideos(f: ChannelsFixture, q: VideosQuery): Record<string, unknown>[] {
  const models = byId(f.models);
  const prompts = byId(f.prompts);
  const context = promptContext(f);
  const values = (r: Row): FieldValues => {
    const types = prompts.get(String(r.prompt_id))!.analysis_types as string[];
    return {
      ...context(r),
      analysis_type: types.flatMap((t) =>
        t === 'accuracy'
          ? [
              { id: t, name: t },
              { id: 'factcheck', name: 'factcheck' },
            ]
          : [{ id: t, name: t }],
      ),
    };
  };
  const leaf = (r: Row) => (l: Leaf) => (l.field === 'channel' ? channelLeaf(l, r) : evaluate(l, values(r)));
  const promptClauses = answerPart(q.filter, ['channel']);
  const types = q.source_types ? [...new Set(q.source_types)] : ['video', 'short'];
  const cross = (q.group_by ?? []).find((d) => d !== 'video') ?? null;
  const period = (r: Row) => (q.interval ? bucketOf(String(r.day), q.interval) : '');

  const scoped = f.citations.filter(
    (r) =>
      inWindow(r, q) &&
      r.source_type != null &&
      types.includes(String(r.source_type)) &&
      promptClauses.every((c) => evaluateTree(c, leaf(r))),
  );
  const totals = new Map<string, number>();
  for (const r of scoped) totals.set(period(r), (totals.get(period(r)) ?? 0) + 1);
  const selected = scoped.filter((r) => r.video_id != null && (!q.filter || evaluateTree(q.filter, leaf(r))));
  const min = (rows: Row[], k: string) =>
    rows
      .map((r) => (r[k] == null ? null : String(r[k])))
      .filter((v): v is string => v !== null)
      .sort(cmp)[0] ?? null;
  const videos = new Map<string, Row[]>();
  for (const r of selected) videos.set(String(r.video_id), [...(videos.get(String(r.video_id)) ?? []), r]);
  const ranked = [...videos].sort(
    (a, b) => b[1].length - a[1].length || cmp(min(a[1], 'video_title'), min(b[1], 'video_title')) || cmp(a[0], b[0]),
  );
  const crossKey = (r: Row) =>
    cross === 'model' ? String(r.model_id) : cross === 'source_type' ? String(r.source_type) : '';
  const crossLabel = (k: string) => (cross === 'model' ? String(models.get(k)!.name) : k);
  return ranked.flatMap(([id, rows], i) => {
    const cells = new Map<string, { cross: string; period: string; n: number }>();
    for (const r of rows) {
      const k = JSON.stringify([crossKey(r), period(r)]);
      const c = cells.get(k) ?? { cross: crossKey(r), period: period(r), n: 0 };
      c.n++;
      cells.set(k, c);
    }
    return [...cells.values()]
      .sort(
        (a, b) =>
          cmp(a.period, b.period) ||
          b.n - a.n ||
          cmp(crossLabel(a.cross), crossLabel(b.cross)) ||
          cmp(a.cross, b.cross),
      )
      .map((c) => {
        const row: Record<string, unknown> = {
          name: min(rows, 'video_title'),
          video_id: id,
          url: min(rows, 'url'),
          channel: min(rows, 'channel_title'),
          handle: min(rows, 'channel_handle'),
          video_category: rows.map((r) => (r.video_category == null ? '' : String(r.video_category))).sort(cmp)[0],
          rank: i + 1,
        };
        if (cross === 'source_type') row.source_type = c.cross;
        if (cross === 'model') row.model = crossLabel(c.cross);
        if (q.interval) row.date = c.period;
        return { ...row, count: c.n, citation_share: c.n / totals.get(c.period)! };
      });
  });
}
