import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { sql } from '../../query/sql.ts';
import { parseWith } from '../../query/validation.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { execute } from '../../engine/rows.ts';
import { kbPath, knowledgeBaseOf, normalizePath, organizationQuery } from './kb-params.ts';
import {
  checkRoom,
  documentAnswer,
  documentFolders,
  ensureFolders,
  folderExists,
  indexed,
  readDocument,
} from './kb-store.ts';

/** A document's text is at most this many characters (the request body is at most 1 MiB anyway). */
export const maxTextLength = 500_000;

const writeSchema = z.strictObject({
  name: z.string().min(1).max(1024).describe('the document name, or its path when folder is omitted'),
  text: z.string().max(maxTextLength).describe('the whole text; sections are the blocks between blank lines'),
  folder: z.string().max(1024).nullable().optional().describe('folder path; created when missing'),
});
const deleteSchema = z.strictObject({ name: z.string().min(1).max(1024).describe('the document path') });

/** `name` alone is a path; with `folder`, it is the name inside that folder, and the two together are checked as one path. */
const pathOf = (body: { name: string; folder?: string | null }) =>
  body.folder
    ? normalizePath(
        `${normalizePath(body.folder, ['body', 'folder'])}/${normalizePath(body.name, ['body', 'name'])}`,
        ['body', 'name'],
        'the path folder/name',
      )
    : normalizePath(body.name, ['body', 'name']);

const base = { group: 'resources', tags: ['Knowledge bases'], stream: false } as const;

export const documentEndpoints: readonly Endpoint[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/knowledge-bases/{knowledge_base_id}/documents',
    name: 'createKnowledgeBaseDocument',
    summary: 'Add a document (JSON text); its folder is created when missing, an existing path is a 409',
    schemas: { params: kbPath, query: organizationQuery, body: writeSchema },
    async handle(input: EndpointInput, ctx: CallContext) {
      const kb = knowledgeBaseOf(input, ctx);
      const body = parseWith(writeSchema, input.body);
      const path = pathOf(body);
      const answer = await ctx.core.knowledge.edit(kb, async (conn) => {
        if (await readDocument(conn, kb, path))
          throw new ConflictError(`a document ${path} exists already; update it with PUT`);
        if (await folderExists(conn, kb, path)) throw new ConflictError(`${path} is a folder`);
        await checkRoom(conn, kb, 1, Buffer.byteLength(body.text));
        await ensureFolders(conn, kb, ctx.organizationId, documentFolders(path), ctx.now);
        const doc = { id: randomUUID(), path, text: body.text, tags: [] as string[] };
        const at = ctx.now.toISOString();
        await execute(
          conn,
          sql`INSERT INTO state.kb_documents VALUES (${doc.id}, ${ctx.organizationId}, ${kb}, ${path}, ${doc.text}, []::VARCHAR[], CAST(${at} AS TIMESTAMPTZ), CAST(${at} AS TIMESTAMPTZ))`,
        );
        return { result: documentAnswer('Document created', path), changes: [indexed('add', doc)] };
      });
      return jsonResult(answer);
    },
  },
  {
    ...base,
    method: 'PUT',
    path: '/v1/knowledge-bases/{knowledge_base_id}/documents',
    name: 'updateKnowledgeBaseDocument',
    summary: 'Overwrite a document’s text (404 when there is none at that path); its tags and creation instant stay',
    schemas: { params: kbPath, query: organizationQuery, body: writeSchema },
    async handle(input: EndpointInput, ctx: CallContext) {
      const kb = knowledgeBaseOf(input, ctx);
      const body = parseWith(writeSchema, input.body);
      const path = pathOf(body);
      const answer = await ctx.core.knowledge.edit(kb, async (conn) => {
        const old = await readDocument(conn, kb, path);
        if (!old) throw new NotFoundError(`no document ${path} in this knowledge base`);
        await checkRoom(conn, kb, 0, Buffer.byteLength(body.text) - Buffer.byteLength(old.text));
        await execute(
          conn,
          sql`UPDATE state.kb_documents SET text = ${body.text}, updated_at = CAST(${ctx.now.toISOString()} AS TIMESTAMPTZ) WHERE id = ${old.id}`,
        );
        return {
          result: documentAnswer('Document updated', path),
          changes: [indexed('remove', old), indexed('add', { ...old, text: body.text })],
        };
      });
      return jsonResult(answer);
    },
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/knowledge-bases/{knowledge_base_id}/documents',
    name: 'deleteKnowledgeBaseDocument',
    summary: 'Delete a document by path (404 when there is none); its folder stays',
    schemas: { params: kbPath, query: organizationQuery, body: deleteSchema },
    async handle(input: EndpointInput, ctx: CallContext) {
      const kb = knowledgeBaseOf(input, ctx);
      const path = normalizePath(parseWith(deleteSchema, input.body).name, ['body', 'name']);
      const answer = await ctx.core.knowledge.edit(kb, async (conn) => {
        const old = await readDocument(conn, kb, path);
        if (!old) throw new NotFoundError(`no document ${path} in this knowledge base`);
        await execute(conn, sql`DELETE FROM state.kb_documents WHERE id = ${old.id}`);
        return { result: documentAnswer('Document deleted', path), changes: [indexed('remove', old)] };
      });
      return jsonResult(answer);
    },
  },
];
