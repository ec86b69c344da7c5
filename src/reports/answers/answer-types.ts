import type { FilterEcho, Named, V2Info } from '../answer-types.ts';

/** The prompt answers' rows: every field is present when `include` names it (all of them by default). */

export interface PromptAnswersInfo extends V2Info {
  readonly include: string[];
  readonly filter: FilterEcho | null;
}

export interface PromptAnswerRow {
  readonly run_id?: string;
  /** When the answer was produced, `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly date?: string;
  readonly model?: Named;
  readonly topic?: string | null;
  readonly topic_id?: string | null;
  readonly persona?: string | null;
  readonly region?: string | null;
  readonly tags?: string[];
  readonly prompt?: string;
  readonly prompt_id?: string;
  readonly response?: string | null;
  readonly mentions?: string[];
  readonly citations?: string[];
  readonly search_queries?: string[];
  readonly analysis_types?: string[];
}

export interface PromptAnswersV1Info {
  readonly total_rows: number;
  readonly fingerprint?: string;
}

/** v1: the fields its `include` map turns on (all but `prompt_type` and `themes` by default). */
export interface PromptAnswerV1Row {
  readonly analysis_types?: string[];
  readonly asset?: string | null;
  readonly asset_id?: string | null;
  readonly citations?: string[];
  readonly created_at?: string;
  readonly mentions?: string[];
  readonly model?: string | null;
  readonly model_id?: string;
  readonly persona?: string | null;
  readonly prompt?: string;
  readonly prompt_id?: string;
  readonly prompt_type?: string | null;
  readonly region?: string | null;
  readonly response?: string | null;
  readonly run_id?: string;
  readonly search_queries?: string[];
  readonly search_triggered?: boolean | null;
  readonly sentiment_themes?: { readonly name: string; readonly type: string }[];
  readonly tags?: string[];
  readonly themes?: string[];
  readonly topic?: string | null;
  readonly topic_id?: string | null;
}
