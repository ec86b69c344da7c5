import { daySql } from './days.ts';
import type { FloorRollup } from './types.ts';

/**
 * The visibility rollups (v2 and v1 read them): per grain, the answers and each brand's mentions and
 * position sum, over the prompts carrying the visibility type when built.
 */
export const visibilityPrompts = `JOIN prompts p ON p.id = f.prompt_id AND list_contains(p.analysis_types, 'visibility')`;

export const grains = {
  dm: {
    cols: { model: 'f.model_id::floor_model' },
    label: 'model',
    readBy:
      'visibility window series, date-30, date-model-30(-p50), week-365, stream-date-model-365; visibility-v1 window series, date-model-brand-30-1k',
  },
  dmr: {
    cols: { model: 'f.model_id::floor_model', region: 'f.region_id::floor_region' },
    label: 'model × region',
    readBy: 'visibility model-filter-90 (and its models for topic-filter-365); visibility-v1 owned-region-90',
  },
  drt: {
    cols: { region: 'f.region_id::floor_region', topic: 'p.topic_id::floor_topic' },
    label: 'region × topic (the prompt’s topic when built)',
    readBy: 'visibility topic-filter-365',
  },
  dp: {
    cols: { prompt: 'f.prompt_id::floor_prompt' },
    label: 'prompt',
    readBy: 'visibility stream-date-prompt-30; visibility-v1 prompt × date × brand pages and stream',
  },
} as const;
export type Grain = keyof typeof grains;

/** The answers and mentions rollups of a grain (v1 visibility reads the same ones). */
export function visibilityRollups(grain: Grain): FloorRollup[] {
  const keys = Object.entries(grains[grain].cols)
    .map(([name, expr]) => `${expr} AS ${name}`)
    .join(', ');
  const label = grains[grain].label;
  return [
    {
      name: `floor_vis_answers_${grain}`,
      readBy: grains[grain].readBy,
      grain: `category × day × ${label}`,
      measures: 'answers',
      source: 'executions of the prompts carrying the visibility type',
      sql: `SELECT f.category_id, ${daySql('f.day')} AS d, ${keys}, count(*)::INTEGER AS n FROM executions f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
    },
    {
      name: `floor_vis_mentions_${grain}`,
      readBy: grains[grain].readBy,
      grain: `category × day × ${label} × brand`,
      measures: 'mentions, position sum',
      source: 'mentions of the prompts carrying the visibility type',
      sql: `SELECT f.category_id, ${daySql('f.day')} AS d, ${keys}, f.asset_id::floor_asset AS asset, count(*)::INTEGER AS n, sum(f.position)::DOUBLE AS pos FROM mentions f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
    },
  ];
}
