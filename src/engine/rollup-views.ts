import type { Layer } from './rollup-store.ts';
import { pathLiteral } from './literal.ts';

/** A column of a rollup table as built in memory: its name and DuckDB type. */
export interface RollupColumn {
  readonly name: string;
  readonly type: string;
}

/** One scope's stored files of a rollup table, oldest first, and the time key their spans apply to. */
export interface ScopeLayers {
  readonly layers: readonly Layer[];
  /** `day` or `ts`; null when the scope has no segment. */
  readonly time: string | null;
}

const identifier = /^[a-z_][a-z0-9_]*$/;
const typeName = /^[A-Z][A-Z0-9_ ]*(\(\d+(, ?\d+)?\))?(\[\])*$/;
const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;

function checked(value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value)) throw new RangeError(`a stored rollup's ${what} is not one the engine writes: ${value}`);
  return value;
}

/**
 * A rollup table read in place from its stored files, for a process that answers one request: each
 * scope's base and segments, a layer's rows less those a later layer of its scope replaces (the rows
 * `Rollups.load` leaves in memory), cast to the types the table has in memory. Parquet has no 128-bit
 * integer, so a HUGEINT is stored as a DOUBLE; the cast gives it back as `load`'s insert does.
 * Names and types come from the engine's own rollup declarations, spans from the records it wrote; each
 * is checked against the forms the engine writes, since a view takes no parameters.
 */
export function inPlaceView(name: string, columns: readonly RollupColumn[], scopes: readonly ScopeLayers[]): string {
  const reads = scopes.flatMap(({ layers, time }) =>
    layers.map((layer, i) => {
      const read = `SELECT * FROM read_parquet(${pathLiteral(layer.file)})`;
      const later = layers.slice(i + 1).flatMap((l) => (l.span ? [l.span] : []));
      if (later.length === 0) return read;
      const key = `"${checked(time ?? '', identifier, 'time key')}"`;
      const replaced = later.map(
        (s) =>
          `${key} BETWEEN TIMESTAMP '${checked(s.from, timestamp, 'span')}' AND TIMESTAMP '${checked(s.to, timestamp, 'span')}'`,
      );
      return `${read} WHERE NOT (${replaced.join(' OR ')})`;
    }),
  );
  const projection = columns
    .map((c) => {
      const column = checked(c.name, identifier, 'column');
      return `CAST("${column}" AS ${checked(c.type, typeName, 'column type')}) AS "${column}"`;
    })
    .join(', ');
  return `CREATE VIEW "${checked(name, identifier, 'table name')}" AS SELECT ${projection} FROM (${reads.join(' UNION ALL BY NAME ')})`;
}
