import { v2Answer } from './floor.ts';
import { v2Window, type Body, type ReportShape } from './requests.ts';

/** A v2 report's request shape: `limit` units per page (the report's default otherwise), `max_results` caps streams. */
export const v2Shape = (defaultLimit: number, window: ReportShape['window'] = v2Window): ReportShape => ({
  window,
  answer: v2Answer,
  limit: (b: Body) => Number(b.limit ?? defaultLimit),
  cap: (b: Body) => (typeof b.max_results === 'number' ? b.max_results : undefined),
  groupFields: ['group_by'],
  filterFields: ['filter'],
});
