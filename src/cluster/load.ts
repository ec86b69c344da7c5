import { DatasetError } from '../errors.ts';
import type { Catalog } from './catalog.ts';
import type { LoadTarget } from './load-target.ts';
import { schemaStatements, type SchemaOptions } from './schema-ddl.ts';

/** What the loader reads of the dataset, through the engine's DuckDB (which checked it against the contract). */
export interface DatasetSource {
  /** A table's Parquet files (a derived view's written out first), or undefined when the dataset leaves the table out. */
  files(table: string): Promise<readonly string[] | undefined>;
  /** The rows the dataset holds in a table (its files) or a derived relation. */
  rows(table: string): Promise<number>;
}

export interface LoadOptions extends SchemaOptions {
  readonly progress: (line: string) => void;
}

/**
 * Creates the catalog's tables on the target (idempotently), loads each from the dataset's files,
 * then checks every table's rows on the target against the dataset's. A table that already holds
 * rows is refused before any row is loaded, so running a load twice never doubles a table.
 */
export async function loadDataset(
  catalog: Catalog,
  source: DatasetSource,
  target: LoadTarget,
  options: LoadOptions,
): Promise<void> {
  for (const statement of schemaStatements(catalog, options)) await target.execute(statement);
  const qualified = (table: string) => `${options.database}.${table}`;
  const full: string[] = [];
  for (const t of catalog.tables) if ((await target.count(qualified(t.name))) > 0) full.push(t.name);
  if (full.length > 0) {
    throw new DatasetError(
      `the database ${options.database} already holds rows in ${full.length} table${full.length === 1 ? '' : 's'} (${full.slice(0, 4).join(', ')}${full.length > 4 ? ', …' : ''}): load into an empty database (--database), or drop those tables first`,
    );
  }
  for (const t of catalog.tables) {
    const files = await source.files(t.name);
    for (const file of files ?? []) await target.insertFile(qualified(t.name), file);
    options.progress(
      `${t.name}: ${await target.count(qualified(t.name))} rows loaded${files ? ` from ${files.length} file${files.length === 1 ? '' : 's'}` : ' (not in the dataset: empty)'}`,
    );
  }
  const wrong: string[] = [];
  for (const t of catalog.tables) {
    const [want, got] = [await source.rows(t.name), await target.count(qualified(t.name))];
    if (want !== got) wrong.push(`${t.name} (${got} rows on the target, ${want} in the dataset)`);
  }
  if (wrong.length > 0) throw new DatasetError(`the load is incomplete: ${wrong.join(', ')}`);
}
