import type { Engine } from '../library/engine.ts';
import type { KeyedSlots } from '../engine/slots.ts';
import type { Endpoint } from '../reports/endpoint.ts';

/** What `/mcp` shares with the REST routes: the engine, the operations, the clock, the key's heavy-request slots, the time budget. */
export interface McpRouteOptions {
  readonly engine: Engine;
  readonly endpoints: readonly Endpoint[];
  readonly clock: () => Date;
  readonly heavyOfKey: KeyedSlots;
  readonly timeBudgetMs: number;
  readonly allowWrites: boolean;
}
