import type { Answer, BenchRequest, OldFloor, IterationParams } from './case.ts';
import { addDays } from './dataset.ts';
import type { Envelope } from './floor.ts';

export type Body = Record<string, unknown>;

/** One request of a report's mix, before its floor: the body fields past the window, and how it is read. */
export interface RequestSpec {
  readonly id: string;
  readonly label: string;
  readonly days: number;
  /** Body fields besides the window (group_by, filter, limit, pagination, …). */
  readonly body?: Body;
  readonly page?: number;
  readonly firstPageOf?: string;
  readonly stream?: boolean;
  readonly windowSeries?: boolean;
}

export interface ReportShape {
  /** The window (and category, brand or domain) of an iteration, as the report's body fields. */
  window(p: IterationParams): Body;
  /** The engine's answer for a page body or a stream's result events. */
  answer(kind: 'page' | 'stream'): (json: unknown) => Answer;
  /** Units per page from a body. */
  limit(body: Body): number;
  /** A stream's row cap from a body, if any. */
  cap?(body: Body): number | undefined;
  /** Fields whose presence makes a request grouped. */
  readonly groupFields: readonly string[];
  /** Fields whose presence makes a request filtered. */
  readonly filterFields: readonly string[];
}

const present = (v: unknown) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);

/** Builds a report's requests: `floor` gets the envelope (page or stream, limit, page number) the request reads. */
export function requestMaker(shape: ReportShape) {
  return (spec: RequestSpec, floor: (e: Envelope) => OldFloor): BenchRequest => {
    const extra = spec.body ?? {};
    const kind = spec.stream ? 'stream' : 'page';
    const cap = shape.cap?.(extra);
    const envelope: Envelope = { kind, limit: shape.limit(extra), page: spec.page ?? 1, ...(cap ? { cap } : {}) };
    return {
      id: spec.id,
      label: spec.label,
      kind,
      windowDays: spec.days,
      grouped: shape.groupFields.some((f) => present(extra[f])),
      filtered: shape.filterFields.some((f) => present(extra[f])),
      page: spec.page ?? 1,
      ...(spec.firstPageOf ? { firstPageOf: spec.firstPageOf } : {}),
      windowSeries: spec.windowSeries ?? false,
      body: (p) => ({ ...shape.window(p), ...extra }),
      oldFloor: floor(envelope),
      engineAnswer: shape.answer(kind),
    };
  };
}

/** The window series: the same request over 1, 7, 30, 90 and 365 days. */
export const windowDays = [1, 7, 30, 90, 365] as const;

/** v2 windows are inclusive ET dates. */
export const v2Window = (p: IterationParams): Body => ({
  category_id: p.categoryId,
  start_date: p.startDate,
  end_date: p.endDate,
});

/** v1 Insights windows are `[start_date, end_date)`: the same days end the day after. */
export const v1Window = (p: IterationParams): Body => ({
  category_id: p.categoryId,
  start_date: p.startDate,
  end_date: addDays(p.endDate, 1),
});

/** Traffic windows name a domain of the organization, `[start_date, end_date)`. */
export const trafficWindow = (p: IterationParams): Body => ({
  domain: p.domain,
  start_date: p.startDate,
  end_date: addDays(p.endDate, 1),
});
