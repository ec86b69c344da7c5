import { ValidationError, valueError, type ValidationIssue } from '../errors.ts';
import { ownsCategory } from './core/authorize.ts';
import { cursorFraming } from './core/cursor-framing.ts';
import { defineReport, identityOf, type Report } from './core/report.ts';
import { withAnswerExtensions } from './extensions/answer-extensions.ts';
import type { V2Declaration } from './v2-declaration.ts';

export type { ByDate, PageFacts, Paging } from './core/cursor-framing.ts';
export type { DataGuard, Mode, ReportAlias } from './core/report.ts';
export type { V2Declaration } from './v2-declaration.ts';

/** The one report declaration of a v2 report: cursor framing, the category's owner, its rewrites. */
export function v2Report<Req, Plan extends { readonly categoryId: string }, In>(
  declared: V2Declaration<Req, Plan, In>,
): Report<Req, Plan, In> {
  const d = withAnswerExtensions(declared);
  return defineReport<Req, Plan, In>({
    ...identityOf(d),
    read: d.read,
    authorize: ownsCategory,
    rewrites: {
      ...(d.fill ? { fill: d.fill } : {}),
      ...(d.compare ? { compare: d.compare } : {}),
      ...(d.components ? { components: d.components } : {}),
    },
    ...(d.rollups ? { rollups: d.rollups } : {}),
    compile: d.compile,
    ...(d.guards ? { guards: d.guards } : {}),
    framing: cursorFraming({ paging: d.paging, info: d.info, ...(d.byDate ? { byDate: d.byDate } : {}) }),
  });
}

/** Semantic issues after the schema, thrown all at once. */
export function refuseIssues(issues: readonly ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationError([...issues]);
}

/** Refuses request fields a mode does not take (a stream that rejects `limit` rather than ignoring it). */
export function refuseFields(req: object, fields: readonly string[], why: string): ValidationIssue[] {
  const given = req as Record<string, unknown>;
  return fields
    .filter((f) => given[f] !== undefined && given[f] !== null)
    .map((f) => valueError(['body', f], `${f} ${why}`, given[f]));
}
