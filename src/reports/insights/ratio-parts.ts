import { ValidationError } from '../../errors.ts';
import { field, value, type ShapeField } from '../../query/row-shape.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';
import type { AnswerColumns } from '../extensions/compared-answer.ts';
import type { WindowScope } from './scope.ts';

/** A ratio metric's integer parts, as SQL over the row being built: the metric is their quotient (× 100 for a percentage). */
export interface RatioPart {
  readonly ratio: string;
  readonly numerator: Fragment;
  readonly denominator: Fragment;
}

const names = (ratio: string) => [`${ratio}_numerator`, `${ratio}_denominator`];

/** The parts' row fields, after the metrics. */
export const partFields = (parts: readonly RatioPart[]): ShapeField[] =>
  parts.flatMap((p) => names(p.ratio).map((n) => field(n, value(n, 'integer'))));

/** The parts' columns. */
export const partColumns = (parts: readonly RatioPart[]): Fragment[] =>
  parts.flatMap((p) => [
    sql`CAST(${p.numerator} AS BIGINT) AS ${ident(names(p.ratio)[0]!)}`,
    sql`CAST(${p.denominator} AS BIGINT) AS ${ident(names(p.ratio)[1]!)}`,
  ]);

/** The answer columns with the parts: NULL on a compared-only row, 0 on a row fill adds (as visibility's 0 / 0). */
export function withParts(columns: AnswerColumns, ratios: readonly string[]): AnswerColumns {
  const parts = ratios.flatMap(names);
  return { ...columns, places: [...(columns.places ?? []), ...parts], counts: [...(columns.counts ?? []), ...parts] };
}

/**
 * The components rewrite of a v2 report: `refuse` says why a plan's rows would not re-aggregate exactly
 * (a 422 at `["query", "components"]`), or null.
 */
export function ratioComponents<Plan extends WindowScope>(
  refuse: (plan: Plan) => string | null = () => null,
): (plan: Plan) => Plan {
  return (plan) => {
    const why = refuse(plan);
    if (why !== null) throw ValidationError.of(['query', 'components'], why, 'true');
    return { ...plan, components: true };
  };
}
