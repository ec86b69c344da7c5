import type { FilterNode, PositiveOp } from '../../src/query/filter-node.ts';
import { negationOf } from '../../src/query/filter-node.ts';

export interface Candidate {
  readonly id: string;
  readonly name: string;
}

/** For one row, the dimension values each filter field sees: none when the value is missing. */
export type FieldValues = Record<string, readonly Candidate[]>;

const idOrName = (c: Candidate, v: unknown) => c.id === v || c.name === v;

function positive(op: PositiveOp, candidates: readonly Candidate[], values: readonly unknown[]): boolean {
  const v = String(values[0]);
  switch (op) {
    case 'is':
      return candidates.some((c) => idOrName(c, values[0]));
    case 'in':
      return candidates.some((c) => values.some((x) => idOrName(c, x)));
    case 'contains':
      return candidates.some((c) => c.name.includes(v));
    case 'contains_case_insensitive':
      return candidates.some((c) => c.name.toLowerCase().includes(v.toLowerCase()));
    case 'matches':
      return candidates.some((c) => new RegExp(v).test(c.name));
  }
}

/** An independent reading of the documented filter semantics, over plain objects. */
export function evaluate(node: FilterNode, row: FieldValues): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((c) => evaluate(c, row));
    case 'or':
      return node.children.some((c) => evaluate(c, row));
    case 'not':
      return !evaluate(node.child, row);
    case 'leaf': {
      const values = Array.isArray(node.value) ? node.value : [node.value];
      const candidates = row[node.field] ?? [];
      if (node.op in negationOf) return !positive(negationOf[node.op as keyof typeof negationOf], candidates, values);
      return positive(node.op as PositiveOp, candidates, values);
    }
  }
}
