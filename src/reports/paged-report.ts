import type { z } from 'zod';
import { ForbiddenError, NotFoundError, valueError, type ValidationIssue } from '../errors.ts';
import type { RollupDef } from '../engine/rollups.ts';
import type { CompareSpec } from './extensions/compare-window.ts';
import type { AnswerColumns } from './extensions/compared-answer.ts';
import type { DateSpan } from './extensions/compared-dates.ts';
import type { OwnedKind } from '../engine/tenant-catalog.ts';
import type { Fragment } from '../query/sql.ts';
import type { CallContext } from './endpoint.ts';
import type { ShapedReport } from './rows-query.ts';
import type { DateOrder, DateWindow } from './stream-slices.ts';

export type Mode = 'page' | 'stream';

export interface Paging {
  readonly limit: number;
  readonly cursor: string | null;
  readonly maxResults: number | null;
}

export interface PageFacts {
  /** Page units in the whole result. */
  readonly total: number;
  /** Page units on this page (or in the stream). */
  readonly count: number;
  /** Rows on this page (or in the stream). */
  readonly rows: number;
  readonly nextCursor: string | null;
  readonly cursor: string | null;
  readonly limit: number;
  /** The `info` JSON the report's SQL computed. */
  readonly sqlInfo: Record<string, unknown>;
}

/**
 * A limit that depends on the data, checked with one scalar query after the plan and before the report
 * runs (and before a stream sends anything): `refuse` turns the value into a 422, or null to go on.
 */
export interface DataGuard {
  readonly query: Fragment;
  refuse(value: unknown): ValidationIssue | null;
}

/** Another path serving the same report (same request, same cursors). */
export interface ReportAlias {
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
}

/** A v2 report with `{info, data}` pages and an SSE stream. Everything that differs between reports is here. */
/** `In`: the body a caller writes (the schema's input, before defaults), which the library's types take. */
export interface PagedReport<Req, Plan, In = unknown> {
  readonly id: string;
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly aliases?: readonly ReportAlias[];
  readonly schema: z.ZodType<Req, In>;
  /** Semantic checks after the schema: filter fields, combinations. Locations start with `body`. */
  check(req: Req, mode: Mode): ValidationIssue[];
  /** The tenant objects the request names, checked before any data is read. */
  owned(req: Req): readonly { kind: OwnedKind; id: string }[];
  paging(req: Req, mode: Mode): Paging;
  /** Pure: the same request, org and clock give the same plan. */
  plan(req: Req, ctx: { organizationId: string; now: Date }): Plan;
  /** A rollup that could answer this plan, when its shape allows; the engine checks it is current before compiling. */
  /** The rollups that together could answer this plan, when its shape allows; the engine checks each is current before compiling. */
  rollups?(plan: Plan): readonly { readonly def: RollupDef; readonly categoryId: string }[];
  /** Pure. `rollups` names the rollups found current for this plan: the SQL may read them instead of the facts. */
  compile(plan: Plan, rollups: ReadonlySet<string>): ShapedReport;
  guards?(plan: Plan): readonly DataGuard[];
  /**
   * An answer that leads with the date can be streamed one window of days at a time: `order` says how
   * it leads (a calendar bucket ascending, or newest first), or null when it does not; `within` is the
   * same plan over a part of its window.
   */
  readonly byDate?: {
    order(plan: Plan): DateOrder | null;
    window(plan: Plan): DateWindow;
    within(plan: Plan, start: string, end: string): Plan;
  };
  info(plan: Plan, page: PageFacts): Record<string, unknown>;
  /**
   * The components extension, where the report's ratios have parts: the ratios, and the plan asking
   * for their numerators and denominators (the row gains `<ratio>_numerator`, `<ratio>_denominator`).
   */
  readonly components?: { readonly ratios: readonly string[]; plan(plan: Plan): Plan };
  /** The fill extension, where the report can fill date buckets: the plan asking for it, or a 422 at `["query", "fill"]`. */
  fill?(plan: Plan): Plan;
  /** The compare extension: the plan answering beside the compared window, or a 422 at `["query", "compare"]`. */
  compare?(plan: Plan, spec: CompareSpec): Plan;
  /**
   * What identifies and measures the answer's rows, and its window: a report that declares it (and no
   * `compare` or `fill` of its own) takes both over whole answers (src/reports/extensions/answer-extensions.ts).
   */
  readonly answer?: {
    /** How a request gets the date dimension, for fill's refusal without it (or why it never has one). */
    readonly dated: string;
    /** The columns, or why an extension does not apply to this plan (a 422 at its query parameter). */
    columns(plan: Plan): AnswerColumns | ((extension: 'fill' | 'compare') => string);
    window(plan: Plan): DateSpan;
    within(plan: Plan, span: DateSpan): Plan;
  };
}

/** Refuses request fields a mode does not take (a stream that rejects `limit` rather than ignoring it). */
export function refuseFields(req: object, fields: readonly string[], why: string): ValidationIssue[] {
  const given = req as Record<string, unknown>;
  return fields
    .filter((f) => given[f] !== undefined && given[f] !== null)
    .map((f) => valueError(['body', f], `${f} ${why}`, given[f]));
}

/** Refuses an object of another organization (403) or of none (404), before anything is read. */
export function authorize(ctx: CallContext, objects: readonly { kind: OwnedKind; id: string }[]): void {
  for (const { kind, id } of objects) {
    const owner = ctx.core.catalog.ownerOf(kind, id);
    if (owner === undefined) throw new NotFoundError(`${kind} ${id} not found`);
    if (owner !== ctx.organizationId) throw new ForbiddenError(`this API key has no access to ${kind} ${id}`);
  }
}
