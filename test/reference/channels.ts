import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { ChannelsFixture } from '../fixtures/channels.ts';
import { byId, bucketOf, cmp, inWindow, promptContext } from './context.ts';
import { evaluate, type FieldValues } from './filter.ts';

export interface ChannelsQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: string[];
  source_types?: string[];
  interval?: 'day' | 'week' | 'month';
  filter?: FilterNode;
}

type Leaf = Extract<FilterNode, { kind: 'leaf' }>;

const hasChannel = (n: FilterNode): boolean =>
  n.kind === 'leaf' ? n.field === 'channel' : n.kind === 'not' ? hasChannel(n.child) : n.children.some(hasChannel);
const hasPrompt = (n: FilterNode): boolean =>
  n.kind === 'leaf' ? n.field !== 'channel' : n.kind === 'not' ? hasPrompt(n.child) : n.children.some(hasPrompt);
const depth = (n: FilterNode): number =>
  n.kind === 'leaf' ? 0 : 1 + (n.kind === 'not' ? depth(n.child) : Math.max(...n.children.map(depth)));

/** The seed's rules, read plainly: at most 3 groups deep; no or/not mixing channel and prompt-level leaves; exact channel leaves never under or/not. */
export function channelFilterAllowed(root: FilterNode): boolean {
  if (depth(root) > 3) return false;
  const ok = (n: FilterNode, underOrNot: boolean): boolean => {
    if (n.kind === 'leaf') return !(n.field === 'channel' && underOrNot && (n.op === 'is' || n.op === 'in'));
    if (n.kind !== 'and' && hasChannel(n) && hasPrompt(n)) return false;
    if (n.kind === 'not') return ok(n.child, true);
    return n.children.every((c) => ok(c, underOrNot || n.kind === 'or'));
  };
  return ok(root, false);
}

function channelLeaf(leaf: Leaf, r: Row): boolean {
  const values = (Array.isArray(leaf.value) ? leaf.value : [leaf.value]).map(String);
  const title = r.channel_title == null ? null : String(r.channel_title);
  const handle = r.channel_handle == null ? null : String(r.channel_handle);
  const texts = [title, handle].filter((t): t is string => t !== null);
  switch (leaf.op) {
    case 'is':
    case 'in':
      return handle !== null && values.includes(handle);
    case 'contains':
      return texts.some((t) => t.includes(values[0]!));
    case 'not_contains':
      return !texts.some((t) => t.includes(values[0]!));
    case 'contains_case_insensitive':
      return texts.some((t) => t.toLowerCase().includes(values[0]!.toLowerCase()));
    case 'not_contains_case_insensitive':
      return !texts.some((t) => t.toLowerCase().includes(values[0]!.toLowerCase()));
    default:
      throw new Error(`channel does not take ${leaf.op}`);
  }
}

/** Every row the channels report should return, in order, computed the plain way. */
export function referenceChannels(f: ChannelsFixture, q: ChannelsQuery): Record<string, unknown>[] {
  const context = promptContext(f);
  const prompts = byId(f.prompts);
  const models = byId(f.models);
  const values = (r: Row): FieldValues => {
    const types = prompts.get(String(r.prompt_id))!.analysis_types as string[];
    const analysis = types.flatMap((t) =>
      t === 'accuracy'
        ? [
            { id: t, name: t },
            { id: 'factcheck', name: 'factcheck' },
          ]
        : [{ id: t, name: t }],
    );
    return { ...context(r), analysis_type: analysis };
  };
  const test = (n: FilterNode, r: Row): boolean => {
    switch (n.kind) {
      case 'and':
        return n.children.every((c) => test(c, r));
      case 'or':
        return n.children.some((c) => test(c, r));
      case 'not':
        return !test(n.child, r);
      case 'leaf':
        return n.field === 'channel' ? channelLeaf(n, r) : evaluate(n, values(r));
    }
  };
  // The prompt-level part: channel-only clauses of the top-level and count as true.
  const promptPart = (n: FilterNode, r: Row): boolean => {
    if (!hasPrompt(n)) return true;
    if (n.kind === 'and') return n.children.every((c) => promptPart(c, r));
    return test(n, r);
  };
  const types = q.source_types ? [...new Set(q.source_types)] : ['video', 'short', 'channel', 'playlist'];
  const dims = q.group_by && q.group_by.length > 0 ? q.group_by : ['channel'];
  const lead = dims.length === 1 ? dims[0]! : 'channel';
  const cross = dims.find((d) => d !== 'channel' && dims.length === 2) ?? null;
  const period = (r: Row) => (q.interval ? bucketOf(String(r.day), q.interval) : '');
  const category = (r: Row) => (r.video_category == null ? '' : String(r.video_category));

  const scoped = f.citations.filter(
    (r) =>
      inWindow(r, q) &&
      r.source_type != null &&
      types.includes(String(r.source_type)) &&
      (!q.filter || promptPart(q.filter, r)),
  );
  const totals = new Map<string, number>();
  for (const r of scoped) totals.set(period(r), (totals.get(period(r)) ?? 0) + 1);
  const selected = scoped.filter(
    (r) => (!q.filter || test(q.filter, r)) && (lead !== 'channel' || r.channel_id != null),
  );

  const leadKey = (r: Row) =>
    lead === 'channel' ? String(r.channel_id) : lead === 'video_category' ? category(r) : String(r.source_type);
  const crossKey = (r: Row) =>
    cross === 'video_category'
      ? category(r)
      : cross === 'source_type'
        ? String(r.source_type)
        : cross === 'model'
          ? String(r.model_id)
          : '';
  const leads = new Map<string, { n: number; sample: Row }>();
  for (const r of selected) {
    const k = leadKey(r);
    const cur = leads.get(k);
    leads.set(k, { n: (cur?.n ?? 0) + 1, sample: cur?.sample ?? r });
  }
  const label = (k: string) => (lead === 'channel' ? String(leads.get(k)!.sample.channel_title) : k);
  const ranked = [...leads.keys()].sort(
    (a, b) => leads.get(b)!.n - leads.get(a)!.n || cmp(label(a), label(b)) || cmp(a, b),
  );

  const cells = new Map<string, { lead: string; cross: string; period: string; n: number; videos: Set<string> }>();
  for (const r of selected) {
    const key = JSON.stringify([leadKey(r), crossKey(r), period(r)]);
    if (!cells.has(key))
      cells.set(key, { lead: leadKey(r), cross: crossKey(r), period: period(r), n: 0, videos: new Set() });
    const c = cells.get(key)!;
    c.n++;
    if (r.video_id != null) c.videos.add(String(r.video_id));
  }
  const crossLabel = (k: string) => (cross === 'model' ? String(models.get(k)!.name) : k);
  return ranked.flatMap((k, i) => {
    const s = leads.get(k)!.sample;
    return [...cells.values()]
      .filter((c) => c.lead === k)
      .sort(
        (a, b) =>
          cmp(a.period, b.period) ||
          b.n - a.n ||
          cmp(crossLabel(a.cross), crossLabel(b.cross)) ||
          cmp(a.cross, b.cross),
      )
      .map((c) => {
        const row: Record<string, unknown> = {};
        if (lead === 'channel')
          Object.assign(row, { name: s.channel_title, handle: s.channel_handle, url: s.channel_url });
        if (lead === 'video_category') row.name = k;
        row.rank = i + 1;
        if (lead === 'source_type') row.source_type = k;
        if (cross === 'source_type') row.source_type = c.cross;
        if (cross === 'video_category') row.video_category = c.cross;
        if (cross === 'model') row.model = crossLabel(c.cross);
        if (q.interval) row.date = c.period;
        Object.assign(row, { count: c.n, videos: c.videos.size, citation_share: c.n / totals.get(c.period)! });
        return row;
      });
  });
}
