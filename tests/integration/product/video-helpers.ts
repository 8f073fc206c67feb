// What the video-*.test.ts files share: calling the video functions and reading their answers, a lesson
// with a ready hosted video, and Bunny's webhook as the fake Bunny Stream (useBackend({ fakeBunny })) or
// a forger signs it.
import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { SupabaseClient } from '@supabase/supabase-js';
import { FAKE_BUNNY_KEYS } from '../../../scripts/fake-bunny/keys.ts';
import { ANON_KEY, type Backend } from '../harness.ts';

const WEBHOOK_SECRET = FAKE_BUNNY_KEYS.readOnlyApiKey;

/** A webhook call as Bunny signs it (or with `secret`, as a forger would). */
export function bunnyWebhook(guid: string, status: number, secret = WEBHOOK_SECRET): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ VideoLibraryId: Number(FAKE_BUNNY_KEYS.libraryId), VideoGuid: guid, Status: status });
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
  await backend.sql(`select public.record_lesson_video_status('bunny', $1, 'ready', 100, array['240p', '360p', '720p'], 60)`, [guid]);
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

/**
 * Calls an edge function as `client` over a connection from `localAddress` (a loopback address of this
 * machine, 127.x.y.z): the backend takes the viewer's address from the socket, so 127.0.9.5 and 127.0.10.5
 * are two networks (/24) to it, as two homes are.
 */
export async function invokeFrom(
  backend: Backend,
  client: SupabaseClient,
  name: string,
  body: unknown,
  { localAddress, userAgent }: { localAddress: string; userAgent?: string },
): Promise<Answer> {
  const token = (await client.auth.getSession()).data.session?.access_token;
  const url = new URL(`${backend.url}/functions/v1/${name}`);
  return await new Promise<Answer>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: {
          'Content-Type': 'application/json',
          apikey: ANON_KEY,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(userAgent ? { 'User-Agent': userAgent } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
