import type { FilterNode } from '../../../query/filter-node.ts';
import type { CalendarInterval } from '../../../query/time.ts';
import type { GroupDimension } from '../../insights/dimensions.ts';

export const metricNames = ['visibility_score', 'share_of_voice', 'average_position'] as const;
export type Metric = (typeof metricNames)[number];

/** Best first: higher visibility and share are better, a lower average position is better. */
export const bestFirst: Record<Metric, 'asc' | 'desc'> = {
  visibility_score: 'desc',
  share_of_voice: 'desc',
  average_position: 'asc',
};

export const groupDims = ['date', 'model', 'topic', 'region', 'prompt', 'persona'] as const;

export interface AssetSelector {
  readonly op: 'is' | 'in' | 'not_in';
  readonly value: string | string[];
}

export interface VisibilityPlan {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly groupBy: readonly GroupDimension[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly Metric[];
  readonly scope: 'owned' | 'all';
  readonly assets: AssetSelector | null;
  readonly sort: { readonly field: Metric; readonly dir: 'asc' | 'desc' };
  readonly filter: FilterNode | null;
  /** The components extension: each ratio's numerator and denominator follow the metrics. */
  readonly components?: boolean;
  /** The fill extension: every date bucket of the window for every other key seen (needs the date group). */
  readonly fill?: boolean;
  /** The compare extension: the compared window, inclusive ET dates like the window's. */
  readonly compare?: { readonly startDate: string; readonly endDate: string };
}
