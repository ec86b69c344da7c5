import { sql } from '../query/sql.ts';
import { execute, readRows } from '../engine/rows.ts';
import type { StateStore } from './store.ts';

/** One limiter window: who (`key:<id>` or `addr:<ip>`), when it started (Unix ms) and how many requests it counted. */
export interface RateWindow {
  readonly key: string;
  readonly start: number;
  readonly count: number;
}

/** Rate-limit windows in the state store: written in batches, read once when a server starts. */
export class RateWindowStore {
  constructor(private readonly state: StateStore) {}

  /** Windows still open at `now` for a window of `spanMs`. */
  async load(now: number, spanMs: number): Promise<RateWindow[]> {
    const rows = await this.state.read((conn) =>
      readRows(
        conn,
        sql`SELECT key, window_start_ms, count FROM state.rate_windows WHERE window_start_ms + ${spanMs} > ${now}`,
      ),
    );
    return rows.map((r) => ({ key: String(r.key), start: Number(r.window_start_ms), count: Number(r.count) }));
  }

  /** Writes the windows in one transaction, and forgets windows that closed before `now`. */
  async save(windows: readonly RateWindow[], now: number, spanMs: number): Promise<void> {
    const rows = JSON.stringify(windows.map((w) => ({ k: w.key, s: w.start, c: w.count })));
    await this.state.transaction(
      async (conn) => {
        if (windows.length > 0) {
          await execute(
            conn,
            sql`INSERT OR REPLACE INTO state.rate_windows
              SELECT k, s, c FROM (SELECT unnest(from_json(${rows}, '[{"k":"VARCHAR","s":"BIGINT","c":"INTEGER"}]'), recursive := true))`,
          );
        }
        await execute(conn, sql`DELETE FROM state.rate_windows WHERE window_start_ms + ${spanMs} <= ${now}`);
      },
      { bookkeeping: true },
    );
  }
}
