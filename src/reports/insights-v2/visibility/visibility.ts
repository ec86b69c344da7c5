import { z } from 'zod';
import { ValidationError, valueError, type ValidationIssue } from '../../../errors.ts';
import { v2Report, refuseIssues } from '../../v2-report.ts';
import {
  maxWindowDays,
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  insightsFields,
  maxResults,
  pageLimit,
  readFilter,
} from '../../insights/common.ts';
import { promptFilterFields } from '../../insights/dimensions.ts';
import { visibilityRollupsFor } from '../../insights/visibility-rollup.ts';
import {
  bestFirst,
  groupDims,
  metricNames,
  type AssetSelector,
  type Metric,
  type VisibilityPlan,
} from './visibility-plan.ts';
import { compileVisibility } from './visibility-sql.ts';
import { comparedDates } from '../../extensions/compared-dates.ts';

const assetsSchema = z.unknown().meta({
  description: 'A brand name (is), a list of names (in), or {op, value} with op is, in or not_in. Names or ids.',
});

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).optional().nullable(),
  metrics: z.array(z.enum(metricNames)).min(1).optional().nullable(),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  scope: z.enum(['owned', 'all']).optional().nullable(),
  assets: assetsSchema.optional().nullable(),
  sort: z
    .strictObject({ field: z.string(), dir: z.enum(['asc', 'desc']).optional().nullable() })
    .optional()
    .nullable(),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type VisibilityRequest = z.output<typeof schema>;

function readAssets(input: unknown): { selector: AssetSelector | null; issues: ValidationIssue[] } {
  const loc = ['body', 'assets'];
  if (input === undefined || input === null) return { selector: null, issues: [] };
  const nonEmptyStrings = (v: unknown): v is string[] =>
    Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && x.length > 0);
  if (typeof input === 'string') {
    return input.length > 0
      ? { selector: { op: 'is', value: input }, issues: [] }
      : { selector: null, issues: [valueError(loc, 'assets must name at least one brand', input)] };
  }
  if (Array.isArray(input)) {
    return nonEmptyStrings(input)
      ? { selector: { op: 'in', value: input }, issues: [] }
      : {
          selector: null,
          issues: [valueError(loc, 'assets as a list must hold at least one non-empty brand name', input)],
        };
  }
  if (typeof input === 'object') {
    const o = input as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => k !== 'op' && k !== 'value');
    if (extra.length > 0)
      return {
        selector: null,
        issues: extra.map((k) => ({
          type: 'extra_forbidden',
          loc: [...loc, k],
          msg: 'Extra inputs are not permitted',
          input: o[k],
        })),
      };
    if (o.op === 'is' && typeof o.value === 'string' && o.value.length > 0)
      return { selector: { op: 'is', value: o.value }, issues: [] };
    if ((o.op === 'in' || o.op === 'not_in') && nonEmptyStrings(o.value))
      return { selector: { op: o.op, value: o.value }, issues: [] };
    if (o.op !== 'is' && o.op !== 'in' && o.op !== 'not_in') {
      return {
        selector: null,
        issues: [
          {
            type: 'literal_error',
            loc: [...loc, 'op'],
            msg: "Input should be 'is', 'in' or 'not_in'",
            input: o.op,
            ctx: { expected: "'is', 'in' or 'not_in'" },
          },
        ],
      };
    }
    const msg =
      o.op === 'is'
        ? "op 'is' takes one brand name as value"
        : `op '${String(o.op)}' takes a non-empty list of brand names as value`;
    return { selector: null, issues: [valueError([...loc, 'value'], msg, o.value)] };
  }
  return {
    selector: null,
    issues: [valueError(loc, 'assets must be a brand name, a list of names, or {op, value}', input)],
  };
}

function metricsOf(req: VisibilityRequest): Metric[] {
  return req.metrics ? [...new Set(req.metrics)] : [...metricNames];
}

function sortOf(req: VisibilityRequest): { field: Metric; dir: 'asc' | 'desc' } {
  const metrics = metricsOf(req);
  const field = (req.sort?.field ??
    (metrics.includes('visibility_score') ? 'visibility_score' : metrics[0]!)) as Metric;
  return { field, dir: req.sort?.dir ?? bestFirst[field] };
}

export const visibilityReport = v2Report<VisibilityRequest, VisibilityPlan, z.input<typeof schema>>({
  id: 'visibility.v2',
  path: '/v2/reports/visibility',
  streamPath: '/v2/reports/visibility/stream',
  name: 'visibility',
  summary: 'Brand visibility: visibility score, share of voice and average position, ranked',
  tags: ['Reports v2'],
  schema,
  read(req, ctx) {
    const assets = readAssets(req.assets);
    const filter = readFilter(req.filter, promptFilterFields);
    const issues = [
      ...checkWindow(req),
      ...checkUnique(req.group_by, 'group_by'),
      ...checkUnique(req.metrics, 'metrics'),
      ...assets.issues,
    ];
    if (req.sort && !metricsOf(req).includes(req.sort.field as Metric)) {
      issues.push(
        valueError(
          ['body', 'sort', 'field'],
          `sort.field must name a requested metric: ${metricsOf(req).join(', ')}`,
          req.sort.field,
        ),
      );
    }
    refuseIssues([...issues, ...filter.issues]);
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      groupBy: req.group_by ?? [],
      interval: req.interval ?? 'day',
      metrics: metricsOf(req),
      scope: req.scope ?? 'owned',
      assets: assets.selector,
      sort: sortOf(req),
      filter: filter.node,
    };
  },
  rollups: (plan) => {
    const use = visibilityRollupsFor(plan);
    return use ? [...new Set([use.rows.def, use.models.def])].map((def) => ({ def, scopeId: plan.categoryId })) : [];
  },
  paging: cursorPaging(10),
  compile: compileVisibility,
  byDate: {
    // A filled or compared answer's groups depend on the keys seen over the whole window, so it is read by units, not by date windows.
    order: (plan) => (plan.groupBy[0] === 'date' && !plan.fill && !plan.compare ? plan.interval : null),
    window: (plan) => ({ startDate: plan.startDate, endDate: plan.endDate }),
    within: (plan, start, end) => ({ ...plan, startDate: start, endDate: end }),
  },
  components: (plan) => ({ ...plan, components: true }),
  compare: (plan, spec) => ({ ...plan, compare: comparedDates(plan, spec, maxWindowDays) }),
  fill(plan) {
    if (!plan.groupBy.includes('date'))
      throw ValidationError.of(['query', 'fill'], "fill needs the date group: add 'date' to group_by", 'zero');
    return { ...plan, fill: true };
  },
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      scope: plan.scope,
      models: page.sqlInfo.models ?? [],
      start_date: plan.startDate,
      end_date: plan.endDate,
      asset_filter: plan.assets,
      filter: echoFilter(plan.filter),
      ...(plan.compare ? { compare: { start_date: plan.compare.startDate, end_date: plan.compare.endDate } } : {}),
    };
  },
});
