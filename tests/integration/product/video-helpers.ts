// What the video-*.test.ts files share: calling the video functions and reading their answers, a lesson
// with a ready hosted video, and a stand-in for Bunny Stream's API (the adapter's real code runs in the
// functions against it; scripts/fake-bunny replaces it once its harness option lands).
import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Backend } from '../harness.ts';

export const LIBRARY_ID = '4242';
const API_KEY = 'bunny-api-key-de-teste';
const WEBHOOK_SECRET = 'bunny-webhook-secret-de-teste';

export interface StubVideo {
  title: string;
  collectionId: string | null;
  /** Bunny's video status: 0 created, 3 transcoding, 4 finished, 5 error. */
  status: number;
  encodeProgress: number;
  availableResolutions: string | null;
  length: number;
}

export interface BunnyStub {
  url: string;
  videos: Map<string, StubVideo>;
  deleted: string[];
  close(): Promise<void>;
}

/** Bunny Stream's API as the adapter calls it: collections, create, read and delete videos. */
export async function startBunnyStub(): Promise<BunnyStub> {
  const videos = new Map<string, StubVideo>();
  const collections: { guid: string; name: string }[] = [];
  const deleted: string[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (req.headers.accesskey !== API_KEY) return send(401, { Message: 'Unauthorized' });
      const url = new URL(req.url ?? '/', 'http://stub');
      const m = /^\/library\/([^/]+)\/(collections|videos)(?:\/([^/]+))?$/.exec(url.pathname);
      if (!m || m[1] !== LIBRARY_ID) return send(404);
      const [, , kind, id] = m;
      const body = raw ? (JSON.parse(raw) as Record<string, string>) : {};
      if (kind === 'collections') {
        if (req.method === 'GET') return send(200, { items: collections.filter((c) => c.name.includes(url.searchParams.get('search') ?? '')) });
        if (req.method === 'POST') {
          const c = { guid: randomUUID(), name: body.name! };
          collections.push(c);
          return send(200, c);
        }
        return send(200, {});
      }
      if (req.method === 'POST' && !id) {
        const guid = randomUUID();
        videos.set(guid, { title: body.title!, collectionId: body.collectionId ?? null, status: 0, encodeProgress: 0, availableResolutions: null, length: 0 });
        return send(200, { guid, videoLibraryId: Number(LIBRARY_ID), ...videos.get(guid) });
      }
      const video = id ? videos.get(id) : undefined;
      if (!video) return send(404);
      if (req.method === 'DELETE') {
        videos.delete(id!);
        deleted.push(id!);
        return send(200, { success: true });
      }
      return send(200, { guid: id, videoLibraryId: Number(LIBRARY_ID), thumbnailFileName: null, ...video });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    videos,
    deleted,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The function secrets of a platform whose video host is the stub. */
export function bunnySecrets(apiUrl: string): Record<string, string> {
  return {
    VIDEO_HOST: 'bunny',
    BUNNY_API_URL: apiUrl,
    BUNNY_LIBRARY_ID: LIBRARY_ID,
    BUNNY_API_KEY: API_KEY,
    BUNNY_CDN_HOST: 'http://127.0.0.1:9',
    BUNNY_TOKEN_KEY: 'bunny-token-key-de-teste',
    BUNNY_TUS_URL: `${apiUrl}/tusupload`,
    BUNNY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  };
}

/** A webhook call as Bunny signs it (or with `secret`, as a forger would). */
export function bunnyWebhook(guid: string, status: number, secret = WEBHOOK_SECRET): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ VideoLibraryId: Number(LIBRARY_ID), VideoGuid: guid, Status: status });
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-BunnyStream-Signature-Version': 'v1',
      'X-BunnyStream-Signature': createHmac('sha256', secret).update(body).digest('hex'),
    },
  };
}

/** Makes the lesson play a ready hosted video (as video-upload then a ready webhook would); its host id. */
export async function hostedLesson(backend: Backend, lessonId: string, guid: string = randomUUID()): Promise<string> {
  await backend.sql(`select public.record_lesson_video_upload($1, 'bunny', $2)`, [lessonId, guid]);
  await backend.sql(`select public.record_lesson_video_status('bunny', $1, 'ready', 100, array['360p', '720p'], 60)`, [guid]);
  return guid;
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** Calls an edge function as `client` and gives its status and JSON body, errors included. */
export async function invoke(client: SupabaseClient, name: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await client.functions.invoke(name, { body: body as Record<string, unknown>, headers });
  const status = r.response?.status ?? 0;
  return { status, body: r.error ? await r.response?.json().catch(() => null) : r.data };
}

/** A POST to a function with exactly these headers (no supabase-js), as an outside system calls it. */
export async function post(backend: Backend, name: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(`${backend.url}/functions/v1/${name}`, { method: 'POST', headers, body });
  return { status: res.status, body: await res.json().catch(() => null) };
}
