import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../../errors.ts';
import type { FilterNode } from '../../../query/filter-node.ts';
import { sql } from '../../../query/sql.ts';
import { v2Report, refuseIssues, type DataGuard } from '../../v2-report.ts';
import { readClaimFilter } from './claim-filter.ts';
import { includeNames, sectionDims, type ClaimsPlan } from './claims-plan.ts';
import { occurrences, sectionKeys } from './claim-sections.ts';
import { ratioComponents, withParts } from '../../insights/ratio-parts.ts';
import { answersCountedByRollup, compileClaims } from './claims-sql.ts';
import { factcheckAnswers } from '../../insights/factcheck-rollup.ts';
import {
  answerOver,
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  insightsFields,
  maxResults,
  pageLimit,
} from '../../insights/common.ts';

/** Sectioning by model lists every claim once per model; past this many inaccurate clusters it is refused. */
export const maxModelSectionClusters = 2000;

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(sectionDims)).max(1).optional().nullable(),
  include: z.array(z.enum(includeNames)).optional().nullable(),
  limit: pageLimit(100, 25).describe('claims (or sections) per page, 1 to 100, default 25'),
  max_results: maxResults(),
});

export type ClaimsRequest = z.output<typeof schema>;

function guards(plan: ClaimsPlan): DataGuard[] {
  if (plan.section !== 'model') return [];
  return [
    {
      query: sql`WITH ${occurrences({ ...plan, section: null })} SELECT count(DISTINCT cluster_id) FROM scoped_occurrences WHERE NOT accurate`,
      refuse: (value) => {
        const clusters = Number(value);
        if (clusters <= maxModelSectionClusters) return null;
        return valueError(
          ['body', 'group_by'],
          `group_by [model] is not available over more than ${maxModelSectionClusters} inaccurate claim clusters (this scope has ${clusters}); narrow the dates or the filter, or use the flat list`,
          ['model'],
        );
      },
    },
  ];
}

function check(
  req: ClaimsRequest,
  mode: 'page' | 'stream',
  filter: ReturnType<typeof readClaimFilter>,
): ValidationIssue[] {
  const issues = [...checkWindow(req), ...checkUnique(req.include, 'include')];
  const grouped = (req.group_by ?? []).length > 0;
  if (mode === 'stream') {
    if (grouped)
      issues.push(
        valueError(
          ['body', 'group_by'],
          'the stream sends the flat list of claims; group_by is not available on it',
          req.group_by,
        ),
      );
    (req.include ?? []).forEach((inc, i) => {
      if (inc === 'evidence' || inc === 'citation_sources')
        issues.push(valueError(['body', 'include', i], `include ${inc} is not available on the stream`, inc));
    });
  }
  if (mode === 'page' && grouped) {
    const at = (req.include ?? []).indexOf('citation_sources');
    if (at >= 0)
      issues.push(
        valueError(
          ['body', 'include', at],
          'include citation_sources cannot be combined with group_by',
          'citation_sources',
        ),
      );
  }
  issues.push(...filter.issues);
  if (req.group_by?.[0] === 'tag' && filter.node && usesTag(filter.node)) {
    issues.push(valueError(['body', 'group_by'], 'group_by [tag] cannot be combined with a tag filter', req.group_by));
  }
  return issues;
}

const usesTag = (node: FilterNode): boolean =>
  node.kind === 'leaf' ? node.field === 'tag' : node.kind === 'and' && node.children.some(usesTag);

const noDates = 'the claims report has no dates (neither its claims nor its sections are dated)';

export const factcheckClaimsReport = v2Report<ClaimsRequest, ClaimsPlan, z.input<typeof schema>>({
  id: 'factcheck-claims.v2',
  path: '/v2/reports/factcheck/claims',
  streamPath: '/v2/reports/factcheck/claims/stream',
  name: 'factcheckClaims',
  summary: 'Fact-check claims: the inaccurate claims behind an accuracy score, flat or sectioned by one dimension',
  tags: ['Reports v2'],
  schema,
  rollups: (plan) => (answersCountedByRollup(plan) ? [{ def: factcheckAnswers, scopeId: plan.categoryId }] : []),
  paging: cursorPaging(25),
  read(req, ctx, mode) {
    const parsedFilter = readClaimFilter(req.filter);
    refuseIssues(check(req, mode, parsedFilter));
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      section: req.group_by?.[0] ?? null,
      include: includeNames.filter((i) => req.include?.includes(i)),
      filter: parsedFilter.node,
    };
  },
  compile: compileClaims,
  answer: answerOver((plan) => {
    if (!plan.section)
      return (extension) =>
        extension === 'fill'
          ? `fill needs the date dimension: ${noDates}`
          : 'compare needs a section on the claims report: add one dimension to group_by (a flat list of claims has no groups to match)';
    const columns = {
      keys: [sectionKeys[plan.section].ref(plan.categoryId).key === 'id' ? 'section_id' : 'section_name'],
      metrics: ['accuracy', 'accurate', 'inaccurate', 'total_claims'],
      date: null,
    };
    return withParts(columns, plan.components ? ['accuracy'] : []);
  }, noDates),
  components: ratioComponents<ClaimsPlan>((plan) =>
    plan.section
      ? null
      : 'components needs a section on the claims report: add one dimension to group_by (a flat claim has no accuracy)',
  ),
  guards,
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      models: page.sqlInfo.models ?? [],
      group_by: plan.section ? [plan.section] : [],
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter),
      include: plan.include,
    };
  },
});
