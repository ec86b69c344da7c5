import { UnavailableError } from '../errors.ts';

const writeProblems = [
  /No space left on device/i,
  /Could not write file/i,
  /Failed to commit/i,
  /Disk quota exceeded/i,
  /read-only file system/i,
];
const dataFileProblems = [
  /^IO Error/i,
  /No magic bytes/i,
  /Could not open file/i,
  /corrupt/i,
  /Invalid Input Error: .*parquet/i,
  /No files found/i,
  /Cannot open file/i,
];

/**
 * A database error caused by the machine rather than the request: the state store cannot be written
 * (disk full, read-only), or a dataset file was replaced, truncated or removed while serving. The
 * service answers 503 and keeps serving; a failed write changed nothing, and both recover once the
 * disk or the file is whole again. A query that outgrows DuckDB's share of the memory budget is
 * refused the same way (DuckDB's out-of-memory error; chdb's MEMORY_LIMIT_EXCEEDED past its `max_memory_usage`),
 * and so is a statement over a ClickHouse cluster with a shard down (never a partial answer, see
 * `clickhouseSettings`). Anything else from the database is a bug and stays a 500.
 */
export function dataUnavailable(error: unknown): UnavailableError | undefined {
  if (!(error instanceof Error)) return undefined;
  if (writeProblems.some((p) => p.test(error.message))) {
    return new UnavailableError(
      'The state store cannot be written right now (no space left, or read-only); nothing was changed. Retry later.',
    );
  }
  if (/^Out of Memory Error/i.test(error.message) || /\(MEMORY_LIMIT_EXCEEDED\)|Code: 241\./.test(error.message)) {
    return new UnavailableError(
      'The request needed more memory than the server’s budget leaves it; narrow it, or retry when the server is less busy.',
    );
  }
  if (/\(ALL_CONNECTION_TRIES_FAILED\)|Code: 279\./.test(error.message)) {
    return new UnavailableError(
      'A shard of the ClickHouse cluster cannot be reached, and a report is answered whole or not at all. Retry later.',
    );
  }
  if (dataFileProblems.some((p) => p.test(error.message))) {
    return new UnavailableError(
      'The dataset cannot be read right now: a data file is missing or damaged. Retry later.',
    );
  }
  return undefined;
}
