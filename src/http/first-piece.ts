import { TimeBudgetError } from '../errors.ts';

/**
 * The first piece of a streamed answer, within `budgetMs` (0: no budget). A response's status goes out
 * with its headers, so they wait for this: a failure before the first piece (a database out of memory,
 * an export past its temporary disk, a budget run out) is answered with its own status, never a 200
 * followed by a cut connection. When the budget runs out the query is aborted and the call rejects
 * with a TimeBudgetError (503, `x-should-retry: false`).
 */
export async function firstPiece<T>(
  pieces: AsyncIterator<T>,
  abort: AbortController,
  budgetMs: number,
): Promise<IteratorResult<T>> {
  const next = pieces.next();
  if (budgetMs <= 0) return next;
  next.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeBudgetError(budgetMs);
      abort.abort(error);
      reject(error);
    }, budgetMs);
  });
  try {
    return await Promise.race([next, expired]);
  } catch (error) {
    throw abort.signal.aborted ? abort.signal.reason : error;
  } finally {
    clearTimeout(timer);
  }
}
