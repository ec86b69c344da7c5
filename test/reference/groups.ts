import type { FilterNode } from '../../src/query/filter-node.ts';
import { negationOf } from '../../src/query/filter-node.ts';
import type { Row, Rows } from '../helpers/arrow-fixture.ts';
import { byId, bucketOf, cmp } from './context.ts';

type Leaf = Extract<FilterNode, { kind: 'leaf' }>;

/** A tree read with a report's own leaf semantics. */
export function evaluateTree(node: FilterNode, leaf: (l: Leaf) => boolean): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((c) => evaluateTree(c, leaf));
    case 'or':
      return node.children.some((c) => evaluateTree(c, leaf));
    case 'not':
      return !evaluateTree(node.child, leaf);
    case 'leaf':
      return leaf(node);
  }
}

/** The top-level clauses of a tree: the children of its top `and`, or the tree itself. */
export const clauses = (node: FilterNode | undefined): FilterNode[] =>
  !node ? [] : node.kind === 'and' ? node.children.flatMap((c) => clauses(c)) : [node];

export const fieldsOf = (n: FilterNode): string[] =>
  n.kind === 'leaf' ? [n.field] : n.kind === 'not' ? fieldsOf(n.child) : n.children.flatMap(fieldsOf);

/** The part of a filter over the answer: the top-level clauses without a row-layer field. */
export function answerPart(node: FilterNode | undefined, rowFields: readonly string[]): FilterNode[] {
  return clauses(node).filter((c) => fieldsOf(c).some((f) => !rowFields.includes(f)));
}

/** A text leaf over one string value (missing: no positive operator matches). */
export function textLeaf(l: Leaf, value: string | null | undefined): boolean {
  const values = (Array.isArray(l.value) ? l.value : [l.value]).map(String);
  const positive = (op: string): boolean => {
    if (value === null || value === undefined) return false;
    switch (op) {
      case 'is':
      case 'in':
        return values.includes(value);
      case 'contains':
        return value.includes(values[0]!);
      case 'contains_case_insensitive':
        return value.toLowerCase().includes(values[0]!.toLowerCase());
      case 'matches':
        return new RegExp(values[0]!).test(value);
      default:
        throw new Error(op);
    }
  };
  const negated = negationOf[l.op as keyof typeof negationOf];
  return negated ? !positive(negated) : positive(l.op);
}

/** The v2 analysis types of a prompt (`accuracy` is `factcheck`). */
export const v2Types = (p: Row): string[] =>
  (p.analysis_types as string[]).map((t) => (t === 'accuracy' ? 'factcheck' : t));

/** analysis_type is|in: `all` matches every prompt, unknown values none. */
export const analysisTypeLeaf = (l: Leaf, p: Row): boolean => {
  const values = (Array.isArray(l.value) ? l.value : [l.value]).map(String);
  return values.includes('all') || v2Types(p).some((t) => values.includes(t));
};

export interface DimValue {
  readonly key: string | null;
  readonly name: string | null;
}

/** The values of a prompt-level (or date) group-by dimension for a fact row; tags give one value per tag. */
export function dimensionReader(f: Rows, interval: 'day' | 'week' | 'month' = 'day') {
  const prompts = byId(f.prompts);
  const tables: Record<string, Map<string, Row>> = {
    model: byId(f.models),
    region: byId(f.regions),
    persona: byId(f.personas),
    prompt: prompts,
    topic: byId(f.topics),
    tag: byId(f.tags),
  };
  const named = (dim: string, key: unknown): DimValue =>
    key == null
      ? { key: null, name: null }
      : { key: String(key), name: String(tables[dim]!.get(String(key))?.[dim === 'prompt' ? 'prompt' : 'name'] ?? '') };
  return (dim: string, r: Row): DimValue[] => {
    const p = prompts.get(String(r.prompt_id))!;
    switch (dim) {
      case 'date': {
        const b = bucketOf(String(r.day), interval);
        return [{ key: b, name: b }];
      }
      case 'topic':
        return [named('topic', p.topic_id)];
      case 'tag': {
        const tags = [...new Set(p.tag_ids as string[])];
        return tags.length === 0 ? [{ key: null, name: null }] : tags.map((t) => named('tag', t));
      }
      default:
        return [named(dim, r[`${dim}_id`])];
    }
  };
}

/** The JSON a row carries for a dimension value: `date` as text, others `{id, name}` or null. */
export const dimField = (dim: string, v: DimValue): [string, unknown] =>
  dim === 'date' ? ['date', v.key] : [dim, v.key === null ? null : { id: v.key, name: v.name }];

/** Dimension values in group_by order: dates by key, others by name then id, missing values last. */
export function compareDims(dims: readonly string[], a: readonly DimValue[], b: readonly DimValue[]): number {
  for (let i = 0; i < dims.length; i++) {
    const c = dims[i] === 'date' ? cmp(a[i]!.key, b[i]!.key) : cmp(a[i]!.name, b[i]!.name) || cmp(a[i]!.key, b[i]!.key);
    if (c !== 0) return c;
  }
  return 0;
}

/** Every combination of one value per dimension. */
export function combinations(values: readonly DimValue[][]): DimValue[][] {
  return values.reduce<DimValue[][]>((acc, vs) => acc.flatMap((a) => vs.map((v) => [...a, v])), [[]]);
}

/** A sum in ascending order, as the engine adds shares. */
export const sortedSum = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b).reduce((s, x) => s + x, 0);

export const isoSecond = (instant: unknown): string =>
  new Date(String(instant)).toISOString().replace(/\.\d{3}Z$/, 'Z');
