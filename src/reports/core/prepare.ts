import { ValidationError } from '../../errors.ts';
import { parseWith } from '../../query/validation.ts';
import type { CallContext, PrepareOptions, PreparedCall, RollupChoice, Statement } from '../endpoint.ts';
import type { Extensions } from '../extensions/options.ts';
import type { Mode, Prepared, Report, RollupOptions, RollupUse } from './report.ts';

/**
 * The one pipeline every report's request goes through, a step at a time: parse (zod), read the request
 * into a plan, authorize, rewrite (the extensions, each a named step), choose the source (rollups or
 * facts), compile; the report's framing then says what runs and how the answer is framed.
 */

/** A rewrite step: whether a request asks for it, and the plan it gives. */
interface RewriteStep {
  readonly name: 'fill' | 'compare' | 'components';
  rewrite<Plan>(report: Report<unknown, Plan>, plan: Plan, extensions: Extensions): Plan;
}

// Every rewrite only marks what its plan answers with, so their order changes nothing but which refusal comes first.
const rewriteSteps: readonly RewriteStep[] = [
  { name: 'fill', rewrite: (report, plan, x) => (x.fill && report.rewrites.fill ? report.rewrites.fill(plan) : plan) },
  {
    name: 'compare',
    rewrite: (report, plan, x) =>
      x.compare && report.rewrites.compare ? report.rewrites.compare(plan, x.compare) : plan,
  },
  {
    name: 'components',
    rewrite: (report, plan, x) =>
      x.components && report.rewrites.components ? report.rewrites.components(plan) : plan,
  },
];

/** The answer extensions a report takes: those it declares a rewrite for. */
export const takenExtensions = (report: Report<never, never>) =>
  rewriteSteps.map((s) => s.name).filter((n) => report.rewrites[n]);

function parse<Req, Plan>(report: Report<Req, Plan>, body: unknown): Req {
  return parseWith(report.schema, body);
}

function read<Req, Plan>(report: Report<Req, Plan>, req: Req, mode: Mode, ctx: CallContext): Plan {
  return report.read(req, { organizationId: ctx.organizationId, now: ctx.now }, mode);
}

function rewrite<Req, Plan>(report: Report<Req, Plan>, plan: Plan, extensions: Extensions): Plan {
  return rewriteSteps.reduce((p, step) => step.rewrite(report as Report<unknown, Plan>, p, extensions), plan);
}

/** The rollups found current among the plan's options; with `look`, a missing one does not start building. */
function chooseSource<Req, Plan>(
  report: Report<Req, Plan>,
  plan: Plan,
  how: PrepareOptions,
  ctx: CallContext,
): RollupChoice {
  const options: RollupOptions = report.rollups?.(plan) ?? [];
  const lookup = how.lookup;
  const isCurrent = (u: RollupUse) =>
    typeof lookup !== 'string'
      ? lookup.has(u.def.name)
      : lookup === 'use'
        ? ctx.core.rollups.current(u.def, u.scopeId)
        : ctx.core.rollups.isCurrent(u.def, u.scopeId);
  const alternatives = options.map((o): readonly RollupUse[] =>
    'def' in o ? [o as RollupUse] : (o as readonly RollupUse[]),
  );
  const chosen = alternatives.flatMap((list) => list.find(isCurrent) ?? []);
  return {
    candidates: [...new Set(alternatives.flat().map((u) => u.def.name))],
    chosen: [...new Set(chosen.map((u) => u.def.name))],
  };
}

/** Parses, reads, authorizes, rewrites, chooses the source and compiles, reading no data but the authorization's. */
export async function prepare<Req, Plan>(
  report: Report<Req, Plan>,
  body: unknown,
  mode: Mode,
  ctx: CallContext,
  how: PrepareOptions,
): Promise<Prepared<Req, Plan>> {
  const req = parse(report, body);
  const planned = read(report, req, mode, ctx);
  await report.authorize(planned, ctx);
  const plan = rewrite(report, planned, how.extensions);
  const choice = chooseSource(report, plan, how, ctx);
  const rollups = new Set(choice.chosen);
  return { req, mode, read: planned, plan, rollups, choice, compiled: report.compile(plan, rollups) };
}

/** The guards' statements, for explain: they run before the answer's. */
export const guardStatements = <Req, Plan>(report: Report<Req, Plan>, plan: Plan): Statement[] =>
  (report.guards?.(plan) ?? []).map((g) => ({ role: 'guard', queries: () => [g.query] }));

/** Runs the report's data guards; the first refusal is a 422. */
export async function enforceGuards<Req, Plan>(report: Report<Req, Plan>, plan: Plan, ctx: CallContext): Promise<void> {
  for (const guard of report.guards?.(plan) ?? []) {
    const result = await ctx.core.backend.read(guard.query, ctx.signal);
    const issue = guard.refuse(Object.values(result.columns)[0]?.[0]);
    if (issue) throw new ValidationError([issue]);
  }
}

/** A request prepared and framed (see PreparedCall): the guards run first, then the framing's reading. */
export async function prepareCall<Req, Plan>(
  report: Report<Req, Plan>,
  body: unknown,
  mode: Mode,
  ctx: CallContext,
  how: PrepareOptions,
): Promise<PreparedCall> {
  const p = await prepare(report, body, mode, ctx, how);
  const framed = report.framing[mode](report, p, ctx);
  return {
    report: `${report.id} ${mode}`,
    plan: p.plan,
    normalized: framed.normalized,
    statements: [...guardStatements(report, p.plan), ...framed.statements],
    rollups: p.choice,
    run: async () => {
      await enforceGuards(report, p.plan, ctx);
      return framed.run();
    },
  };
}
