import type { FloorRollup } from './types.ts';

/**
 * The traffic rollups: bots and referrals per UTC hour (v2, and any whole-hour zone) and per New York day
 * (v1), and bot visits per minute (raw bot logs).
 */
const nyDay = (ts: string) => `(CAST(timezone('America/New_York', ${ts}) AS DATE) - DATE '1970-01-01')::INTEGER`;
const utcHour = (ts: string) => `floor(epoch(${ts}) / 3600)::INTEGER`;
const botMeasures = `count(*)::INTEGER AS n, (count(*) FILTER (bot_type = 'ai_assistant'))::INTEGER AS assistant,
  (count(*) FILTER (bot_type = 'index'))::INTEGER AS indexing, (count(*) FILTER (bot_type = 'ai_training'))::INTEGER AS training, max(epoch(ts))::INTEGER AS last`;

export const trafficRollups = {
  botsHour: {
    name: 'floor_bots_hour',
    readBy: 'bots v2; raw bot logs window series',
    grain: 'domain × UTC hour × path × bot name (× its provider)',
    measures: 'visits, visits by type (ai_assistant, index, ai_training), latest visit (Unix s)',
    source: 'bot_events',
    sql: `SELECT domain, ${utcHour('ts')} AS h, path::floor_path AS path, bot_name::floor_bot AS bot, bot_provider AS provider, ${botMeasures} FROM bot_events GROUP BY ALL ORDER BY domain, h`,
  },
  botsDay: {
    name: 'floor_bots_day',
    grain: 'domain × America/New_York day × path × bot name (× its provider)',
    measures: 'as floor_bots_hour',
    source: 'bot_events',
    sql: `SELECT domain, ${nyDay('ts')} AS d, path::floor_path AS path, bot_name::floor_bot AS bot, bot_provider AS provider, ${botMeasures} FROM bot_events GROUP BY ALL ORDER BY domain, d`,
  },
  botMinutes: {
    name: 'floor_bot_minutes',
    readBy: 'raw bot logs visits-*',
    grain: 'domain × minute × path × bot name',
    measures: 'visits',
    source: 'bot_events (every host)',
    sql: `SELECT domain, floor(epoch(ts) / 60)::INTEGER AS m, path::floor_path AS path, bot_name::floor_bot AS bot, count(*)::INTEGER AS n FROM bot_events GROUP BY ALL ORDER BY domain, m`,
  },
  referralsHour: {
    name: 'floor_referrals_hour',
    grain: 'domain × UTC hour × path × referral source',
    measures: 'visits, latest visit (Unix s)',
    source: 'referral_visits',
    sql: `SELECT domain, ${utcHour('ts')} AS h, path::floor_path AS path, referral_source::floor_source AS source, count(*)::INTEGER AS n, max(epoch(ts))::INTEGER AS last FROM referral_visits GROUP BY ALL ORDER BY domain, h`,
  },
  referralsDay: {
    name: 'floor_referrals_day',
    grain: 'domain × America/New_York day × path × referral source',
    measures: 'visits, latest visit (Unix s)',
    source: 'referral_visits',
    sql: `SELECT domain, ${nyDay('ts')} AS d, path::floor_path AS path, referral_source::floor_source AS source, count(*)::INTEGER AS n, max(epoch(ts))::INTEGER AS last FROM referral_visits GROUP BY ALL ORDER BY domain, d`,
  },
} satisfies Record<string, FloorRollup>;
