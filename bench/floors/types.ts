import type { Answer, IterationParams } from '../lib/case.ts';
import type { BenchDataset } from '../lib/dataset.ts';
import type { FloorDb } from './db.ts';
import type { Dims, EnumName } from './dims.ts';
import type { Json } from './json.ts';

/**
 * The floors a DuckDB expert would write: the fewest, leanest statements over the facts or a floor
 * rollup, read as columns, the answer shaped in JS. Written from the spec, the data contract and
 * docs/decisions.md, never from the engine's SQL; the harness checks every answer against the engine's.
 */
export interface FloorEnv {
  readonly db: FloorDb;
  /** The static dimension tables (models, regions, brands), read once before timing. */
  readonly dims: Dims;
}

/**
 * A page: the answer in the engine's compared shape (`{total, models, rows}`, `{total, rows}`), as JSON
 * text it wrote itself, or as a value the harness serializes (inside the timed span either way).
 */
export interface PageFloor {
  readonly kind: 'page';
  run(env: FloorEnv, p: IterationParams): Promise<Json | Answer>;
}

/** A stream: its rows as JSON text in the engine's shape, a batch at a time, in order; the first batch comes early. */
export interface StreamFloor {
  readonly kind: 'stream';
  rows(env: FloorEnv, p: IterationParams): AsyncIterable<readonly string[]>;
}

export type ExpertFloor = PageFloor | StreamFloor;

/**
 * A pre-aggregated table a floor may read, built once before timing (the engine may keep the same).
 * Its answers re-aggregate exactly: counts and sums only, at a grain that holds every key a request
 * groups or filters by.
 */
export interface FloorRollup {
  /** The DuckDB table name (`floor_…`). */
  readonly name: string;
  /** Rows per …, e.g. "category × day × model". */
  readonly grain: string;
  /** What each row holds. */
  readonly measures: string;
  /** The facts it reads and their scope (e.g. the prompts carrying the visibility type at build time). */
  readonly source: string;
  /** The requests that read it, when not every request of the report. */
  readonly readBy?: string;
  readonly sql: string;
}

/** A report's floors: one per request id of its bench case, and the rollups they read. */
export interface ReportFloors {
  readonly report: string;
  readonly rollups?: readonly FloorRollup[];
  /** Key enums the floors read beyond those their rollups use. */
  readonly enums?: readonly EnumName[];
  floors(dataset: BenchDataset): Readonly<Record<string, ExpertFloor>>;
}

export const page = (run: PageFloor['run']): PageFloor => ({ kind: 'page', run });
export const stream = (rows: StreamFloor['rows']): StreamFloor => ({ kind: 'stream', rows });
