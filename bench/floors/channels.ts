import type { FloorEnv, ReportFloors } from './types.ts';
import { videoPage, videoRollups, videoStream } from './video-platform.ts';

/** Video-platform channels (see video-platform.ts): source types video, short, channel and playlist. */
const sources = ['video', 'short', 'channel', 'playlist'];
const twoModels = (env: FloorEnv) =>
  ` AND model IN (${['ChatGPT', 'Perplexity'].map((n) => `'${env.dims.models[env.dims.modelCode.get(n)!]!.id}'`).join(', ')})`;

export const channelsFloors: ReportFloors = {
  report: 'channels',
  rollups: videoRollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, videoPage({ unit: 'channel', sources })])),
    'channel-model-30': videoPage({ unit: 'channel', sources, cross: 'model' }),
    'channel-type-90': videoPage({ unit: 'channel', sources, cross: 'source_type', limit: 50 }),
    'week-models-90': videoPage({ unit: 'channel', sources, interval: 'week', filter: twoModels }),
    'stream-day-model-365': videoStream({ unit: 'channel', sources, cross: 'model', interval: 'day' }, 4),
  }),
};
