import { setImmediate } from 'node:timers/promises';
import { z } from 'zod';
import { fingerprint } from '../../query/cursor.ts';
import { laxBool, laxInt } from '../../query/schema-types.ts';
import { list, sql } from '../../query/sql.ts';
import { parseWith } from '../../query/validation.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { folderOf } from '../../knowledge/knowledge-index.ts';
import { checkOrganizationIds, parseQuery, queryScalar } from '../params.ts';
import { isoOrNull, readRows, stringOrNull, type Row } from '../../engine/rows.ts';
import { kbPath, knowledgeBaseOf, normalizePath, organizationQuery } from './kb-params.ts';
import { bestSection } from './snippets.ts';

/** Hits whose documents are read from the store at once while a search answer is assembled: one, as a document may hold 500,000 characters. */
const snippetSlice = 1;

/** A search returns at most this many results. */
export const maxTopK = 100;

const listQuery = organizationQuery.extend({
  limit: queryScalar(laxInt(z.int().min(1).max(1000)))
    .optional()
    .describe('1 to 1000, default 100'),
  cursor: queryScalar(z.string().max(4096)).optional().describe('pagination.next_cursor of the previous page'),
});

const searchSchema = z.strictObject({
  query: z.string().min(1).max(1000),
  top_k: laxInt(z.int().min(1).max(maxTopK)).describe(`results, 1 to ${maxTopK}`),
  filters: z
    .strictObject({
      folders: z
        .array(z.string().min(1).max(1024))
        .max(1)
        .nullable()
        .optional()
        .describe('one folder: its documents and those of its subfolders'),
      tags: z
        .array(z.string().min(1).max(200))
        .max(100)
        .nullable()
        .optional()
        .describe('documents carrying any of these tags'),
    })
    .nullable()
    .optional(),
  return_full_page: laxBool()
    .optional()
    .describe('default false: the best section of each document; true: the whole document'),
});

const base = { group: 'resources', tags: ['Knowledge bases'], stream: false } as const;

const kbRow = (r: Row) => ({
  id: String(r.id),
  name: String(r.name),
  created_at: isoOrNull(r.created_at),
  description: stringOrNull(r.description),
  slug: stringOrNull(r.slug),
});

export const knowledgeBaseEndpoints: readonly Endpoint[] = [
  {
    ...base,
    method: 'GET',
    path: '/v1/knowledge-bases',
    name: 'knowledgeBases',
    summary: 'The organization’s knowledge bases, oldest first',
    schemas: { query: listQuery },
    async handle(input: EndpointInput, ctx: CallContext) {
      const q = parseQuery(listQuery, input);
      checkOrganizationIds(q.organization_id ? [q.organization_id] : [], ctx);
      const limit = q.limit ?? 100;
      const print = fingerprint({ list: 'knowledge-bases', org: ctx.organizationId });
      const after = q.cursor ? (ctx.cursors.decodeKey(q.cursor, print, ['query', 'cursor']) as [string, string]) : null;
      const keyset = after
        ? sql`(epoch_us(created_at) > ${BigInt(after[0])} OR (epoch_us(created_at) = ${BigInt(after[0])} AND id > ${after[1]}))`
        : sql`TRUE`;
      const rows = await ctx.core.state.read((conn) =>
        readRows(
          conn,
          sql`SELECT *, epoch_us(created_at)::VARCHAR AS k FROM state.knowledge_bases WHERE organization_id = ${ctx.organizationId} AND ${keyset} ORDER BY created_at, id LIMIT ${limit + 1}`,
        ),
      );
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const next = rows.length > limit && last ? ctx.cursors.encodeKey([String(last.k), String(last.id)], print) : null;
      return jsonResult({ data: page.map(kbRow), pagination: { limit, next_cursor: next } });
    },
  },
  {
    ...base,
    method: 'POST',
    path: '/v1/knowledge-bases/{knowledge_base_id}/search',
    name: 'searchKnowledgeBase',
    summary: 'Full-text search (BM25): the best section of each matching document, or whole documents, best first',
    schemas: { params: kbPath, query: organizationQuery, body: searchSchema },
    // Heavy: a search over a large knowledge base costs CPU and memory like a report, so a key runs 2 at once.
    weight: 'heavy',
    async handle(input: EndpointInput, ctx: CallContext) {
      const kb = knowledgeBaseOf(input, ctx);
      const body = parseWith(searchSchema, input.body);
      const folder = body.filters?.folders?.[0];
      const hits = await ctx.core.knowledge.search(
        kb,
        {
          query: body.query,
          topK: body.top_k,
          folder: folder === undefined ? null : normalizePath(folder, ['body', 'filters', 'folders', 0]),
          tags: body.filters?.tags ?? null,
        },
        ctx.signal,
      );
      const full = body.return_full_page === true;
      // Each result is serialized as it is made: the answer may hold 32 MiB of text, which one JSON.stringify would hold the loop with.
      const data: string[] = [];
      // A document may hold 500,000 characters: its text is read and its best section chosen a few hits at a
      // time, with a turn of the event loop after each hit, so no other request waits behind a long answer.
      for (let first = 0; first < hits.length; first += snippetSlice) {
        ctx.signal?.throwIfAborted();
        const slice = hits.slice(first, first + snippetSlice);
        const paths = slice.map((h) => h.path);
        const { docs, sections } = await ctx.core.state.read(async (conn) => ({
          docs: await readRows(
            conn,
            sql`SELECT id, path, text, tags, updated_at FROM state.kb_documents WHERE knowledge_base_id = ${kb} AND path IN (${list(paths)})`,
          ),
          sections: full
            ? []
            : await readRows(
                conn,
                sql`SELECT path, section, body FROM kb_sections WHERE knowledge_base_id = ${kb} AND path IN (${list(paths)}) ORDER BY path, section`,
              ),
        }));
        const byPath = new Map(docs.map((d) => [String(d.path), d]));
        const sectionsOf = new Map<string, { section: number; body: string }[]>();
        for (const s of sections) {
          const path = String(s.path);
          const held = sectionsOf.get(path) ?? sectionsOf.set(path, []).get(path)!;
          held.push({ section: Number(s.section), body: String(s.body) });
        }
        for (const hit of slice) {
          const doc = byPath.get(hit.path);
          if (!doc) continue;
          const metadata = {
            knowledge_base_id: kb,
            document_id: String(doc.id),
            path: hit.path,
            name: hit.path.slice(hit.path.lastIndexOf('/') + 1),
            folder: folderOf(hit.path) || null,
            tags: doc.tags,
            updated_at: isoOrNull(doc.updated_at),
          };
          if (full) data.push(JSON.stringify({ id: hit.path, content: String(doc.text), metadata, score: hit.score }));
          else {
            const best = await bestSection(body.query, sectionsOf.get(hit.path) ?? []);
            if (best)
              data.push(
                JSON.stringify({
                  id: `${hit.path}#${best.section}`,
                  content: best.body,
                  metadata: { ...metadata, section: best.section },
                  score: hit.score,
                }),
              );
          }
          await setImmediate();
        }
      }
      return { kind: 'json', status: 200, json: `{"data":[${data.join(',')}]}` };
    },
  },
];
