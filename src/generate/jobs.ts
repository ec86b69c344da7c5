import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableName } from '../model/tables.ts';
import { partFileName } from '../model/layout.ts';
import { windowDays } from './dims-sql.ts';
import * as facts from './facts-sql.ts';
import * as traffic from './traffic-sql.ts';
import { copyTable, type Params } from './table-writer.ts';
import * as vocab from './vocab.ts';

/**
 * A job holds its executions and sorts its facts in memory: a scale-10 category (1.25 M executions) per job on each
 * of two connections fits the memory limit, and a scale-100 category (12.5 M) does not, so scales above 10 cut
 * every category into days. Scales up to 10 keep one part per category and organization.
 */
export const slicesOf = (scale: number): number => Math.max(1, Math.ceil(scale / 10));

/** The days [d0, d1) of a scope's slice `s` of `slices`. */
const sliceDays = (s: number, slices: number) => ({
  d0: Math.floor((s * windowDays) / slices),
  d1: Math.floor(((s + 1) * windowDays) / slices),
});

export interface JobsOf {
  readonly out: string;
  readonly slices: number;
  readonly categories: number;
  /** Every traffic domain, in the order of its organization, then its own. */
  readonly domains: readonly { readonly org: number; readonly dom: number }[];
  readonly written: (table: TableName, rows: number, label: string) => void;
}

export type Job = (c: DuckDBConnection) => Promise<void>;

/**
 * The generator's jobs, each writing parts of its own: every category's slices of days, then the traffic's, which
 * follow in the same queue so both connections stay busy through the last categories.
 */
export function generationJobs(x: JobsOf): Job[] {
  const writeSlice = async (c: DuckDBConnection, cat: number, s: number) => {
    const run = async (sql: string, params: Params = {}) => {
      await c.run(sql, params);
    };
    const index = cat * x.slices + s;
    const label =
      x.slices === 1
        ? `category ${cat + 1}/${x.categories}`
        : `category ${cat + 1}/${x.categories} part ${s + 1}/${x.slices}`;
    const fact = async (table: keyof typeof facts.factTables) => {
      const f: facts.FactTable = facts.factTables[table];
      const write = f.write ?? `SELECT *, ${facts.contextLookups} FROM g_rows`;
      if (f.order) await run(`CREATE OR REPLACE TEMP TABLE g_rows AS SELECT * FROM (${f.rows}) ORDER BY ${f.order}`);
      await mkdir(join(x.out, table), { recursive: true });
      const file = join(x.out, table, partFileName(index));
      const source = f.order ? write : `WITH g_rows AS (${f.rows}) SELECT * FROM (${write})`;
      const n = await copyTable(c, table, source, {}, file, 'in order');
      x.written(table, n, `${label}: ${table}`);
      return file;
    };
    for (const sql of facts.categoryVariablesSql) await run(sql, sql.includes('$cat') ? { cat } : {});
    await run(facts.contextSql, { cat, ...sliceDays(s, x.slices) });
    await fact('executions');
    await fact('mentions');
    await run(facts.pageUrlsSql, { cat, part: await fact('citations') });
    for (const table of ['sentiments', 'fanouts', 'shopping_results', 'claim_occurrences'] as const) await fact(table);
  };
  const trafficJobs =
    x.slices === 1
      ? vocab.orgs.map((_, org) => ({ org, dom: null, s: 0, label: `organization ${org + 1}/${vocab.orgs.length}` }))
      : x.domains.flatMap(({ org, dom }) =>
          Array.from({ length: x.slices }, (_, s) => ({
            org,
            dom: dom as number | null,
            s,
            label: `organization ${org + 1}/${vocab.orgs.length} domain ${dom + 1} part ${s + 1}/${x.slices}`,
          })),
        );
  const trafficPart = (table: 'bot_events' | 'referral_visits', part: traffic.TrafficPart, label: string) =>
    trafficJobs.map((j, index) => async (c: DuckDBConnection) => {
      for (const sql of traffic.trafficVariablesSql) await c.run(sql);
      const params = { org: j.org, dom: j.dom, ...sliceDays(j.s, x.slices) };
      await c.run(part.days, params);
      await mkdir(join(x.out, table), { recursive: true });
      const file = join(x.out, table, partFileName(index));
      x.written(table, await copyTable(c, table, part.rows, {}, file, 'in order'), `${j.label}: ${label}`);
    });
  return [
    ...Array.from(
      { length: x.categories * x.slices },
      (_, job) => (c: DuckDBConnection) => writeSlice(c, Math.floor(job / x.slices), job % x.slices),
    ),
    ...trafficPart('bot_events', traffic.botEvents, 'bot events'),
    ...trafficPart('referral_visits', traffic.referralVisits, 'referral visits'),
  ];
}
