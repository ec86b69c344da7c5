import { field, object, value } from '../../../query/row-shape.ts';
import { sql } from '../../../query/sql.ts';
import type { CalendarInterval } from '../../../query/time.ts';
import { dateKey, promptKeys, type GroupKey } from '../../insights/group-keys.ts';

/** A claim's theme is text on its cluster; its id is the category's theme of that name, when there is one. */
const themeKey = (categoryId: string): GroupKey => ({
  expr: sql`cc.theme`,
  lookup: (k, d) =>
    sql`LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = ${categoryId} GROUP BY name) AS ${d} ON ${d}.name = ${k}`,
  order: (k) => [sql`${k} NULLS LAST`],
  shape: (col) => [
    field(
      'theme',
      object([field('id', value(col('id'), 'text')), field('name', value(col('name'), 'text'))], col('name')),
    ),
  ],
  columns: (k, d, col) => [sql`${d}.id AS ${col('id')}`, sql`${k} AS ${col('name')}`],
  // The theme is its name: its id may be missing (a cluster's theme the category does not list).
  identity: 'name',
});

/** A cited page (`ct`, the distinct pages of the claim's answer), shown with its citation category. */
const citationKey = (categoryId: string): GroupKey => ({
  expr: sql`ct.url`,
  lookup: (k, d) =>
    sql`LEFT JOIN (SELECT url, min(citation_category) AS citation_category FROM citations WHERE category_id = ${categoryId} GROUP BY url) AS ${d} ON ${d}.url = ${k}`,
  order: (k) => [k],
  shape: (col) => [
    field(
      'citation',
      object([field('url', value(col('url'), 'text')), field('citation_category', value(col('category'), 'text'))]),
    ),
  ],
  columns: (k, d, col) => [sql`${k} AS ${col('url')}`, sql`${d}.citation_category AS ${col('category')}`],
  identity: 'url',
});

/** The group keys a fact-check request may take. */
export const factcheckKeys = (interval: CalendarInterval, categoryId: string) => ({
  ...promptKeys,
  date: dateKey(interval),
  theme: themeKey(categoryId),
  citation: citationKey(categoryId),
});
