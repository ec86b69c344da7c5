import { sql, type Fragment } from '../../../query/sql.ts';
import type { LeadCross } from './ranked-leads.ts';

/** A crossed dimension as a row shows it: its key over `sel`, and the field the row shows (`x` is the cell). */
export type ShownCross = LeadCross & { readonly field: Fragment };

/** The dimensions the channels and videos reports cross their leads with; a model shows, and is ordered by, its name. */
export const leadCrosses = {
  video_category: { key: sql`video_category`, field: sql`x.cross_key` },
  source_type: { key: sql`source_type`, field: sql`x.cross_key` },
  model: {
    key: sql`model_id`,
    field: sql`mo.name`,
    label: sql`mo.name`,
    lookup: sql`LEFT JOIN models mo ON mo.id = x.cross_key`,
  },
} as const satisfies Record<string, ShownCross>;
