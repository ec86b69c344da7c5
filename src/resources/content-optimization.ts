import { z } from 'zod';
import { NotFoundError } from '../errors.ts';
import { laxInt, zUuid } from '../query/schema-types.ts';
import { sql } from '../query/sql.ts';
import { authorize } from '../reports/core/authorize.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../reports/endpoint.ts';
import { parsePath, parseQuery, queryScalar } from './params.ts';
import { isoOrNull, readRows, stringOrNull } from '../engine/rows.ts';

export const defaultContentLimit = 100;

const assetPath = z.object({ asset_id: zUuid() });
const itemPath = z.object({ asset_id: zUuid(), content_id: zUuid() });
const pageQuery = z.object({
  limit: queryScalar(laxInt(z.int().min(1).max(50_000)))
    .optional()
    .describe(`at most 50000, default ${defaultContentLimit}`),
  offset: queryScalar(laxInt(z.int().min(0)))
    .optional()
    .describe('at least 0, default 0'),
});

/** The path's parameters once its asset is known to be the caller's (403 another organization's, 404 none's). */
function ownedAsset<T extends { asset_id: string }>(schema: z.ZodType<T>, input: EndpointInput, ctx: CallContext): T {
  const params = parsePath(schema, input);
  authorize(ctx, [{ kind: 'asset', id: params.asset_id }]);
  return params;
}

/** E10: the content optimization items of an asset, newest first, and one item's detail. */
export const contentEndpoints: readonly Endpoint[] = [
  {
    method: 'GET',
    path: '/v1/content/{asset_id}/optimization',
    name: 'contentOptimizations',
    group: 'resources',
    summary: 'The content optimization items of an asset, newest first',
    tags: ['Content'],
    stream: false,
    schemas: { params: assetPath, query: pageQuery },
    async handle(input: EndpointInput, ctx: CallContext) {
      const { asset_id } = ownedAsset(assetPath, input, ctx);
      const q = parseQuery(pageQuery, input);
      const limit = q.limit ?? defaultContentLimit;
      const offset = q.offset ?? 0;
      const [rows, total] = await ctx.core.state.read(async (conn) => [
        await readRows(
          conn,
          sql`SELECT id, title, created_at, extracted_input, type, status FROM content_items WHERE asset_id = ${asset_id}
                                 ORDER BY created_at DESC, id LIMIT ${limit} OFFSET ${offset}`,
        ),
        await readRows(conn, sql`SELECT count(*)::INTEGER AS n FROM content_items WHERE asset_id = ${asset_id}`),
      ]);
      return jsonResult({
        info: { total_rows: Number(total[0]!.n), query: { asset_id, pagination: { limit, offset } } },
        data: rows.map((r) => ({
          id: String(r.id),
          title: String(r.title),
          created_at: isoOrNull(r.created_at),
          extracted_input: stringOrNull(r.extracted_input),
          type: String(r.type),
          status: String(r.status),
        })),
      });
    },
  },
  {
    method: 'GET',
    path: '/v1/content/{asset_id}/optimization/{content_id}',
    name: 'contentOptimization',
    group: 'resources',
    summary: 'One content optimization item: score, analysis, content, inputs and recommendations',
    tags: ['Content'],
    stream: false,
    schemas: { params: itemPath },
    async handle(input: EndpointInput, ctx: CallContext) {
      const { asset_id, content_id } = ownedAsset(itemPath, input, ctx);
      const rows = await ctx.core.state.read((conn) =>
        readRows(conn, sql`SELECT detail FROM content_items WHERE id = ${content_id} AND asset_id = ${asset_id}`),
      );
      if (rows.length === 0) throw new NotFoundError(`content ${content_id} not found for asset ${asset_id}`);
      return jsonResult({ data: JSON.parse(String(rows[0]!.detail)) as unknown });
    },
  },
];
