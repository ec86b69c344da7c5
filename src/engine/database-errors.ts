import { UnavailableError } from '../errors.ts';

const dataFileProblems = [/^IO Error/i, /No magic bytes/i, /Could not open file/i, /corrupt/i, /Invalid Input Error: .*parquet/i, /No files found/i, /Cannot open file/i];

/**
 * A database error caused by the dataset's files (one replaced, truncated or removed while serving)
 * rather than by the request: the service answers 503 and keeps serving, and recovers once the file
 * is whole again. Anything else from the database is a bug and stays a 500.
 */
export function dataUnavailable(error: unknown): UnavailableError | undefined {
  if (!(error instanceof Error) || !dataFileProblems.some((p) => p.test(error.message))) return undefined;
  return new UnavailableError('The dataset cannot be read right now: a data file is missing or damaged. Retry later.');
}
