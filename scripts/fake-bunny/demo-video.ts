// The demo's lesson video at the fake host (npm start): Escola Demo's "Fórmulas básicas", a clip ffmpeg
// makes itself, encoded once on the first start and kept with the fake's files. streamDemoLesson (below,
// run by scripts/start.mjs) points the lesson at it, so the demo's uploaded lesson streams.
import { createHmac } from 'node:crypto';

export const DEMO_VIDEO = {
  guid: 'b0000000-0000-4000-8000-0000000000b1',
  title: 'Fórmulas básicas',
  /** Escola Demo: its collection is named by its id, as bunny.ts names every school's. */
  schoolId: '5c000000-0000-4000-8000-000000000001',
};

/** Escola Demo's uploaded lesson, "Fórmulas básicas", and the Storage file the seed gives it. */
const DEMO_LESSON = {
  id: 'e0000000-0000-4000-8000-000000000003',
  seedFile: '5c000000-0000-4000-8000-000000000001/c0000000-0000-4000-8000-000000000001/e0000000-0000-4000-8000-000000000003/formulas-basicas.mp4',
};

/**
 * `npm start`, once the fake host is up: the demo's uploaded lesson streams DEMO_VIDEO from it. The seed
 * cannot say so (tests use it without a host), so this points the lesson at the host while it still has
 * the seed's Storage file (a lesson the developer changed is left alone). Until the lesson's row is
 * ready, it then calls video-webhook as the host does (signed with the library's key), and the function
 * writes the row from the host's status as for any upload: the demo's encoding may have finished before
 * the lesson pointed at it, and an encoding a stop cut short is encoded again (a failed row is reset).
 */
export async function streamDemoLesson({ apiUrl, serviceRoleKey, keys }: { apiUrl: string; serviceRoleKey: string; keys: { libraryId: string; readOnlyApiKey: string } }) {
  const rest = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${apiUrl}/rest/v1/${path}`, {
      ...init,
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json', Prefer: 'return=representation', ...init.headers },
    });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>[];
  };
  const lesson = `lesson_id=eq.${DEMO_LESSON.id}`;
  const [contents] = await rest(`lesson_contents?select=video_url&${lesson}`);
  if (contents?.video_url === DEMO_LESSON.seedFile) {
    await rest('lesson_videos', {
      method: 'POST',
      body: JSON.stringify({ lesson_id: DEMO_LESSON.id, school_id: DEMO_VIDEO.schoolId, host: 'bunny', host_video_id: DEMO_VIDEO.guid }),
    });
    await rest(`lesson_contents?${lesson}`, { method: 'PATCH', body: JSON.stringify({ video_url: 'video-host' }) });
  }
  const [row] = await rest(`lesson_videos?select=status&${lesson}&host_video_id=eq.${DEMO_VIDEO.guid}`);
  if (!row || row.status === 'ready') return;
  if (row.status === 'failed') await rest(`lesson_videos?${lesson}`, { method: 'PATCH', body: JSON.stringify({ status: 'waiting', percent: 0, failure_reason: null }) });
  const body = JSON.stringify({ VideoLibraryId: Number(keys.libraryId), VideoGuid: DEMO_VIDEO.guid, Status: 3 });
  const res = await fetch(`${apiUrl}/functions/v1/video-webhook`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-BunnyStream-Signature-Version': 'v1',
      'X-BunnyStream-Signature-Algorithm': 'hmac-sha256',
      'X-BunnyStream-Signature': createHmac('sha256', keys.readOnlyApiKey).update(body).digest('hex'),
    },
    body,
  });
  if (!res.ok) throw new Error(`video-webhook: ${res.status} ${await res.text()}`);
}
