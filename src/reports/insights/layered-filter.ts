import { ValidationError, valueError, type ValidationIssue } from '../../errors.ts';
import { checkFilter, type FilterCatalog } from '../../query/filter-compiler.ts';
import {
  and,
  defaultFilterLimits,
  normalize,
  parseFilter,
  toWire,
  type FilterLimits,
  type FilterNode,
} from '../../query/filter-node.ts';

type Loc = (string | number)[];
type Leaf = Extract<FilterNode, { kind: 'leaf' }>;

/**
 * The filter rules of a v2 report whose filter reads two layers: the answer (its prompt-level context)
 * and a row of the answer (a citation, a sentiment assessment). A ratio's denominator is scoped by the
 * answer layer only, so every filter must split into `answer AND row`: a row-layer leaf never shares an
 * `or` or `not` with an answer-level leaf. `topLevel` fields (analysis_type, the answers' domain and
 * page) must be clauses of the top-level `and` (or the whole filter), at most one leaf each.
 */
export interface FilterRules {
  readonly catalog: FilterCatalog;
  readonly rowFields?: readonly string[];
  readonly topLevel?: readonly string[];
  readonly limits?: FilterLimits;
}

export interface LayeredFilter {
  /** The normalized tree, echoed in info. */
  readonly node: FilterNode | null;
  /** The clauses over the answer: they scope denominators too. */
  readonly answer: FilterNode | null;
  /** The clauses over the answer's rows: they pick rows without shrinking a denominator. */
  readonly row: FilterNode | null;
  /** The top-level leaf of each `topLevel` field present. */
  readonly top: Readonly<Record<string, Leaf>>;
}

const none: LayeredFilter = { node: null, answer: null, row: null, top: {} };

function layersUnder(n: FilterNode, rowFields: readonly string[]): Set<'row' | 'answer'> {
  if (n.kind === 'leaf') return new Set([rowFields.includes(n.field) ? 'row' : 'answer']);
  const children = n.kind === 'not' ? [n.child] : n.children;
  return new Set(children.flatMap((c) => [...layersUnder(c, rowFields)]));
}

function layerIssues(root: FilterNode, rowFields: readonly string[], loc: Loc): ValidationIssue[] {
  if (rowFields.length === 0) return [];
  const issues: ValidationIssue[] = [];
  const walk = (n: FilterNode, at: Loc): void => {
    if (n.kind === 'leaf') return;
    if (n.kind !== 'and' && layersUnder(n, rowFields).size > 1) {
      const fields = rowFields.join(', ');
      issues.push(
        valueError(
          at,
          `a leaf on ${fields} cannot share an ${n.kind} with a prompt-level leaf; put it in its own clause of the top-level and`,
          toWire(n),
        ),
      );
      return;
    }
    if (n.kind === 'not') walk(n.child, [...at, 'not']);
    else n.children.forEach((c, i) => walk(c, [...at, n.kind, i]));
  };
  walk(root, loc);
  return issues;
}

function topLevelIssues(
  root: FilterNode,
  fields: readonly string[],
  loc: Loc,
): { issues: ValidationIssue[]; top: Record<string, Leaf> } {
  const issues: ValidationIssue[] = [];
  const top: Record<string, Leaf> = {};
  const walk = (n: FilterNode, at: Loc, onTop: boolean): void => {
    if (n.kind === 'leaf') {
      if (!fields.includes(n.field)) return;
      if (!onTop)
        issues.push(
          valueError(at, `a ${n.field} leaf must be a clause of the top-level and, not inside an or or not`, toWire(n)),
        );
      else if (top[n.field])
        issues.push(
          valueError(
            [...at, 'field'],
            `field '${n.field}' appears in more than one leaf; use one in leaf for several values`,
            n.field,
          ),
        );
      else top[n.field] = n;
      return;
    }
    if (n.kind === 'not') walk(n.child, [...at, 'not'], false);
    else n.children.forEach((c, i) => walk(c, [...at, n.kind, i], onTop && n.kind === 'and'));
  };
  walk(root, loc, true);
  return { issues, top };
}

/** Parses and checks a filter against the rules; returns its layers, or the issues naming the bad nodes. */
export function readLayeredFilter(
  input: unknown,
  rules: FilterRules,
): { filter: LayeredFilter; issues: ValidationIssue[] } {
  if (input === undefined || input === null) return { filter: none, issues: [] };
  const loc = ['body', 'filter'];
  let parsed: FilterNode;
  try {
    parsed = parseFilter(input, loc, rules.limits ?? defaultFilterLimits);
  } catch (error) {
    if (error instanceof ValidationError) return { filter: none, issues: [...error.detail] };
    throw error;
  }
  const fieldIssues = checkFilter(parsed, rules.catalog, loc);
  if (fieldIssues.length > 0) return { filter: none, issues: fieldIssues };
  const { issues: topIssues, top } = topLevelIssues(parsed, rules.topLevel ?? [], loc);
  const issues = [...topIssues, ...layerIssues(parsed, rules.rowFields ?? [], loc)];
  if (issues.length > 0) return { filter: none, issues };
  const node = normalize(parsed);
  const rowFields = rules.rowFields ?? [];
  const clauses = node.kind === 'and' ? node.children : [node];
  const isRow = (c: FilterNode) => !layersUnder(c, rowFields).has('answer');
  return {
    filter: { node, answer: and(clauses.filter((c) => !isRow(c))), row: and(clauses.filter(isRow)), top },
    issues: [],
  };
}
