import type { CompareEcho, ExtensionFields, Named, V2Info } from '../answer-types.ts';
import type { Metric as VisibilityMetric } from './visibility/visibility-plan.ts';
import type { Metric as ShoppingMetric } from './shopping/shopping-plan.ts';

/**
 * The answers of the v2 Insights reports, as the engine sends them (src/reports/report-types.ts maps
 * each report to these). A dimension's field is present when the request groups by it.
 */

/** The prompt-level dimensions' fields: `date` as YYYY-MM-DD, the others `{id, name}` or null. */
interface PromptKeys {
  readonly date?: string;
  readonly model?: Named | null;
  readonly region?: Named | null;
  readonly persona?: Named | null;
  readonly prompt?: Named | null;
  readonly topic?: Named | null;
}

export interface VisibilityInfo extends V2Info {
  readonly scope: 'owned' | 'all';
  readonly asset_filter: { readonly op: 'is' | 'in' | 'not_in'; readonly value: string | string[] } | null;
  readonly compare?: CompareEcho;
}

export type VisibilityRow = PromptKeys &
  ExtensionFields & {
    readonly asset: { readonly name: string; readonly owned: boolean };
    readonly rank: number;
  } & { readonly [M in VisibilityMetric]?: number | null };

export interface ShoppingInfo extends V2Info {
  readonly include_merchants: boolean;
  readonly metrics: string[];
}

export type ShoppingRow = ExtensionFields & { readonly [M in ShoppingMetric]?: number | null } & {
  readonly date?: string;
  readonly topic?: Named | null;
  readonly prompt?: Named | null;
  readonly product: { readonly name: string; readonly brand: string | null };
  /** With `include_merchants`. */
  readonly product_url?: string | null;
  readonly product_image_urls?: string[];
  readonly merchants?: { readonly name: string; readonly price: string | null }[];
};

/** Channels and videos (YouTube and video platforms). */
export interface ChannelsInfo extends V2Info {
  readonly category_id: string;
  readonly cursor?: string;
  readonly limit: number;
  readonly interval: 'day' | 'week' | 'month' | null;
  readonly group_by: string[];
  readonly source_types: string[];
}

export interface ChannelRow {
  /** The channel's title (group_by channel) or the video category. */
  readonly name?: string | null;
  readonly handle?: string | null;
  readonly url?: string | null;
  readonly source_type?: string;
  readonly model?: string;
  readonly date?: string;
  readonly rank: number;
  readonly count: number;
  readonly videos: number;
  readonly citation_share: number | null;
}

export type VideosInfo = ChannelsInfo;

export interface VideoRow {
  readonly name: string | null;
  readonly video_id: string;
  readonly url: string | null;
  readonly channel: string | null;
  readonly handle: string | null;
  readonly video_category: string | null;
  readonly source_type?: string;
  readonly model?: string;
  readonly date?: string;
  readonly rank: number;
  readonly count: number;
  readonly citation_share: number | null;
}

export interface ClaimsInfo extends V2Info {
  readonly group_by: string[];
  readonly include: string[];
}

/** A claim (flat rows, or inside a section's `claims`); the optional fields come with `include`. */
export interface Claim {
  readonly cluster_id: string;
  readonly claim: string;
  readonly occurrence: number;
  readonly theme?: string | null;
  readonly reasoning?: string | null;
  readonly models?: { readonly id: string; readonly name: string; readonly occurrence: number }[];
  readonly evidence?: {
    readonly id: string;
    readonly kb_path: string;
    readonly kb_snippet: string;
    readonly source_updated_at: string | null;
  }[];
  readonly citation_sources?: {
    readonly href: string;
    readonly hostname: string;
    readonly citation_category: string | null;
    readonly domain_category: string | null;
    readonly snippet: string | null;
    readonly citation_share: number;
  }[];
}

/** A section's key: `{id, name}` (id null for a theme or tag known only by name), or null for claims without one. */
export type SectionKey = { readonly id: string | null; readonly name: string } | null;

/** A section of claims, with `group_by: [dim]`: the dimension's key and its accuracy. */
export interface ClaimSection {
  readonly model?: SectionKey;
  readonly region?: SectionKey;
  readonly persona?: SectionKey;
  readonly prompt?: SectionKey;
  readonly topic?: SectionKey;
  readonly tag?: SectionKey;
  readonly theme?: SectionKey;
  readonly accuracy: number | null;
  readonly accurate: number;
  readonly inaccurate: number;
  readonly total_claims: number;
  readonly claims: Claim[];
}

export type ClaimsRow = Claim | ClaimSection;

export interface FactcheckInfo extends V2Info {
  readonly group_by: string[];
}

export type FactcheckRow = PromptKeys &
  ExtensionFields & {
    readonly tag?: Named | null;
    readonly theme?: Named | null;
    readonly citation?: { readonly url: string; readonly citation_category: string | null };
    readonly accuracy: number | null;
    readonly accurate: number;
    readonly inaccurate: number;
  };

export interface CitationsInfo extends V2Info {
  readonly scope: 'owned' | 'all';
  readonly metrics: string[];
  readonly analysis_types: string[];
}

export type CitationsRow = PromptKeys & {
  /** The cited domain (default) or, with `group_by: [page]`, the page. */
  readonly domain?: string;
  readonly page?: string;
  readonly rank?: number;
  readonly count?: number;
  readonly citation_share?: number | null;
  readonly first_cited_at?: string | null;
};

export interface SentimentInfo extends V2Info {
  readonly asset: string;
  readonly source: 'asset' | 'citation';
  readonly metrics: string[];
  readonly group_by: string[];
  readonly comparison_start_date: string | null;
  readonly comparison_end_date: string | null;
}

interface SentimentMetrics {
  readonly positive_sentiment?: number | null;
  readonly negative_sentiment?: number | null;
  readonly occurrence?: number | null;
}

export type SentimentRow = PromptKeys &
  ExtensionFields &
  SentimentMetrics & {
    readonly tag?: Named | null;
    readonly theme?: Named | null;
    readonly claim?: Named | null;
    readonly run?: Named | null;
    readonly competitor?: Named | null;
    /** With `source: citation`: the cited page. */
    readonly page?: string;
    readonly rank: number;
    /** With a comparison window: the same metrics there (null when the window has no row). */
    readonly previous?: SentimentMetrics | null;
    /** With `include_cited_websites`. */
    readonly cited_websites?: string[];
  };

export interface FanoutsInfo extends V2Info {
  readonly metrics: string[];
  readonly group_by: string[];
  readonly analysis_types: string[];
  readonly coverage_note: string;
}

export type FanoutsRow = ExtensionFields & {
  readonly prompt?: string;
  readonly prompt_id?: string;
  readonly query?: string;
  readonly model?: Named | null;
  readonly region?: Named | null;
  readonly date?: string;
  readonly rank: number;
  readonly total_fanouts?: number;
  readonly fanouts_per_execution?: number | null;
  readonly query_variations?: number;
  readonly share?: number | null;
};
