// `npx tsx scripts/fake-bunny/main.ts`: the fake Bunny Stream as its own process (npm start runs it).
// FAKE_BUNNY_PORT (default 54349), FAKE_BUNNY_DATA_DIR (default .local-supabase/fake-bunny, beside the
// backend's data, so lesson videos outlive a restart) and FAKE_BUNNY_WEBHOOK_URL (default the local
// backend's video-webhook function). Its keys are FAKE_BUNNY_KEYS', the ones `npm start` hands the
// functions as BUNNY_* secrets.
import path from 'node:path';
import { FAKE_BUNNY_KEYS } from './keys.ts';
import { startFakeBunny } from './server.ts';

const fake = await startFakeBunny({
  ...FAKE_BUNNY_KEYS,
  port: Number(process.env.FAKE_BUNNY_PORT || 54349),
  dataDir: process.env.FAKE_BUNNY_DATA_DIR || path.join(import.meta.dirname, '..', '..', '.local-supabase', 'fake-bunny'),
  webhookUrl: process.env.FAKE_BUNNY_WEBHOOK_URL || 'http://localhost:54321/functions/v1/video-webhook',
  log: (line) => console.error(line),
});
console.log(`fake-bunny ready on ${fake.url}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
