import { withBudget } from '../engine/budget.ts';
import type { Endpoint } from '../reports/endpoint.ts';

/**
 * Admits a tool call and runs it under a time budget: over HTTP the same admission as the REST route
 * (the key's cap on heavy requests), over stdio the engine's budget alone.
 */
export interface CallGate {
  run<T>(endpoint: Endpoint, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** The gate of a local session: one caller, the engine's time budget. */
export const budgetGate = (timeBudgetMs: number, outer?: AbortSignal): CallGate => ({
  run: (_endpoint, work) => withBudget(timeBudgetMs, outer, work),
});
