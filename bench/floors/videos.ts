import type { ReportFloors } from './types.ts';
import { videoPage, videoRollups, videoStream } from './video-platform.ts';

/** Video-platform videos (see video-platform.ts): cited videos and shorts. */
const sources = ['video', 'short'];

export const videosFloors: ReportFloors = {
  report: 'videos',
  rollups: videoRollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, videoPage({ unit: 'video', sources })])),
    'page1-90': videoPage({ unit: 'video', sources }),
    'page50-90': videoPage({ unit: 'video', sources, page: 50 }),
    'video-model-30': videoPage({ unit: 'video', sources, cross: 'model' }),
    'stream-video-model-day-365': videoStream({ unit: 'video', sources, cross: 'model', interval: 'day' }, 40),
  }),
};
