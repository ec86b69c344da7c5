import type { Measure, RankKey } from '../model/metric-formula.ts';
import { metrics } from '../model/metrics.ts';
import type { PartsSql } from './metric-sql.ts';
import { sql, type Fragment } from './sql.ts';

function declaredMeasure(entry: string, column: string): Measure {
  const measure = metrics.find((m) => m.name === entry)?.measures?.[column];
  if (!measure) throw new Error(`src/model/metrics.ts declares no measure ${column} in '${entry}'`);
  return measure;
}

function bound(parts: PartsSql, name: string): Fragment {
  const part = parts[name];
  if (!part) throw new Error(`the measure reads the part '${name}', which the report does not bind`);
  return part;
}

/** A rank as its declaration orders it. */
export interface DeclaredRank {
  readonly keys: readonly RankKey[];
  /**
   * The ORDER BY terms: each key's part as the report binds it, best first, then the report's `ties` (its
   * names and ids, a total order). `requested` is the direction of the metric the request sorts by.
   */
  order(parts: PartsSql, ties: readonly Fragment[], requested?: 'asc' | 'desc'): Fragment[];
  /** The direction of each key, `requested` resolved. */
  directions(requested?: 'asc' | 'desc'): ('asc' | 'desc')[];
  /**
   * In JS, two rows' key values (in the keys' order) compared as `order` sorts them, NULLs last (DuckDB's
   * and ClickHouse's default for either direction); 0 leaves the tie to the report's names and ids.
   */
  compareKeys(requested?: 'asc' | 'desc'): (a: readonly (number | null)[], b: readonly (number | null)[]) => number;
}

/** The rank `column` of the declaration named `entry` in src/model/metrics.ts; throws when it declares none. */
export function declaredRank(entry: string, column: string): DeclaredRank {
  const measure = declaredMeasure(entry, column);
  if (!('rank' in measure)) throw new Error(`'${entry}': ${column} is no rank`);
  const directions = (requested?: 'asc' | 'desc') =>
    measure.rank.map((k) => {
      if (k.best !== 'requested') return k.best;
      if (!requested) throw new Error(`'${entry}': ${column} ranks by the requested sort, and none was given`);
      return requested;
    });
  return {
    keys: measure.rank,
    directions,
    compareKeys(requested) {
      const dir = directions(requested);
      return (a, b) => {
        for (let i = 0; i < dir.length; i++) {
          const [x, y] = [a[i] ?? null, b[i] ?? null];
          if (x === y) continue;
          if (x === null) return 1;
          if (y === null) return -1;
          return dir[i] === 'desc' ? y - x : x - y;
        }
        return 0;
      };
    },
    order(parts, ties, requested) {
      const dir = directions(requested);
      return [
        ...measure.rank.map(
          (k, i) =>
            sql`${bound(parts, k.by)} ${dir[i] === 'desc' ? sql`DESC` : sql`ASC`}${k.nullsLast ? sql` NULLS LAST` : sql``}`,
        ),
        ...ties,
      ];
    },
  };
}

/** The earliest or latest instant `column` of the declaration named `entry`: min or max of the part the report binds. */
export function declaredInstant(entry: string, column: string): { sql(parts: PartsSql): Fragment } {
  const measure = declaredMeasure(entry, column);
  if ('earliest' in measure) return { sql: (parts) => sql`min(${bound(parts, measure.earliest)})` };
  if ('latest' in measure) return { sql: (parts) => sql`max(${bound(parts, measure.latest)})` };
  throw new Error(`'${entry}': ${column} is no instant`);
}
