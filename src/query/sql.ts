/**
 * SQL is built only from fragments. Text comes from template literals in this code base; every
 * interpolated value becomes a bound parameter. A fragment can be spliced into another as SQL.
 */
export type SqlValue = string | number | boolean | null | bigint;

export class Fragment {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly (SqlValue | Fragment)[],
  ) {}
}

export interface Sql {
  readonly text: string;
  readonly params: readonly SqlValue[];
}

export function sql(strings: TemplateStringsArray, ...values: (SqlValue | Fragment)[]): Fragment {
  return new Fragment([...strings], values);
}

export const empty = new Fragment([''], []);

export function join(parts: readonly Fragment[], separator: string): Fragment {
  if (parts.length === 0) return empty;
  const strings = ['', ...parts.slice(1).map(() => separator), ''];
  return new Fragment(strings, parts);
}

export const list = (values: readonly SqlValue[]): Fragment => join(values.map((v) => sql`${v}`), ', ');

export const and = (parts: readonly Fragment[]): Fragment => (parts.length === 0 ? sql`TRUE` : join(parts.map((p) => sql`(${p})`), ' AND '));

/**
 * A name from the declared catalog (a table, a column, an output key). It enters SQL as text, so it is
 * checked against a strict pattern: only names this code base declares pass.
 */
export function ident(name: string): Fragment {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a catalog identifier: ${JSON.stringify(name)}`);
  return new Fragment([`"${name}"`], []);
}

/** A catalog name as a string literal, for JSON keys. Same rule as `ident`. */
export function key(name: string): Fragment {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a catalog key: ${JSON.stringify(name)}`);
  return new Fragment([`'${name}'`], []);
}

/** Renders to DuckDB text with `$1…$n` placeholders, numbered in order of appearance. */
export function render(fragment: Fragment): Sql {
  const params: SqlValue[] = [];
  const walk = (f: Fragment): string => {
    let text = f.strings[0] ?? '';
    f.values.forEach((v, i) => {
      if (v instanceof Fragment) text += walk(v);
      else {
        params.push(v);
        text += `$${params.length}`;
      }
      text += f.strings[i + 1] ?? '';
    });
    return text;
  };
  return { text: walk(fragment), params };
}
