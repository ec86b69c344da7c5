import { render, sql, type Fragment } from '../../query/sql.ts';
import { plainJs } from '../rows-query.ts';
import type { CallContext, PreparedCall, RollupChoice } from '../endpoint.ts';

/**
 * Why the SQL reads the rollups it does, in words. `mode`: the engine builds rollups on use, reads only
 * those stored (`rollups: 'stored'`, as `aea query` does), or has none.
 */
export function rollupReason(r: RollupChoice, mode: 'build' | 'stored' | 'off' = 'build'): string {
  if (r.candidates.length === 0)
    return 'no rollup keeps every key this request groups and filters by (or the report has none): the SQL reads the facts';
  const missing = r.candidates.filter((c) => !r.chosen.includes(c));
  const one = r.candidates.length === 1;
  if (mode === 'off')
    return `${r.candidates.join(' and ')} ${one ? 'keeps' : 'keep'} every key this request groups and filters by, but rollups are off for this engine (\`rollups: false\`): the SQL reads the facts`;
  if (missing.length === 0)
    return `${r.candidates.join(' and ')} ${one ? 'keeps' : 'keep'} every key this request groups and filters by, and ${one ? 'is' : 'are'} current: the SQL reads ${one ? 'it' : 'them'} instead of the facts`;
  const absent = `${r.candidates.join(' and ')} ${one ? 'keeps' : 'keep'} every key this request groups and filters by, but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'}`;
  if (mode === 'stored')
    return `${absent} not stored for the current prompts and dataset (this engine reads stored rollups in place and builds none, as \`aea query\` does; \`aea rollups build\` stores them): the SQL reads the facts`;
  return `${absent} not built for the current prompts yet (a plain request starts the build; explain does not): the SQL reads the facts`;
}

/**
 * The backend's EXPLAIN of a statement: its plan, as text (DuckDB's physical plan, ClickHouse's query
 * plan). Nothing is executed, no fact row is read.
 */
async function backendExplain(ctx: CallContext, query: Fragment): Promise<string> {
  const backend = ctx.core.backend;
  if (backend.dialect === 'duckdb') {
    const q = render(query);
    const reader = await ctx.core.pool.read(`EXPLAIN ${q.text}`, q.params as never, ctx.signal);
    return reader
      .getRowsJS()
      .map((r) => String(r[1] ?? ''))
      .join('\n');
  }
  const rows = await backend.read(sql`EXPLAIN ${query}`, ctx.signal);
  return (rows.columns.explain ?? []).map(String).join('\n');
}

/**
 * The explain answer: the normalized request, the plan (pure data), each statement's SQL with its
 * parameters, as the backend receives them (DuckDB's or ClickHouse's dialect), and the backend's EXPLAIN of it, and the rollups considered and chosen with the reason.
 */
export async function explainBody(
  ctx: CallContext,
  operation: string,
  request: unknown,
  prepared: PreparedCall,
  fingerprints: { readonly answer: string },
): Promise<Record<string, unknown>> {
  const dialect = ctx.core.backend.dialect;
  const statements = [];
  for (const s of prepared.statements) {
    const queries = s.queries(dialect);
    for (const [i, query] of queries.entries()) {
      const q = render(query, dialect);
      statements.push({
        role: queries.length > 1 ? `${s.role} (${i + 1} of ${queries.length})` : s.role,
        sql: q.text,
        params: plainJs(q.params),
        explain: await backendExplain(ctx, query),
      });
    }
  }
  return {
    operation,
    organization_id: ctx.organizationId,
    request,
    plan: prepared.plan,
    rollups: {
      candidates: prepared.rollups.candidates,
      chosen: prepared.rollups.chosen,
      reason: rollupReason(
        prepared.rollups,
        !ctx.core.rollups.enabled ? 'off' : ctx.core.rollups.storedOnly ? 'stored' : 'build',
      ),
    },
    statements,
    answer_fingerprint: fingerprints.answer,
  };
}
