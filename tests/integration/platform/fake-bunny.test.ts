// The video host end to end (issue 39): supabase/functions/_shared/video-host (bunny.ts behind
// videoHost()) in the real functions runtime, against scripts/fake-bunny, which speaks Bunny Stream's API,
// takes the upload over TUS with the presigned headers, really encodes it with ffmpeg into encrypted HLS
// and serves it with Bunny's token rules. Through the fixture function video-host, as the edge functions
// will call it: create in the school's collection, TUS upload, processing → ready with 240p, 360p and 720p, a
// playlist that plays (master → rendition → key → segment that the key decrypts), and what an attacker
// meets: no token, a changed, expired or another video's token, another IP, a forged upload signature, a
// forged webhook; deletion removes the files. The clip is made here with the same ffmpeg (3 s).
import { createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestClip } from '../../../scripts/fake-bunny/encode.ts';
import { FAKE_BUNNY_KEYS } from '../../../scripts/fake-bunny/keys.ts';
import type { VideoStatus, VideoUpload } from '../../../supabase/functions/_shared/video-host/host.ts';
import { ANON_KEY, FIXTURE_FUNCTIONS_DIR, useBackend } from '../harness.ts';

const backend = useBackend({ functionsDir: FIXTURE_FUNCTIONS_DIR, fakeBunny: true });
const bunny = backend.bunny;
const SCHOOL_A = 'a1a1a1a1-0000-4000-8000-00000000000a';
const SCHOOL_B = 'b2b2b2b2-0000-4000-8000-00000000000b';

async function host<T>(op: string, input: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${backend.url}/functions/v1/video-host`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ANON_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ op, ...input }),
  });
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${op}: ${res.status} ${body.error}`);
  return body;
}
const createUpload = (schoolId = SCHOOL_A, title = 'Aula 1') => host<VideoUpload>('createUpload', { schoolId, title, expiresInSeconds: 600 });
const status = (hostVideoId: string) => host<VideoStatus>('status', { hostVideoId });
const playbackUrl = async (hostVideoId: string, o: { expiresInSeconds?: number; viewerIp?: string } = {}) =>
  (await host<{ url: string }>('playbackUrl', { hostVideoId, expiresInSeconds: 300, ...o })).url;

/** The upload as the browser's tus-js-client sends it; rejects with the server's status. */
function upload(file: Buffer, to: VideoUpload, headers: Record<string, string> = to.headers): Promise<void> {
  return new Promise((resolve, reject) => {
    new tus.Upload(file, {
      endpoint: to.endpoint,
      headers,
      metadata: { filetype: 'video/mp4', title: 'Aula 1' },
      chunkSize: 256 * 1024,
      retryDelays: [],
      onSuccess: () => resolve(),
      onError: (e) => reject(Object.assign(e, { status: (e as tus.DetailedError).originalResponse?.getStatus() })),
    }).start();
  });
}

/** GET from a given local address (another viewer on this machine: 127.0.0.2). */
function getFrom(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { localAddress }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

const statusOf = async (url: string) => (await fetch(url)).status;
/** The URL with another file of the same video (the token stays). */
const sibling = (url: string, file: string) => new URL(file, url).toString();

let dir: string;
let clip: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'fake-bunny-test-'));
  const file = path.join(dir, 'aula.mp4');
  await makeTestClip(file, { seconds: 3, width: 1280, height: 720 });
  clip = await readFile(file);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the video host (bunny.ts) against the fake Bunny Stream', () => {
  let video: VideoUpload;
  let other: VideoUpload;

  it('is configured from the function secrets the harness gives', { timeout: 120_000 }, async () => {
    expect(await host('configured')).toEqual({ configured: true });
  });

  it('creates each video in its school’s collection, one collection per school, made on first use', async () => {
    video = await createUpload(SCHOOL_A, 'Aula 1');
    other = await createUpload(SCHOOL_A, 'Aula 2');
    const elsewhere = await createUpload(SCHOOL_B, 'Aula B');
    const collections = bunny.collections();
    expect(collections.map((c) => [c.name, c.videoCount]).sort()).toEqual([
      [SCHOOL_A, 2],
      [SCHOOL_B, 1],
    ]);
    expect(bunny.video(video.hostVideoId)).toMatchObject({ title: 'Aula 1', status: 0, collectionId: collections.find((c) => c.name === SCHOOL_A)!.guid });
    expect(bunny.video(elsewhere.hostVideoId)?.collectionId).toBe(collections.find((c) => c.name === SCHOOL_B)!.guid);
    expect(await status(video.hostVideoId)).toEqual({ state: 'waiting' });
    // What the browser gets: the TUS endpoint and a signature for this video, never the API key.
    expect(video.endpoint).toBe(bunny.tusUrl);
    expect(Object.keys(video.headers).sort()).toEqual(['AuthorizationExpire', 'AuthorizationSignature', 'LibraryId', 'VideoId']);
    expect(JSON.stringify(video)).not.toContain(FAKE_BUNNY_KEYS.apiKey);
  });

  it('refuses a forged, expired or another video’s upload signature; nothing is uploaded', async () => {
    const forged = { ...video.headers, AuthorizationSignature: createHmac('sha256', 'guess').update(video.hostVideoId).digest('hex') };
    await expect(upload(clip, video, forged)).rejects.toMatchObject({ status: 401 });
    const past = String(Math.floor(Date.now() / 1000) - 60);
    const expired = {
      ...video.headers,
      AuthorizationExpire: past,
      AuthorizationSignature: createHash('sha256').update(`${FAKE_BUNNY_KEYS.libraryId}${FAKE_BUNNY_KEYS.apiKey}${past}${video.hostVideoId}`).digest('hex'),
    };
    await expect(upload(clip, video, expired)).rejects.toMatchObject({ status: 401 });
    // Aula 2's signature does not open Aula 1.
    await expect(upload(clip, video, { ...other.headers, VideoId: video.hostVideoId })).rejects.toMatchObject({ status: 401 });
    expect(bunny.video(video.hostVideoId)?.status).toBe(0);
    expect(bunny.webhooks).toEqual([]);
  });

  it('takes the upload over TUS, then processes it into 240p, 360p and 720p and says so by webhook', async () => {
    await upload(clip, video);
    expect(await status(video.hostVideoId)).toMatchObject({ state: 'processing' });
    // The same signature cannot upload a second file over it.
    await expect(upload(clip, video)).rejects.toMatchObject({ status: 409 });
    await bunny.idle();
    const ready = await status(video.hostVideoId);
    expect(ready).toEqual({ state: 'ready', renditions: ['240p', '360p', '720p'], durationSeconds: 3, thumbnailUrl: expect.stringContaining(`/${video.hostVideoId}/thumbnail.jpg`) });
    expect(bunny.video(video.hostVideoId)).toMatchObject({ status: 4, encodeProgress: 100, width: 1280, height: 720, availableResolutions: '240p,360p,720p' });
    // Bunny's webhook codes, in order: upload started, finished, queued, processing, encoding, a
    // resolution finished (each), finished.
    const statuses = bunny.webhooks.map((w) => JSON.parse(w.body) as { VideoGuid: string; Status: number }).filter((w) => w.VideoGuid === video.hostVideoId).map((w) => w.Status);
    expect(statuses).toEqual([6, 7, 0, 1, 2, 4, 4, 4, 3]);
    expect(bunny.webhooks[0]!.url).toBe(`${backend.url}/functions/v1/video-webhook`);
    // The thumbnail is served with its own token.
    const thumbnail = await fetch((ready as { thumbnailUrl: string }).thumbnailUrl);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
  });

  it('plays: master playlist → rendition → key → an encrypted segment the key decrypts; no file of the whole lesson', async () => {
    const url = await playbackUrl(video.hostVideoId);
    const master = await fetch(url);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const masterText = await master.text();
    expect(masterText).toMatch(/RESOLUTION=426x240\n240p\/video\.m3u8/);
    expect(masterText).toMatch(/RESOLUTION=640x360\n360p\/video\.m3u8/);
    expect(masterText).toMatch(/RESOLUTION=1280x720\n720p\/video\.m3u8/);
    for (const rendition of ['240p', '360p', '720p']) {
      const playlist = await (await fetch(sibling(url, `${rendition}/video.m3u8`))).text();
      expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128,URI="video.key"');
      const segments = playlist.split('\n').filter((l) => l.endsWith('.ts'));
      expect(segments.length).toBeGreaterThanOrEqual(2);
      const key = Buffer.from(await (await fetch(sibling(url, `${rendition}/video.key`))).arrayBuffer());
      expect(key).toHaveLength(16);
      const segment = Buffer.from(await (await fetch(sibling(url, `${rendition}/${segments[0]}`))).arrayBuffer());
      // Encrypted: not an MPEG-TS packet as served; one once decrypted (IV = the media sequence, 0).
      expect(segment[0]).not.toBe(0x47);
      const plain = Buffer.concat([createDecipheriv('aes-128-cbc', key, Buffer.alloc(16)).update(segment)]);
      expect(plain[0]).toBe(0x47);
      expect(plain[188]).toBe(0x47);
    }
    // The video's folder holds playlists, segments, keys and the thumbnail: the source is gone, no MP4.
    const files = await listFiles(video.hostVideoId);
    expect(files.filter((f) => !/\.(m3u8|ts|key|jpg)$/.test(f))).toEqual([]);
    expect(files).toContain('playlist.m3u8');
    expect(await statusOf(sibling(url, 'aula.mp4'))).toBe(404);
  });

  it('refuses a URL without token, with a changed token, an expired one, or another video’s token', async () => {
    const url = await playbackUrl(video.hostVideoId);
    expect(await statusOf(url)).toBe(200);
    expect(await statusOf(`${bunny.url}/${video.hostVideoId}/playlist.m3u8`)).toBe(403);
    expect(await statusOf(`${bunny.url}/${video.hostVideoId}/360p/video0.ts`)).toBe(403);
    const token = /bcdn_token=(HS256-[\w-]+)/.exec(url)![1]!;
    const changed = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect(await statusOf(url.replace(token, changed))).toBe(403);
    expect(await statusOf(url.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`))).toBe(403);
    expect(await statusOf(await playbackUrl(video.hostVideoId, { expiresInSeconds: -1 }))).toBe(403);
    // Aula 2's token (its own folder) does not open Aula 1's files, in the token's path or out of it.
    const otherUrl = await playbackUrl(other.hostVideoId);
    expect(await statusOf(otherUrl.replace(`/${other.hostVideoId}/playlist.m3u8`, `/${video.hostVideoId}/playlist.m3u8`))).toBe(403);
    expect(await statusOf(otherUrl.replaceAll(other.hostVideoId, video.hostVideoId))).toBe(403);
    expect(await statusOf(otherUrl.replace('/playlist.m3u8', `/../${video.hostVideoId}/playlist.m3u8`))).toBe(403);
  });

  it('binds the token to the viewer’s IP when given: another address is refused', async () => {
    const mine = await playbackUrl(video.hostVideoId, { viewerIp: '127.0.0.1' });
    expect(await getFrom(mine, '127.0.0.1')).toBe(200);
    expect(await getFrom(sibling(mine, '720p/video.m3u8'), '127.0.0.1')).toBe(200);
    expect(await getFrom(mine, '127.0.0.2')).toBe(403);
    expect(await getFrom(sibling(mine, '720p/video0.ts'), '127.0.0.2')).toBe(403);
    expect(await statusOf(await playbackUrl(video.hostVideoId, { viewerIp: '203.0.113.7' }))).toBe(403);
  });

  it('takes a verified webhook and answers the video’s real status; a forged one is rejected', async () => {
    const real = bunny.webhooks.findLast((w) => w.body.includes(video.hostVideoId))!;
    const verify = (body: string, headers: Record<string, string>) => host<{ hostVideoId: string; status: VideoStatus } | null>('verifyWebhook', { body, headers });
    expect(await verify(real.body, real.headers)).toMatchObject({ hostVideoId: video.hostVideoId, status: { state: 'ready', renditions: ['240p', '360p', '720p'] } });

    // Aula 2 never received a file. A body claiming it finished, with no, a wrong or a reused signature:
    const claim = JSON.stringify({ VideoLibraryId: Number(FAKE_BUNNY_KEYS.libraryId), VideoGuid: other.hostVideoId, Status: 3 });
    const { 'X-BunnyStream-Signature': realSignature, ...unsigned } = real.headers;
    expect(realSignature).toMatch(/^[0-9a-f]{64}$/);
    expect(await verify(claim, unsigned)).toBeNull();
    expect(await verify(claim, { ...real.headers, 'X-BunnyStream-Signature': createHmac('sha256', 'guess').update(claim).digest('hex') })).toBeNull();
    expect(await verify(claim, real.headers)).toBeNull();
    expect(await verify(claim, { ...real.headers, 'X-BunnyStream-Signature-Version': 'v0' })).toBeNull();
    // Even one signed with the library's key (a replay) reports what the API says, not what it claims.
    const signed = { ...real.headers, 'X-BunnyStream-Signature': createHmac('sha256', FAKE_BUNNY_KEYS.readOnlyApiKey).update(claim).digest('hex') };
    expect(await verify(claim, signed)).toEqual({ hostVideoId: other.hostVideoId, status: { state: 'waiting' } });
    // Another library's event, signed, is not ours.
    const foreign = JSON.stringify({ VideoLibraryId: 1, VideoGuid: video.hostVideoId, Status: 3 });
    expect(await verify(foreign, { ...real.headers, 'X-BunnyStream-Signature': createHmac('sha256', FAKE_BUNNY_KEYS.readOnlyApiKey).update(foreign).digest('hex') })).toBeNull();
  });

  it('refuses the API without the library key; the read-only key cannot write', async () => {
    const api = `${bunny.url}/library/${FAKE_BUNNY_KEYS.libraryId}/videos`;
    expect((await fetch(`${api}/${video.hostVideoId}`)).status).toBe(401);
    expect((await fetch(`${api}/${video.hostVideoId}`, { headers: { AccessKey: FAKE_BUNNY_KEYS.readOnlyApiKey } })).status).toBe(200);
    expect((await fetch(`${api}/${video.hostVideoId}`, { method: 'DELETE', headers: { AccessKey: FAKE_BUNNY_KEYS.readOnlyApiKey } })).status).toBe(401);
    expect(bunny.video(video.hostVideoId)).toBeDefined();
  });

  it('resumes an interrupted upload from the offset HEAD reports; a PATCH at another offset is 409', async () => {
    const resumed = await createUpload(SCHOOL_B, 'Aula retomada');
    const tusHeaders = { ...resumed.headers, 'Tus-Resumable': '1.0.0' };
    const metadata = `filetype ${Buffer.from('video/mp4').toString('base64')},title ${Buffer.from('Aula retomada').toString('base64')}`;
    const created = await fetch(resumed.endpoint, { method: 'POST', headers: { ...tusHeaders, 'Upload-Length': String(clip.length), 'Upload-Metadata': metadata } });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const patch = (offset: number, body: Buffer) =>
      fetch(location, { method: 'PATCH', headers: { ...tusHeaders, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(body) });
    const half = Math.floor(clip.length / 2);
    expect((await patch(0, clip.subarray(0, half))).status).toBe(204);
    const head = await fetch(location, { method: 'HEAD', headers: tusHeaders });
    expect([head.status, head.headers.get('upload-offset'), head.headers.get('upload-length')]).toEqual([200, String(half), String(clip.length)]);
    // Without the presigned headers, HEAD and PATCH are refused too.
    expect((await fetch(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })).status).toBe(401);
    expect((await patch(0, clip.subarray(0, half))).status).toBe(409);
    expect((await patch(half, clip.subarray(half))).status).toBe(204);
    await bunny.idle();
    expect(await status(resumed.hostVideoId)).toMatchObject({ state: 'ready', renditions: ['240p', '360p', '720p'], durationSeconds: 3 });
  });

  it('marks a file that is not a video as failed, with the reason', async () => {
    const junk = await createUpload(SCHOOL_A, 'Não é vídeo');
    await upload(randomBytes(64 * 1024), junk);
    await bunny.idle();
    expect(await status(junk.hostVideoId)).toEqual({ state: 'failed', reason: expect.stringContaining('O arquivo não contém um vídeo legível') });
  });

  it('deletes the video: its files are gone, its URLs answer 404, its status says so', async () => {
    const url = await playbackUrl(video.hostVideoId);
    expect(await listFiles(video.hostVideoId)).not.toEqual([]);
    await host('delete', { hostVideoId: video.hostVideoId });
    expect(bunny.video(video.hostVideoId)).toBeUndefined();
    expect(await listFiles(video.hostVideoId)).toEqual([]);
    expect(await statusOf(url)).toBe(404);
    expect(await status(video.hostVideoId)).toEqual({ state: 'failed', reason: 'O vídeo não existe mais no Bunny Stream.' });
    // Deleting again is not an error.
    await host('delete', { hostVideoId: video.hostVideoId });
  });
});

/** Every file of a video at the fake (its data folder is the harness's temporary one). */
async function listFiles(guid: string): Promise<string[]> {
  const root = path.join(bunny.dataDir, 'videos', guid);
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}
