import { TimeBudgetError } from '../errors.ts';

/**
 * Runs `fn` under a signal that aborts when the caller's signal does or when `budgetMs` runs out
 * (0: no budget). Whatever `fn` rejects with once that signal has aborted (DuckDB's "Interrupted!"
 * included), the caller gets the abort's reason: a TimeBudgetError, or the caller's own reason.
 */
export async function withBudget<T>(
  budgetMs: number,
  outer: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer!.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const timer = budgetMs > 0 ? setTimeout(() => controller.abort(new TimeBudgetError(budgetMs)), budgetMs) : undefined;
  try {
    return await fn(controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
}
