// The demo's lesson video at the fake host (npm start): Escola Demo's "Fórmulas básicas", a clip ffmpeg
// makes itself, encoded once on the first start and kept with the fake's files. A seed row pointing the
// lesson at it (lesson_videos.host_video_id = DEMO_VIDEO.guid) makes the demo's uploaded lesson stream.
export const DEMO_VIDEO = {
  guid: 'b0000000-0000-4000-8000-0000000000b1',
  title: 'Fórmulas básicas',
  /** Escola Demo: its collection is named by its id, as bunny.ts names every school's. */
  schoolId: '5c000000-0000-4000-8000-000000000001',
};
