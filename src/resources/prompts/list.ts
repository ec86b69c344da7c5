import { z } from 'zod';
import { fingerprint } from '../../query/cursor.ts';
import { laxInt, zUuid } from '../../query/schema-types.ts';
import { and, ident, list, sql, type Fragment } from '../../query/sql.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { categoryOf, categoryPath, parseQuery, queryList, queryScalar } from '../params.ts';
import { isoOrNull, readRows } from '../../engine/rows.ts';
import { analysisTypes, loadPromptSet, toPromptRow, type Named, type PromptRow, type PromptSet } from './prompt-set.ts';

const listQuery = z.object({
  analysis_type: queryList(z.enum(analysisTypes)).optional(),
  prompt_type: queryList(z.enum(['visibility', 'sentiment']))
    .optional()
    .describe('deprecated: same as analysis_type'),
  status: queryList(z.enum(['active', 'disabled']))
    .optional()
    .describe('default active'),
  topic_id: queryList(zUuid()).optional(),
  tag_id: queryList(zUuid()).optional(),
  region_id: queryList(zUuid()).optional(),
  platform_id: queryList(zUuid()).optional(),
  persona_id: queryList(zUuid()).optional(),
  order_dir: queryScalar(z.enum(['asc', 'desc']))
    .optional()
    .describe('by creation instant; default asc'),
  limit: queryScalar(laxInt(z.int().min(1).max(1000)))
    .optional()
    .describe('page size, 1 to 1000, default 100'),
  cursor: queryScalar(z.string().max(4096)).optional(),
});

/** One prompt as every prompt listing writes it; references carry their current names. */
export function promptJson(p: PromptRow, set: PromptSet) {
  const names = (table: ReadonlyMap<string, Named>, ids: readonly string[]) =>
    ids.map((id) => table.get(id) ?? { id, name: '' });
  const topic = set.topics.get(p.topic_id);
  return {
    id: p.id,
    prompt: p.prompt,
    status: p.status,
    language: p.language,
    topic: topic ? { id: topic.id, name: topic.name } : { id: p.topic_id, name: '' },
    tags: names(set.tags, p.tag_ids),
    regions: names(set.regions, p.region_ids),
    platforms: names(set.platforms, p.platform_ids),
    personas: names(set.personas, p.persona_ids),
    analysis_types: p.analysis_types,
    prompt_type: p.analysis_types[0] ?? null,
    asset: p.asset_id === null ? null : (set.assets.get(p.asset_id) ?? { id: p.asset_id, name: '' }),
    created_at: isoOrNull(p.created_at),
    updated_at: isoOrNull(p.updated_at),
  };
}

const anyOf = (
  column: 'topic_id' | 'tag_ids' | 'region_ids' | 'platform_ids' | 'persona_ids',
  ids: readonly string[] | undefined,
): Fragment | null => {
  if (!ids || ids.length === 0) return null;
  return column === 'topic_id' ? sql`topic_id IN (${list(ids)})` : sql`list_has_any(${ident(column)}, [${list(ids)}])`;
};

export const listPrompts: Endpoint = {
  method: 'GET',
  path: '/v1/org/categories/{category_id}/prompts',
  name: 'prompts',
  group: 'resources',
  summary: 'List the prompts of a category, oldest first, cursor-paginated; list filters match any of their values',
  tags: ['Organization'],
  stream: false,
  schemas: { params: categoryPath, query: listQuery },
  async handle(input: EndpointInput, ctx: CallContext) {
    const categoryId = categoryOf(input, ctx);
    const q = parseQuery(listQuery, input);
    const limit = q.limit ?? 100;
    const dir = q.order_dir ?? 'asc';
    const types = [...new Set([...(q.analysis_type ?? []), ...(q.prompt_type ?? [])])];
    const selection = {
      category: categoryId,
      status: [...new Set(q.status ?? ['active'])].sort(),
      types: types.sort(),
      topic_id: q.topic_id,
      tag_ids: q.tag_id,
      region_ids: q.region_id,
      platform_ids: q.platform_id,
      persona_ids: q.persona_id,
      dir,
    };
    const where = and(
      [
        sql`category_id = ${categoryId}`,
        sql`status IN (${list(selection.status)})`,
        types.length > 0 ? sql`list_has_any(analysis_types, [${list(types)}])` : null,
        ...(['topic_id', 'tag_ids', 'region_ids', 'platform_ids', 'persona_ids'] as const).map((c) =>
          anyOf(c, selection[c]),
        ),
      ].filter((f): f is Fragment => f !== null),
    );
    const queryPrint = fingerprint({ list: 'prompts', org: ctx.organizationId, ...selection });
    const after = q.cursor
      ? (ctx.cursors.decodeKey(q.cursor, queryPrint, ['query', 'cursor']) as [string, string])
      : null;
    const cmp = dir === 'asc' ? sql`>` : sql`<`;
    const keyset = after
      ? sql`(epoch_us(created_at) ${cmp} ${BigInt(after[0])} OR (epoch_us(created_at) = ${BigInt(after[0])} AND id ${cmp} ${after[1]}))`
      : sql`TRUE`;
    const order = dir === 'asc' ? sql`created_at ASC, id ASC` : sql`created_at DESC, id DESC`;
    const { rows, total, set } = await ctx.core.state.read(async (conn) => {
      const set = await loadPromptSet(conn, ctx.organizationId, categoryId, []);
      const rows = await readRows(
        conn,
        sql`SELECT *, epoch_us(created_at)::VARCHAR AS k FROM state.prompts WHERE ${where} AND ${keyset} ORDER BY ${order} LIMIT ${limit + 1}`,
      );
      const total = await readRows(conn, sql`SELECT count(*)::INTEGER AS n FROM state.prompts WHERE ${where}`);
      return { rows, total: Number(total[0]!.n), set };
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next =
      rows.length > limit && last ? ctx.cursors.encodeKey([String(last.k), String(last.id)], queryPrint) : null;
    return jsonResult({
      data: page.map((r) => promptJson(toPromptRow(r), set)),
      info: { limit, next_cursor: next, total_rows: total },
    });
  },
};
