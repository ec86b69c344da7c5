import { z } from 'zod';
import { laxBool } from '../query/schema-types.ts';
import { parseWith } from '../query/validation.ts';

const csvRawSchema = z.object({ csv_raw: laxBool().optional() });

/**
 * The `csv_raw` query parameter of a report, taken out of its query before the report reads it: it
 * changes only how CSV is encoded (text cells without the spreadsheet guard), not the answer. A bad
 * value is a 422 at `["query", "csv_raw"]`.
 */
export function takeCsvRaw(query: Record<string, string | string[] | undefined> | undefined): {
  query: Record<string, string | string[] | undefined> | undefined;
  csvRaw: boolean;
} {
  if (query === undefined || !Object.hasOwn(query, 'csv_raw')) return { query, csvRaw: false };
  const { csv_raw: value, ...rest } = query;
  return { query: rest, csvRaw: parseWith(csvRawSchema, { csv_raw: value }, 'query').csv_raw === true };
}
