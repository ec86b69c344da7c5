import { z } from 'zod';
import { laxBool } from '../../query/schema-types.ts';
import { parseWith } from '../../query/validation.ts';

/**
 * The extensions a report takes beyond the spec: one definition every face reads. They travel outside
 * the spec's strict request body: as URL query parameters (HTTP), as `aea query` flags (turned into the
 * same query parameters) and as library options (passed through as the same values), so all three
 * are parsed here and a bad one is a 422 located at `["query", name]`, as is any other query parameter
 * (a misspelt extension is refused, never ignored).
 */
export const extensionsSchema = z.strictObject({
  explain: laxBool()
    .optional()
    .meta({ description: 'true: answer, without reading data, the normalized request, the plan, the SQL with its parameters, the rollups considered and chosen, and DuckDB’s EXPLAIN of each statement (docs/extensions.md). Answers JSON: a table format in Accept is a 422.' }),
});

export type ExtensionInput = z.input<typeof extensionsSchema>;

export interface Extensions {
  readonly explain: boolean;
}

/** The extensions a request asks for, from its query parameters (or the library's options in the same form). */
export function parseExtensions(query: Record<string, unknown> | undefined): Extensions {
  const parsed = parseWith(extensionsSchema, query ?? {}, 'query');
  return { explain: parsed.explain === true };
}

/** The extension names, for the CLI flags and the docs. */
export const extensionNames = Object.keys(extensionsSchema.shape) as (keyof Extensions)[];
