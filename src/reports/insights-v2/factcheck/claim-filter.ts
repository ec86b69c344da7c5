import { ValidationError, valueError, type ValidationIssue } from '../../../errors.ts';
import { checkFilter, type FilterCatalog } from '../../../query/filter-compiler.ts';
import { normalize, parseFilter, toWire, type FilterNode } from '../../../query/filter-node.ts';
import { promptFilterFields } from '../../insights/dimensions.ts';
import { pickFields } from '../../insights/scope.ts';

/** Fact-check filters: prompt-level fields; only topic takes the negative operators. */
export const claimFilterFields: FilterCatalog = pickFields(promptFilterFields, {
  model: ['is', 'in'],
  topic: ['is', 'in', 'not_is', 'not_in'],
  region: ['is', 'in'],
  persona: ['is', 'in'],
  prompt: ['is', 'in', 'contains', 'contains_case_insensitive', 'matches'],
  tag: ['is', 'in'],
});

type Loc = (string | number)[];

const shapeMessage =
  'the fact-check filter is one leaf or a top-level and of leaves, one per field; or, not and nested groups are not available (negate topic with not_is or not_in)';

/** A leaf, or `{and: [leaf, …]}` with at most one leaf per field. */
function shapeIssues(node: FilterNode, loc: Loc): ValidationIssue[] {
  if (node.kind === 'leaf') return [];
  if (node.kind !== 'and') return [valueError(loc, shapeMessage, toWire(node))];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  node.children.forEach((c, i) => {
    const at = [...loc, 'and', i];
    if (c.kind !== 'leaf') issues.push(valueError(at, shapeMessage, toWire(c)));
    else if (seen.has(c.field))
      issues.push(
        valueError(
          [...at, 'field'],
          `field '${c.field}' appears in more than one leaf; use one in leaf for several values`,
          c.field,
        ),
      );
    else seen.add(c.field);
  });
  return issues;
}

export function readClaimFilter(input: unknown): { node: FilterNode | null; issues: ValidationIssue[] } {
  if (input === undefined || input === null) return { node: null, issues: [] };
  const loc = ['body', 'filter'];
  let parsed: FilterNode;
  try {
    parsed = parseFilter(input, loc);
  } catch (error) {
    if (error instanceof ValidationError) return { node: null, issues: [...error.detail] };
    throw error;
  }
  const shape = shapeIssues(parsed, loc);
  if (shape.length > 0) return { node: null, issues: shape };
  const fields = checkFilter(parsed, claimFilterFields, loc);
  return fields.length > 0 ? { node: null, issues: fields } : { node: normalize(parsed), issues: [] };
}
