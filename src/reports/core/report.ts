import type { z } from 'zod';
import type { ValidationIssue } from '../../errors.ts';
import type { RollupDef } from '../../engine/rollups.ts';
import type { Fragment } from '../../query/sql.ts';
import type { CallContext, Endpoint, RollupChoice, RowsResult, Statement } from '../endpoint.ts';
import type { CompareSpec } from '../extensions/compare-window.ts';
import type { ShapedReport } from '../rows-query.ts';

export type Mode = 'page' | 'stream';

/** What a plan may depend on besides the request: who asks, and the clock reading of the request. */
export interface ReadContext {
  readonly organizationId: string;
  readonly now: Date;
}

/** A rollup that could answer a plan, for one scope (a category or an organization). */
export interface RollupUse {
  readonly def: RollupDef;
  readonly scopeId: string;
}

/**
 * The rollups a plan may read: each entry is one rollup, read when current, or alternatives best first,
 * of which the first current one is read (a later one is asked only when those before it are not current).
 */
export type RollupOptions = readonly (RollupUse | readonly RollupUse[])[];

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

/**
 * The rewrite steps a report takes: each turns a plan into the plan that answers with the extension
 * (docs/extensions.md), or refuses it with a 422 at `["query", <extension>]`.
 */
export interface Rewrites<Plan> {
  fill?(plan: Plan): Plan;
  compare?(plan: Plan, spec: CompareSpec): Plan;
  components?(plan: Plan): Plan;
}

/** A request carried through the pipeline (src/reports/core/prepare.ts) up to its compiled SQL. */
export interface Prepared<Req, Plan> {
  readonly req: Req;
  readonly mode: Mode;
  /** The plan as read from the request, before any rewrite. */
  readonly read: Plan;
  /** The plan after the rewrite steps: the one compiled and framed. */
  readonly plan: Plan;
  readonly compiled: ShapedReport;
  /** The rollups found current, which every statement of the request may read. */
  readonly rollups: ReadonlySet<string>;
  readonly choice: RollupChoice;
}

/** A prepared request framed: what its answer's fingerprint hashes, the statements it sends, and its reading. */
export interface Framed {
  readonly normalized: unknown;
  readonly statements: readonly Statement[];
  run(): Promise<RowsResult>;
}

/**
 * How answers are framed: the v2 `{info, data}` with a cursor and a summary-then-results stream, or the
 * v1 `{info: {total_rows, …}, data}` with an offset and a `{query, total_rows}`-then-rows stream.
 */
export interface Framing<Req, Plan> {
  /** What the stream endpoint's summary adds. */
  readonly streamSummary: string;
  page(report: Report<Req, Plan>, p: Prepared<Req, Plan>, ctx: CallContext): Framed;
  stream(report: Report<Req, Plan>, p: Prepared<Req, Plan>, ctx: CallContext): Framed;
}

/** What a report is called and where it is served: the same fields in every family's declaration. */
export interface ReportIdentity<Req, In> {
  readonly id: string;
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly aliases?: readonly ReportAlias[];
  readonly deprecated?: boolean;
  readonly successor?: string;
  readonly sunset?: Endpoint['sunset'];
  readonly schema: z.ZodType<Req, In>;
}

/** The identity fields of a family's declaration, for its `Report`. */
export function identityOf<Req, In>(d: ReportIdentity<Req, In>): ReportIdentity<Req, In> {
  const { id, path, streamPath, name, summary, tags, aliases, deprecated, successor, sunset, schema } = d;
  return {
    id,
    path,
    streamPath,
    name,
    summary,
    tags,
    ...(aliases ? { aliases } : {}),
    ...(deprecated ? { deprecated } : {}),
    ...(successor ? { successor } : {}),
    ...(sunset ? { sunset } : {}),
    schema,
  };
}

/**
 * A report, declared once: what it is called and where it is served, the request it takes, how it reads
 * that request into a plan, whom it belongs to, the rewrites it takes, the rollups and SQL that answer
 * it, and how its answer is framed. `In` is the body a caller writes (the schema's input, before
 * defaults), which the library's types take. One pipeline (src/reports/core/prepare.ts) prepares every
 * report, and `reportEndpoints` serves it.
 */
export interface Report<Req, Plan, In = unknown> extends ReportIdentity<Req, In> {
  /** Pure: the request read into a plan once, or a ValidationError naming every bad field. */
  read(req: Req, ctx: ReadContext, mode: Mode): Plan;
  /** Refuses objects of another organization (403) or of none (404), before any fact is read. */
  authorize(plan: Plan, ctx: CallContext): void | Promise<void>;
  readonly rewrites: Rewrites<Plan>;
  /** The rollups that could answer this plan; the pipeline asks which are current. */
  rollups?(plan: Plan): RollupOptions;
  /** Pure. `rollups` names the rollups found current for this plan: the SQL may read them instead of the facts. */
  compile(plan: Plan, rollups: ReadonlySet<string>): ShapedReport;
  guards?(plan: Plan): readonly DataGuard[];
  readonly framing: Framing<Req, Plan>;
}

/** Declares a report (the types are inferred from the declaration). */
export const defineReport = <Req, Plan, In>(report: Report<Req, Plan, In>): Report<Req, Plan, In> => report;
