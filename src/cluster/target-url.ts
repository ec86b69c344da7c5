import { DatasetError } from '../errors.ts';
import { checkIdentifier } from './schema-ddl.ts';

/** Where a dataset is loaded: a ClickHouse server over HTTP, or a chdb data directory (`chdb:PATH`). */
export type TargetUrl =
  | { readonly kind: 'http'; readonly url: string; readonly database: string }
  | { readonly kind: 'chdb'; readonly path: string; readonly database: string };

/**
 * `http(s)://…` (the database: `database`, else the URL's path, else `default`) or `chdb:PATH`, with
 * `?database=DB` for another database than `default`. The same URL the loader writes to is the one
 * `--clickhouse-url` reads from.
 */
export function parseTargetUrl(url: string, database?: string): TargetUrl {
  if (url.startsWith('chdb:')) {
    const [path = '', query] = url.slice('chdb:'.length).split('?database=');
    if (path === '') throw new DatasetError(`a chdb URL names its data directory: chdb:PATH, got ${url}`);
    return { kind: 'chdb', path, database: checkIdentifier(database ?? query ?? 'default', 'database') };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatasetError(`--url must be http(s)://host:port[/database] or chdb:PATH, got ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new DatasetError(`--url must be http(s)://host:port[/database] or chdb:PATH, got ${url}`);
  const fromPath = decodeURIComponent(parsed.pathname.slice(1)) || undefined;
  return { kind: 'http', url, database: checkIdentifier(database ?? fromPath ?? 'default', 'database') };
}
