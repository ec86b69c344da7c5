/**
 * DuckDB cannot bind parameters in CREATE VIEW, and session variables do not cross connections, so the
 * dataset's file paths enter the view text as string literals. Only paths from the engine's own
 * configuration come here, never request values; quotes are doubled and NUL is refused.
 */
export function pathLiteral(path: string): string {
  if (path.includes('\0')) throw new RangeError('a file path cannot contain NUL');
  return `'${path.replaceAll("'", "''")}'`;
}

export function pathListLiteral(paths: readonly string[]): string {
  return `[${paths.map(pathLiteral).join(', ')}]`;
}
