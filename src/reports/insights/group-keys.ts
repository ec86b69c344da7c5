import { field as fieldOf, object, repeated, value, type ShapeField } from '../../query/row-shape.ts';
import { eachItemOrNull, nullSafeEqual } from '../../query/dialect.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import { dayBucket, type CalendarInterval } from '../../query/time.ts';
import type { DimensionTable } from '../../query/filter-fields.ts';
import { promptDimensions, tagTable } from './dimensions.ts';

/**
 * A group-by key of a v2 report. Its key expression reads the fact row `f`, its prompt `p` and whatever
 * the report joins; once grouped, the key is column `k_<name>` and its lookup (a LEFT JOIN) alias
 * `d_<name>`. `order` gives its ascending sort terms and `shape`/`columns` its fields in a row.
 */
export interface GroupKey {
  readonly expr: Fragment;
  readonly lookup?: (k: Fragment, d: Fragment) => Fragment;
  readonly order: (k: Fragment, d: Fragment) => Fragment[];
  /** `order` reads the lookup (a name), so sorting needs the lookup joined. */
  readonly sortsByLookup?: boolean;
  /** The row's fields for this key, reading the columns `col(part)` names. */
  readonly shape: (col: (part: string) => string) => ShapeField[];
  /** The columns `shape` reads, as `expr AS col(part)` over the key `k` and its lookup `d`. */
  readonly columns: (k: Fragment, d: Fragment, col: (part: string) => Fragment) => Fragment[];
  /** The part whose column is the key itself (`k AS col(part)`): what identifies a row's group. */
  readonly identity: string;
}

/** A dimension shown as `{id, name}`: null when its key is missing. */
export const refShape =
  (field: string) =>
  (col: (part: string) => string): ShapeField[] => [
    fieldOf(field, object([fieldOf('id', repeated(col('id'))), fieldOf('name', repeated(col('name')))], col('id'))),
  ];

/** A dimension stored as an id, shown as `{id, name}` and sorted by name, then id; missing values last. */
export function refKey(field: string, column: Fragment, table: DimensionTable): GroupKey {
  const name = ident(table.name);
  return {
    expr: column,
    lookup: (k, d) => sql`LEFT JOIN ${ident(table.table)} AS ${d} ON ${d}.id = ${k}`,
    order: (k, d) => [sql`${d}.${name} NULLS LAST`, sql`${k} NULLS LAST`],
    sortsByLookup: true,
    shape: refShape(field),
    columns: (k, d, col) => [sql`${k} AS ${col('id')}`, sql`${d}.${name} AS ${col('name')}`],
    identity: 'id',
  };
}

/** The ET calendar bucket of the fact's day, shown as its first day `YYYY-MM-DD`. */
export function dateKey(interval: CalendarInterval): GroupKey {
  return {
    expr: dayBucket(interval, sql`f.day`),
    order: (k) => [k],
    shape: (col) => [fieldOf('date', value(col('day'), 'date'))],
    columns: (k, _d, col) => [sql`${k} AS ${col('day')}`],
    identity: 'day',
  };
}

/** A plain text value, shown as it is. */
export function textKey(field: string, expr: Fragment): GroupKey {
  return {
    expr,
    order: (k) => [sql`${k} NULLS LAST`],
    shape: (col) => [fieldOf(field, value(col('v'), 'text'))],
    columns: (k, _d, col) => [sql`${k} AS ${col('v')}`],
    identity: 'v',
  };
}

/** The prompt-level dimensions every Insights report groups by, as `{id, name}`. */
export const promptKeys = {
  model: refKey('model', promptDimensions.model.column, promptDimensions.model.table),
  region: refKey('region', promptDimensions.region.column, promptDimensions.region.table),
  persona: refKey('persona', promptDimensions.persona.column, promptDimensions.persona.table),
  prompt: refKey('prompt', promptDimensions.prompt.column, promptDimensions.prompt.table),
  topic: refKey('topic', promptDimensions.topic.column, promptDimensions.topic.table),
  // TRICKY: an answer counts once in each of its prompt's tags; an untagged one under a missing (NULL) tag.
  tag: refKey('tag', eachItemOrNull(sql`p.tag_ids`, true), tagTable),
} as const satisfies Record<string, GroupKey>;

/** The group keys of one request, in group_by order, and the SQL pieces built from them. */
export class Grouping {
  constructor(
    private readonly keys: Readonly<Record<string, GroupKey>>,
    readonly names: readonly string[],
  ) {}

  /** The same grouping without some keys (e.g. a ratio's denominator). */
  without(...drop: string[]): Grouping {
    return new Grouping(
      this.keys,
      this.names.filter((n) => !drop.includes(n)),
    );
  }

  has(name: string): boolean {
    return this.names.includes(name);
  }

  get empty(): boolean {
    return this.names.length === 0;
  }

  col(name: string, alias?: string): Fragment {
    return alias ? sql`${ident(alias)}.${ident(`k_${name}`)}` : ident(`k_${name}`);
  }

  /** `expr AS k_a, expr AS k_b, ` for a select list over `f` and `p`, or nothing. */
  select(): Fragment {
    if (this.empty) return sql``;
    return sql`${join(
      this.names.map((n) => sql`${this.keys[n]!.expr} AS ${this.col(n)}`),
      ', ',
    )}, `;
  }

  /** `k_a, k_b, ` (or `alias.k_a AS k_a, …`: ClickHouse names an ambiguous `alias.k_a` by its alias), or nothing. */
  cols(alias?: string): Fragment {
    if (this.empty) return sql``;
    return sql`${join(
      this.names.map((n) => (alias ? sql`${this.col(n, alias)} AS ${this.col(n)}` : this.col(n))),
      ', ',
    )}, `;
  }

  /** `GROUP BY k_a, k_b, <more>`; with no keys and nothing more, a HAVING that drops the empty group. */
  groupBy(...more: Fragment[]): Fragment {
    const terms = [...this.names.map((n) => this.col(n)), ...more];
    return terms.length > 0 ? sql`GROUP BY ${join(terms, ', ')}` : sql`HAVING count(*) > 0`;
  }

  /** `PARTITION BY k_a, k_b ` for a window, or nothing. */
  partition(alias?: string): Fragment {
    if (this.empty) return sql``;
    return sql`PARTITION BY ${join(
      this.names.map((n) => this.col(n, alias)),
      ', ',
    )} `;
  }

  /** NULL-safe equality of the keys of two relations. */
  equal(left: string, right: string): Fragment {
    if (this.empty) return sql`TRUE`;
    return join(
      this.names.map((n) => nullSafeEqual(this.col(n, left), this.col(n, right))),
      ' AND ',
    );
  }

  private lookupAlias(name: string): Fragment {
    return ident(`d_${name}`);
  }

  /** The LEFT JOINs that bring each key's display columns, from relation `from`. */
  lookups(from: string): Fragment {
    const joins = this.names.flatMap((n) => {
      const lookup = this.keys[n]!.lookup;
      return lookup ? [lookup(this.col(n, from), this.lookupAlias(n))] : [];
    });
    return join(joins, '\n');
  }

  /** The LEFT JOINs that `order` needs (the keys sorted by a looked-up name), from relation `from`. */
  orderLookups(from: string): Fragment {
    const joins = this.names.flatMap((n) => {
      const k = this.keys[n]!;
      return k.lookup && k.sortsByLookup ? [k.lookup(this.col(n, from), this.lookupAlias(n))] : [];
    });
    return join(joins, '\n');
  }

  private columnName(name: string, part: string): string {
    return `g_${name}_${part}`;
  }

  /** The row fields of every key, in group_by order. */
  shape(): ShapeField[] {
    return this.names.flatMap((n) => this.keys[n]!.shape((part) => this.columnName(n, part)));
  }

  /** The columns `shape` reads, over relation `from` and its lookups. */
  columns(from: string): Fragment[] {
    return this.names.flatMap((n) =>
      this.keys[n]!.columns(this.col(n, from), this.lookupAlias(n), (part) => ident(this.columnName(n, part))),
    );
  }

  /** The column of each key's value in a row (the key itself, not a name looked up for it): what identifies its group. */
  identities(): string[] {
    return this.names.map((n) => this.columnName(n, this.keys[n]!.identity));
  }

  /** The row column of the date key, when the grouping has one. */
  dateColumn(): string | null {
    return this.has('date') ? this.identities()[this.names.indexOf('date')]! : null;
  }

  /** Ascending sort terms of every key, in group_by order. */
  order(from: string): Fragment[] {
    return this.names.flatMap((n) => this.keys[n]!.order(this.col(n, from), this.lookupAlias(n)));
  }
}
