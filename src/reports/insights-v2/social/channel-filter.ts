import { ValidationError, valueError, type ValidationIssue } from '../../../errors.ts';
import { checkFilter, type FilterCatalog, type FilterField } from '../../../query/filter-compiler.ts';
import { listHasAny } from '../../../query/dialect.ts';
import { idOps, textPredicate } from '../../../query/filter-fields.ts';
import { and, normalize, parseFilter, toWire, type FilterNode } from '../../../query/filter-node.ts';
import { list, sql } from '../../../query/sql.ts';
import { promptFilterFields } from '../../insights/dimensions.ts';

/** The v2 docs name the fact-check analysis type `factcheck`; prompts store it as `accuracy`. */
const storedAnalysisType = (v: unknown) => (v === 'factcheck' ? 'accuracy' : v);

const analysisTypeField: FilterField = {
  ops: idOps,
  valueType: 'string',
  match: (_op, values) =>
    listHasAny(sql`p.analysis_types`, sql`[${list(values.map((v) => storedAnalysisType(v) as string))}]`),
};

/** Prompt-level fields of the channels report: the answer `f` (a citation row) and its prompt `p`. */
export const channelPromptFields: FilterCatalog = { ...promptFilterFields, analysis_type: analysisTypeField };

/** `channel`: is/in select exact handles; the text operators match the channel's title or handle. */
export const channelField: FilterField = {
  ops: ['is', 'in', 'contains', 'not_contains', 'contains_case_insensitive', 'not_contains_case_insensitive'],
  valueType: 'string',
  match: (op, values) =>
    op === 'is' || op === 'in'
      ? textPredicate(sql`f.channel_handle`, op, values)
      : sql`(${textPredicate(sql`f.channel_title`, op, values)} OR ${textPredicate(sql`f.channel_handle`, op, values)})`,
};

export const channelFilterFields: FilterCatalog = { ...channelPromptFields, channel: channelField };

export const channelFilterLimits = { maxDepth: 3, maxNodes: 200, maxValues: 1000 };

const isChannel = (n: FilterNode): boolean => n.kind === 'leaf' && n.field === 'channel';

type Loc = (string | number)[];

/** The kinds of leaf under a node: channel, prompt-level, or both. */
function kinds(n: FilterNode): Set<'channel' | 'prompt'> {
  if (n.kind === 'leaf') return new Set([isChannel(n) ? 'channel' : 'prompt']);
  const children = n.kind === 'not' ? [n.child] : n.children;
  return new Set(children.flatMap((c) => [...kinds(c)]));
}

/**
 * The composition rules: a channel leaf never shares an `or` or `not` with a prompt-level leaf, and an
 * exact channel selection (is, in) is a clause of the top-level `and` (or the whole filter), never under
 * an `or` or `not`. So every filter splits into a prompt-level part AND a channel part.
 */
export function compositionIssues(root: FilterNode, loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (n: FilterNode, at: Loc, underOrNot: boolean): void => {
    if (n.kind === 'leaf') {
      if (isChannel(n) && underOrNot && (n.op === 'is' || n.op === 'in')) {
        issues.push(
          valueError(
            at,
            `an exact channel selection (channel ${n.op}) must be its own and clause, not inside an or or not`,
            toWire(n),
          ),
        );
      }
      return;
    }
    if (n.kind !== 'and' && kinds(n).size > 1) {
      issues.push(
        valueError(
          at,
          `a channel leaf cannot share an ${n.kind} with a prompt-level leaf; put channel leaves in their own and clause`,
          toWire(n),
        ),
      );
      return;
    }
    if (n.kind === 'not') return walk(n.child, [...at, 'not'], true);
    n.children.forEach((c, i) => walk(c, [...at, n.kind, i], underOrNot || n.kind === 'or'));
  };
  walk(root, loc, false);
  return issues;
}

export interface ChannelFilter {
  /** The whole normalized tree, echoed in info. */
  readonly node: FilterNode | null;
  /** Clauses over the answer and its prompt: they scope citation_share's denominator too. */
  readonly prompt: FilterNode | null;
  /** Clauses over the channel: they select the channels ranked. */
  readonly channel: FilterNode | null;
}

/** `ranks` names what the report ranks (channels, videos), for the refusal of domain and page leaves. */
export function readChannelFilter(
  input: unknown,
  ranks = 'channels',
): { filter: ChannelFilter; issues: ValidationIssue[] } {
  const none = { node: null, prompt: null, channel: null };
  if (input === undefined || input === null) return { filter: none, issues: [] };
  const loc = ['body', 'filter'];
  let parsed: FilterNode;
  try {
    parsed = parseFilter(input, loc, channelFilterLimits);
  } catch (error) {
    if (error instanceof ValidationError) return { filter: none, issues: [...error.detail] };
    throw error;
  }
  for (const check of [
    (n: FilterNode, l: Loc) => refusedFields(n, l, ranks),
    (n: FilterNode, l: Loc) => checkFilter(n, channelFilterFields, l),
    compositionIssues,
  ]) {
    const issues = check(parsed, loc);
    if (issues.length > 0) return { filter: none, issues };
  }
  const node = normalize(parsed);
  const clauses = node.kind === 'and' ? node.children : [node];
  const channelOnly = (c: FilterNode) => !kinds(c).has('prompt');
  return {
    filter: { node, prompt: and(clauses.filter((c) => !channelOnly(c))), channel: and(clauses.filter(channelOnly)) },
    issues: [],
  };
}

/** domain and page are citation-level fields of other reports; here they get their own message. */
function refusedFields(root: FilterNode, loc: Loc, ranks: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (n: FilterNode, at: Loc): void => {
    if (n.kind === 'leaf') {
      if (n.field === 'domain' || n.field === 'page')
        issues.push(
          valueError(
            [...at, 'field'],
            `the ${ranks} report does not filter on ${n.field}: it ranks video-platform ${ranks}`,
            n.field,
          ),
        );
    } else if (n.kind === 'not') walk(n.child, [...at, 'not']);
    else n.children.forEach((c, i) => walk(c, [...at, n.kind, i]));
  };
  walk(root, loc);
  return issues;
}
