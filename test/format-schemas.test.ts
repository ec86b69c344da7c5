import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { DataType, Field, Table } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import {
  everyReportCases,
  endpointAt,
  page,
  reportPaths,
  sampleScopes,
  type Case,
  type Scopes,
} from './helpers/every-report.ts';
import { expectGolden } from './helpers/golden.ts';
import { duckdb, saved, type JsonRow } from './helpers/formats.ts';
import { tempDir } from './helpers/tmp.ts';

/**
 * The Arrow and Parquet schema of every report path, each against a golden (test/golden/schemas), and
 * both against the value-type table of docs/formats.md: one type per concept across reports.
 */
let engine: Engine;
let scopes: Scopes;
let dir: string;

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, rollups: false });
  scopes = await sampleScopes(engine);
  dir = await tempDir('aea-format-schemas-');
}, 120_000);
afterAll(async () => {
  await engine?.close();
});

/** A case's golden name: its path as a slug, numbered when a path has more than one case. */
function named(cases: readonly Case[]): [string, Case][] {
  const seen = new Map<string, number>();
  return cases.map((c) => {
    const slug = c.path.replace(/^\//, '').replaceAll('/', '-');
    const n = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, n);
    return [n === 1 ? slug : `${slug}-${n}`, c];
  });
}

/** Arrow leaves as `path: type`, structs opened (a list shows its item type in its type's text). */
function arrowLeaves(fields: readonly Field[], prefix = ''): [string, string][] {
  return fields.flatMap((f) => {
    const type = f.type as DataType & { children?: Field[] };
    if (String(type).startsWith('Struct<') && type.children) return arrowLeaves(type.children, `${prefix}${f.name}.`);
    return [[`${prefix}${f.name}`, String(type)] as [string, string]];
  });
}

/** A table of docs/formats.md under a heading: its body rows, cells without backticks. */
function docTable(doc: string, heading: string): string[][] {
  const from = doc.indexOf(`${heading}\n`);
  if (from < 0) throw new Error(`docs/formats.md has no "${heading}"`);
  const lines = doc.slice(from).split('\n').slice(1);
  const start = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start + 2, end).map((l) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim().replaceAll('`', '')),
  );
}

/** What docs/formats.md says: each value type's Arrow and Parquet types, and the fields allowed more than one type. */
function documented(): { parquetOf: Map<string, string>; several: Map<string, Set<string>> } {
  const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'formats.md'), 'utf8');
  const parquetOf = new Map(docTable(doc, '## Value types').map((r) => [r[3]!, r[4]!]));
  const several = new Map(
    docTable(doc, '### Fields with more than one type').map((r) => [r[0]!, new Set(r[1]!.split(/;\s*/))]),
  );
  return { parquetOf, several };
}

/** The Parquet type (as DuckDB reads it, names unquoted) an Arrow type maps to by the value-type table. */
function parquetTypeOf(type: DataType, parquetOf: Map<string, string>): string {
  const t = type as DataType & { children?: Field[] };
  const text = String(type);
  if (text.startsWith('Struct<'))
    return `STRUCT(${t.children!.map((f) => `${f.name} ${parquetTypeOf(f.type, parquetOf)}`).join(', ')})`;
  if (text.startsWith('List<')) return `${parquetTypeOf(t.children![0]!.type, parquetOf)}[]`;
  return parquetOf.get(text) ?? `(${text}: not in the value-type table)`;
}

async function schemas(
  name: string,
  c: Case,
): Promise<{ table: Table; arrow: [string, string][]; parquet: [string, string][] }> {
  const call = engine.org(c.scope.org).report(endpointAt(c.path).name);
  const table = (await call(c.body, { format: 'arrow' })) as Table;
  const bytes = (await call(c.body, { format: 'parquet' })) as Uint8Array;
  const file = await saved(dir, `${name}.parquet`, bytes);
  const described = await duckdb(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [
    file,
  ]);
  return {
    table,
    arrow: arrowLeaves(table.schema.fields),
    parquet: described.rows.map((r) => [String(r.column_name), String(r.column_type)]),
  };
}

const text = (leaves: [string, string][]) => leaves.map(([k, v]) => `${k}: ${v}`).join('\n') + '\n';

describe('Arrow and Parquet schemas', () => {
  it('covers every report path', () => {
    expect(new Set(everyReportCases(scopes).map((c) => c.path))).toEqual(new Set(reportPaths()));
  });

  it('each report path has the schema of its golden; Arrow and Parquet follow the value-type table; a field has one type across reports', async () => {
    const { parquetOf, several } = documented();
    const byLeaf = new Map<string, Set<string>>();
    const problems: string[] = [];
    for (const [name, c] of named(everyReportCases(scopes))) {
      const got = await schemas(name, c);
      expectGolden(join(import.meta.dirname, 'golden', 'schemas', `${name}.arrow.txt`), text(got.arrow));
      expectGolden(join(import.meta.dirname, 'golden', 'schemas', `${name}.parquet.txt`), text(got.parquet));
      const parquet = new Map(got.parquet);
      for (const f of got.table.schema.fields) {
        const expected = parquetTypeOf(f.type, parquetOf);
        const actual = parquet.get(f.name)?.replaceAll('"', '');
        if (actual !== expected) problems.push(`${name} ${f.name}: Parquet ${actual}, the table says ${expected}`);
      }
      for (const [leaf, type] of got.arrow) {
        const key = leaf.replace(/^(metrics|dimensions)\./, '');
        byLeaf.set(key, new Set([...(byLeaf.get(key) ?? []), type]));
      }
    }
    expect(problems).toEqual([]);
    const conflicts = [...byLeaf].filter(([, types]) => types.size > 1);
    expect(
      new Set(conflicts.map(([leaf]) => leaf)),
      'the fields with more than one type are the ones docs/formats.md lists',
    ).toEqual(new Set(several.keys()));
    for (const [leaf, types] of several) expect(byLeaf.get(leaf), leaf).toEqual(types);
  }, 600_000);

  it('an integer column holds whole numbers in the JSON: nothing is truncated on the way to Int64', async () => {
    for (const [name, c] of named(everyReportCases(scopes))) {
      const json = (await page(engine, c)) as { info?: { query?: Record<string, string[]> }; data?: JsonRow[] };
      const table = (await engine.org(c.scope.org).report(endpointAt(c.path).name)(c.body, {
        format: 'arrow',
      })) as Table;
      const integers = arrowLeaves(table.schema.fields)
        .filter(([, t]) => t === 'Int64')
        .map(([leaf]) => leaf);
      const query = json.info?.query ?? {};
      for (const row of json.data ?? []) {
        for (const leaf of integers) {
          const [head, rest] = leaf.split('.') as [string, string | undefined];
          const holder = row[head];
          const v =
            rest === undefined
              ? holder
              : Array.isArray(holder)
                ? holder[query[head]!.indexOf(rest)]
                : (holder as JsonRow | null)?.[rest];
          if (v !== null && v !== undefined) expect(Number.isInteger(v), `${name} ${leaf} = ${String(v)}`).toBe(true);
        }
      }
    }
  }, 600_000);
});
