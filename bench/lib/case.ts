import type { DuckDBValue } from '@duckdb/node-api';
import type { Sql } from '../../src/query/sql.ts';
import type { Engine } from '../../src/library/engine.ts';
import type { OrgScope } from '../../src/library/org-scope.ts';
import type { BenchDataset } from './dataset.ts';

/** One iteration's fresh parameters: another category and another window end, so no answer repeats. */
export interface IterationParams {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly startDate: string;
  readonly endDate: string;
  /** The category's own brand (its first owned asset, by name), for reports that take one. */
  readonly asset: string;
  /** A domain of the organization (categories of one organization take its domains in turn), for traffic reports. */
  readonly domain: string;
}

/** What a request answers, in a shape every side (engine, floors, peers) can produce and compare. */
export type Answer = unknown;

/**
 * The first round's hand-written floor: one SQL statement read as row objects. Kept for one round beside
 * the expert floors of bench/floors (issue 14), so the change of floor is visible; run as `old floor`.
 */
export interface OldFloor {
  readonly sql: string;
  /** Positional values, or named ones (`$category`, …) for floors built with bench/lib/floor.ts. */
  params(p: IterationParams): DuckDBValue[] | Record<string, DuckDBValue>;
  /** The floor's rows (as column-name objects) shaped like the engine's answer. */
  answer(rows: Record<string, unknown>[]): Answer;
}

/** A peer library answering the same request over the same data. */
export interface PeerSide {
  run(p: IterationParams, body: Record<string, unknown>): Promise<Answer>;
}

export interface Peer {
  readonly name: string;
  /** Loads what the peer needs (data in memory, or nothing for lazy scans); timed and reported apart. */
  open(dataset: BenchDataset): Promise<PeerSide & { close?(): void }>;
}

export interface BenchRequest {
  /** Unique within the report, e.g. `window-30`. */
  readonly id: string;
  readonly label: string;
  readonly kind: 'page' | 'stream';
  readonly windowDays: number;
  readonly grouped: boolean;
  readonly filtered: boolean;
  /** 1-based page number; pages after the first are reached with a cursor made for that iteration's query. */
  readonly page?: number;
  /** The id of the same request's first page, for the page-N / page-1 ratio. */
  readonly firstPageOf?: string;
  /** Part of the latency-by-window series (chart, scaling, peers). */
  readonly windowSeries?: boolean;
  body(p: IterationParams): Record<string, unknown>;
  /** The first round's floor; the expert floor is bench/floors' entry for this request id. */
  readonly oldFloor: OldFloor;
  /** The engine's answer from its JSON body (pages) or from its result events (streams). */
  engineAnswer(json: unknown): Answer;
  /** Peers that run this request; they must give the same answer. */
  readonly peers?: readonly Peer[];
}

/** How the bench reaches a report's planner without a database: validate, plan, compile and render. */
export type PlanProbe = (org: OrgScope, body: Record<string, unknown>) => Sql | Promise<Sql>;

/** One report's benchmark: its request mix, each with its floor. Adding a report is adding one of these. */
export interface ReportCase {
  readonly report: string;
  readonly path: string;
  readonly streamPath?: string;
  readonly plan: PlanProbe;
  /** The body that asks for page `page` (1-based) of the same query: a cursor, or an offset. */
  pageBody(org: OrgScope, body: Record<string, unknown>, page: number): Record<string, unknown>;
  /** Readies the engine before timing (builds the report's rollups), timed and reported apart. */
  setup?(engine: Engine, dataset: BenchDataset): Promise<void>;
  /** Counts the fact rows a request's window reads, for rows per second. */
  readonly inputRows?: {
    readonly sql: string;
    params(p: IterationParams): DuckDBValue[] | Record<string, DuckDBValue>;
  };
  /**
   * The categories whose data the report reads (one `category_id` column), when not all have it (shopping
   * answers come from some categories only); iterations rotate over these.
   */
  readonly categories?: string;
  requests(dataset: BenchDataset): readonly BenchRequest[];
}
