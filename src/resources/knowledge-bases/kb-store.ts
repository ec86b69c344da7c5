import type { DuckDBConnection } from '@duckdb/node-api';
import { maxKbDocuments, maxKbTextBytes } from '../../limits.ts';
import { TooLargeError } from '../../errors.ts';
import { folderOf, type KnowledgeChange } from '../../knowledge/knowledge-index.ts';
import { sql } from '../../query/sql.ts';
import { execute, readRows } from '../../engine/rows.ts';
import { ancestorsOf } from './kb-params.ts';

export interface StoredDocument {
  readonly id: string;
  readonly path: string;
  readonly text: string;
  readonly tags: string[];
}

export async function readDocument(
  conn: DuckDBConnection,
  kb: string,
  path: string,
): Promise<StoredDocument | undefined> {
  const rows = await readRows(
    conn,
    sql`SELECT id, path, text, tags FROM state.kb_documents WHERE knowledge_base_id = ${kb} AND path = ${path}`,
  );
  const r = rows[0];
  return r
    ? { id: String(r.id), path: String(r.path), text: String(r.text), tags: (r.tags as unknown[]).map(String) }
    : undefined;
}

export async function folderExists(conn: DuckDBConnection, kb: string, path: string): Promise<boolean> {
  return (
    (await readRows(conn, sql`SELECT 1 FROM state.kb_folders WHERE knowledge_base_id = ${kb} AND path = ${path}`))
      .length > 0
  );
}

/** Creates the folders a path needs that do not exist yet. */
export async function ensureFolders(
  conn: DuckDBConnection,
  kb: string,
  organizationId: string,
  folders: readonly string[],
  now: Date,
): Promise<void> {
  for (const folder of folders) {
    await execute(
      conn,
      sql`INSERT INTO state.kb_folders SELECT ${kb}, ${organizationId}, ${folder}, CAST(${now.toISOString()} AS TIMESTAMPTZ)
          WHERE NOT EXISTS (SELECT 1 FROM state.kb_folders WHERE knowledge_base_id = ${kb} AND path = ${folder})`,
    );
  }
}

export const documentFolders = (path: string) => ancestorsOf(path);

export const indexed = (op: KnowledgeChange['op'], doc: StoredDocument): KnowledgeChange => ({
  op,
  doc: { path: doc.path, text: doc.text, folder: folderOf(doc.path), tags: doc.tags },
});

/** The answer of every document operation: `{message, name, path, folder}` (folder null at the root). */
export const documentAnswer = (message: string, path: string) => ({
  message,
  name: path.slice(path.lastIndexOf('/') + 1),
  path,
  folder: folderOf(path) || null,
});

/**
 * Refuses (413) a write that would leave the knowledge base with more than `maxKbDocuments` documents or
 * `maxKbTextBytes` bytes of text; `documents` and `bytes` are what the write adds (bytes may be negative).
 */
export async function checkRoom(conn: DuckDBConnection, kb: string, documents: number, bytes: number): Promise<void> {
  const [row] = await readRows(
    conn,
    sql`SELECT count(*) AS n, coalesce(sum(strlen(text)), 0) AS bytes FROM state.kb_documents WHERE knowledge_base_id = ${kb}`,
  );
  const n = Number(row?.n ?? 0) + documents;
  const total = Number(row?.bytes ?? 0) + bytes;
  if (n > maxKbDocuments)
    throw new TooLargeError(
      `a knowledge base holds at most ${maxKbDocuments} documents; delete some first`,
      'knowledge_base_full',
    );
  if (bytes > 0 && total > maxKbTextBytes) {
    throw new TooLargeError(
      `a knowledge base holds at most ${maxKbTextBytes} bytes of text (UTF-8); this write would make it ${total}`,
      'knowledge_base_full',
    );
  }
}
