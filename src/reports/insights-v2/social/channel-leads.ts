import { sql, type Fragment } from '../../../query/sql.ts';
import type { LeadField } from './ranked-leads.ts';

/** What a channels row ranks (and pages by). */
export type Lead = 'channel' | 'video_category' | 'source_type';

/** The ranked entity: its key, the name it is ordered by after its count, its other columns and its row fields. */
export const channelLeads: Record<
  Lead,
  { key: Fragment; label: Fragment; aggregates: Fragment; fields: Record<string, LeadField> }
> = {
  channel: {
    key: sql`channel_id`,
    label: sql`title`,
    aggregates: sql`min(channel_title) AS title, min(channel_handle) AS handle, min(channel_url) AS url, `,
    fields: {
      name: { name: 'name', expr: sql`l.title`, type: 'text', repeats: true },
      handle: { name: 'handle', expr: sql`l.handle`, type: 'text', repeats: true },
      url: { name: 'url', expr: sql`l.url`, type: 'text', repeats: true },
    },
  },
  video_category: {
    key: sql`video_category`,
    label: sql`lead_key`,
    aggregates: sql``,
    fields: { name: { name: 'name', expr: sql`l.lead_key`, type: 'text', repeats: true } },
  },
  source_type: {
    key: sql`source_type`,
    label: sql`lead_key`,
    aggregates: sql``,
    fields: { source_type: { name: 'source_type', expr: sql`l.lead_key`, type: 'text', repeats: true } },
  },
};
