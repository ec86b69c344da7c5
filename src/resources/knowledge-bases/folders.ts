import { z } from 'zod';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { laxBool } from '../../query/schema-types.ts';
import { sql } from '../../query/sql.ts';
import { parseWith } from '../../query/validation.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { execute, readRows } from '../../engine/rows.ts';
import { ancestorsOf, kbPath, knowledgeBaseOf, normalizePath, organizationQuery } from './kb-params.ts';
import { ensureFolders, folderExists, indexed, readDocument, type StoredDocument } from './kb-store.ts';

const createSchema = z.strictObject({
  path: z.string().min(1).max(1024).describe('folder path; missing parent folders are created'),
});
const deleteSchema = z.strictObject({
  path: z.string().min(1).max(1024),
  recursive: laxBool().optional().describe('default false: a folder with contents is a 409 and nothing is deleted'),
});

const base = { group: 'resources', tags: ['Knowledge bases'], stream: false } as const;

/** What a folder holds: `like` matches every path below it. */
const below = (path: string) => `${path.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;

export const folderEndpoints: readonly Endpoint[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/knowledge-bases/{knowledge_base_id}/folders',
    name: 'createKnowledgeBaseFolder',
    summary: 'Create an empty folder (and its missing parents); an existing folder or a document at that path is a 409',
    schemas: { params: kbPath, query: organizationQuery, body: createSchema },
    async handle(input: EndpointInput, ctx: CallContext) {
      const kb = knowledgeBaseOf(input, ctx);
      const path = normalizePath(parseWith(createSchema, input.body).path, ['body', 'path']);
      const answer = await ctx.core.knowledge.edit(kb, async (conn) => {
        if (await folderExists(conn, kb, path)) throw new ConflictError(`the folder ${path} exists already`);
        if (await readDocument(conn, kb, path)) throw new ConflictError(`${path} is a document`);
        await ensureFolders(conn, kb, ctx.organizationId, [...ancestorsOf(path), path], ctx.now);
        return { result: { message: 'Folder created', path }, changes: [] };
      });
      return jsonResult(answer);
    },
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/knowledge-bases/{knowledge_base_id}/folders',
    name: 'deleteKnowledgeBaseFolder',
    summary:
      'Delete a folder: an empty one, or with recursive true everything in it; otherwise 409 and nothing is deleted',
    schemas: { params: kbPath, query: organizationQuery, body: deleteSchema },
    async handle(input: EndpointInput, ctx: CallContext) {
      const kb = knowledgeBaseOf(input, ctx);
      const body = parseWith(deleteSchema, input.body);
      const path = normalizePath(body.path, ['body', 'path']);
      const answer = await ctx.core.knowledge.edit(kb, async (conn) => {
        if (!(await folderExists(conn, kb, path))) throw new NotFoundError(`no folder ${path} in this knowledge base`);
        const docs = await readRows(
          conn,
          sql`SELECT id, path, text, tags FROM state.kb_documents WHERE knowledge_base_id = ${kb} AND path LIKE ${below(path)} ESCAPE '\\' ORDER BY path`,
        );
        const folders = await readRows(
          conn,
          sql`SELECT path FROM state.kb_folders WHERE knowledge_base_id = ${kb} AND path LIKE ${below(path)} ESCAPE '\\'`,
        );
        if ((docs.length > 0 || folders.length > 0) && body.recursive !== true) {
          throw new ConflictError(
            `the folder ${path} holds ${docs.length} documents and ${folders.length} folders; send recursive: true to delete them with it`,
          );
        }
        await execute(
          conn,
          sql`DELETE FROM state.kb_documents WHERE knowledge_base_id = ${kb} AND path LIKE ${below(path)} ESCAPE '\\'`,
        );
        await execute(
          conn,
          sql`DELETE FROM state.kb_folders WHERE knowledge_base_id = ${kb} AND (path = ${path} OR path LIKE ${below(path)} ESCAPE '\\')`,
        );
        const removed: StoredDocument[] = docs.map((d) => ({
          id: String(d.id),
          path: String(d.path),
          text: String(d.text),
          tags: (d.tags as unknown[]).map(String),
        }));
        return {
          result: { message: recursiveMessage(docs.length), path },
          changes: removed.map((d) => indexed('remove', d)),
        };
      });
      return jsonResult(answer);
    },
  },
];

const recursiveMessage = (documents: number) =>
  documents === 0 ? 'Folder deleted' : `Folder deleted with ${documents} documents`;
