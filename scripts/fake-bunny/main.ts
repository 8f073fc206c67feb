// `npx tsx scripts/fake-bunny/main.ts`: the fake Bunny Stream as its own process (npm start runs it).
// FAKE_BUNNY_PORT (default 54349), FAKE_BUNNY_DATA_DIR (default .local-supabase/fake-bunny, beside the
// backend's data, so lesson videos outlive a restart) and FAKE_BUNNY_WEBHOOK_URL (default the local
// backend's video-webhook function). Its keys are FAKE_BUNNY_KEYS', the ones `npm start` hands the
// functions as BUNNY_* secrets. On the first start it encodes the demo's video (demo-video.ts).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_VIDEO } from './demo-video.ts';
import { makeTestClip } from './encode.ts';
import { FAKE_BUNNY_KEYS } from './keys.ts';
import { startFakeBunny } from './server.ts';

const dataDir = process.env.FAKE_BUNNY_DATA_DIR || path.join(import.meta.dirname, '..', '..', '.local-supabase', 'fake-bunny');
const fake = await startFakeBunny({
  ...FAKE_BUNNY_KEYS,
  port: Number(process.env.FAKE_BUNNY_PORT || 54349),
  dataDir,
  webhookUrl: process.env.FAKE_BUNNY_WEBHOOK_URL || 'http://localhost:54321/functions/v1/video-webhook',
  log: (line) => console.error(line),
});
console.log(`fake-bunny ready on ${fake.url}`);
if (fake.video(DEMO_VIDEO.guid)?.status !== 4) {
  const clip = path.join(dataDir, 'uploads', 'demo-clip.mp4');
  await makeTestClip(clip, { seconds: 12, width: 1280, height: 720 });
  await fake.seedVideo({ guid: DEMO_VIDEO.guid, title: DEMO_VIDEO.title, collectionName: DEMO_VIDEO.schoolId, source: clip });
  await rm(clip);
  console.error(`demo video ${DEMO_VIDEO.guid} queued for encoding`);
}
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
