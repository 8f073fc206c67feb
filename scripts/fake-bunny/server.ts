// A fake of Bunny Stream for local runs and tests (issue 39): one video library behind one port, speaking
// what supabase/functions/_shared/video-host/bunny.ts calls, and really doing the work:
// - Stream API (AccessKey: the library's API key; the read-only key may only read):
//   GET/POST /library/{id}/collections (?search=), DELETE /library/{id}/collections/{guid},
//   POST /library/{id}/videos { title, collectionId }, GET and DELETE /library/{id}/videos/{guid}, with
//   Bunny's JSON shapes (video: guid, status, encodeProgress, availableResolutions, length, ...).
// - TUS 1.0 core at /tusupload (OPTIONS, POST creation, HEAD, PATCH): every request carries the presigned
//   headers AuthorizationSignature = sha256_hex(libraryId + apiKey + AuthorizationExpire + VideoId),
//   AuthorizationExpire (unix s, not past), VideoId and LibraryId, checked as Bunny does; the upload is
//   for that video only, once. Upload-Metadata needs filetype and title, as Bunny documents.
// - Encoding: the finished upload goes through ffmpeg (encode.ts) into AES-128 encrypted HLS, 240p, 360p
//   and 720p when the source allows; status 1 Uploaded → 2 Processing → 3 Transcoding (encodeProgress) →
//   4 Finished, or 5 Error with the reason in transcodingMessages. The source file is deleted then.
// - Webhooks to `webhookUrl`, as Bunny sends them: POST { VideoLibraryId, VideoGuid, Status } with
//   Bunny's webhook codes (6 upload started, 7 upload finished, 0 queued, 1 processing, 2 encoding,
//   4 a resolution finished, 3 finished, 5 failed), signed v1: X-BunnyStream-Signature = hex HMAC-SHA256
//   of the raw body keyed with the read-only API key. Delivered one at a time, in order.
// - CDN (the pull zone, on the same port): every other path is a file under a video's folder, served only
//   with a valid token (cdn-token.ts: token authentication on, directory tokens, IP binding) and only
//   .m3u8, .ts, .key and .jpg files; never the source, never an MP4. CORS open, as the player fetches it.
// State (videos, collections, unfinished uploads) is kept in dataDir/state.json and the files under
// dataDir, so `npm start` finds its videos after a restart; deleting a video deletes its folder.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import path from 'node:path';
import { checkCdnRequest } from './cdn-token.ts';
import { encodeRendition, probe, renditionsFor, writeMasterPlaylist, writeThumbnail, type Rendition } from './encode.ts';

export interface FakeBunnyOptions {
  /** 0 or unset: a free port. */
  port?: number;
  libraryId: string;
  /** The library's API key (AccessKey), which also signs TUS uploads. */
  apiKey: string;
  /** The library's read-only API key: reads the API, and signs webhooks. */
  readOnlyApiKey: string;
  /** The pull zone's token authentication key. */
  tokenKey: string;
  /** Where webhooks go; null: none sent. Can be changed later with setWebhookUrl. */
  webhookUrl: string | null;
  /** Videos, uploads and state.json live here (created when missing). */
  dataDir: string;
  log?: (line: string) => void;
}

/** Bunny's video object (GET /library/{id}/videos/{guid}). */
export interface FakeBunnyVideo {
  videoLibraryId: number;
  guid: string;
  title: string;
  dateUploaded: string;
  views: number;
  isPublic: boolean;
  length: number;
  status: number;
  framerate: number;
  rotation: number;
  width: number;
  height: number;
  availableResolutions: string | null;
  thumbnailCount: number;
  encodeProgress: number;
  storageSize: number;
  captions: unknown[];
  hasMP4Fallback: boolean;
  collectionId: string;
  thumbnailFileName: string;
  averageWatchTime: number;
  totalWatchTime: number;
  category: string;
  chapters: unknown[];
  moments: unknown[];
  metaTags: unknown[];
  transcodingMessages: { timeStamp: string; level: number; issueCode: number; message: string; value: string | null }[];
}

export interface FakeBunnyCollection {
  videoLibraryId: number;
  guid: string;
  name: string;
  videoCount: number;
  totalSize: number;
  previewVideoIds: string | null;
  previewImageUrls: string[];
}

export interface DeliveredWebhook {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Our side's answer; 0 when it could not be reached. */
  status: number;
}

interface TusUpload {
  id: string;
  videoId: string;
  length: number;
  offset: number;
  metadata: Record<string, string>;
}

interface State {
  videos: FakeBunnyVideo[];
  collections: FakeBunnyCollection[];
  uploads: TusUpload[];
}

export interface FakeBunny {
  /** http://127.0.0.1:<port>: the API, the TUS endpoint and the CDN. */
  url: string;
  tusUrl: string;
  /** Where its files are (videos/<guid>/ is what the CDN serves). */
  dataDir: string;
  /** The function secrets that point bunny.ts at this fake (VIDEO_HOST=bunny, BUNNY_*). */
  secrets: Record<string, string>;
  video(guid: string): FakeBunnyVideo | undefined;
  collections(): FakeBunnyCollection[];
  /** Every webhook sent, oldest first. */
  webhooks: DeliveredWebhook[];
  setWebhookUrl(url: string | null): void;
  /**
   * Fake-only (the demo's video): unless it exists (and did not fail: an encoding cut short by a stop
   * did), a video with this guid in the collection named `collectionName`, encoded from a copy of
   * `source` as an upload would be. Resolves once queued.
   */
  seedVideo(o: { guid: string; title: string; collectionName: string; source: string }): Promise<void>;
  /** Resolves when no encoding and no webhook is on its way. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const TUS_VERSION = '1.0.0';
const MAX_UPLOAD_BYTES = 20 * 1024 ** 3;
const MAX_JSON_BODY = 64 * 1024;
/** What the CDN serves, by extension: playlists, segments, keys, the thumbnail. */
const CDN_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.key': 'application/octet-stream',
  '.jpg': 'image/jpeg',
};
const TUS_HEADERS = [
  'Authorization', 'Content-Type', 'Tus-Resumable', 'Upload-Length', 'Upload-Metadata', 'Upload-Offset', 'Upload-Defer-Length', 'X-Requested-With',
  'X-HTTP-Method-Override', 'AuthorizationSignature', 'AuthorizationExpire', 'VideoId', 'LibraryId',
];
const TUS_EXPOSED = ['Location', 'Upload-Offset', 'Upload-Length', 'Tus-Resumable', 'Tus-Version', 'Tus-Extension', 'Tus-Max-Size'];
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class Fail extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export async function startFakeBunny(opts: FakeBunnyOptions): Promise<FakeBunny> {
  const log = opts.log ?? (() => {});
  const libraryNumber = Number(opts.libraryId);
  const cdnRoot = path.join(opts.dataDir, 'videos');
  const uploadRoot = path.join(opts.dataDir, 'uploads');
  const statePath = path.join(opts.dataDir, 'state.json');
  await mkdir(cdnRoot, { recursive: true });
  await mkdir(uploadRoot, { recursive: true });

  const state: State = await readFile(statePath, 'utf8').then((t) => JSON.parse(t) as State, () => ({ videos: [], collections: [], uploads: [] }));
  const videos = new Map(state.videos.map((v) => [v.guid, v]));
  const collections = new Map(state.collections.map((c) => [c.guid, c]));
  const uploads = new Map(state.uploads.map((u) => [u.id, u]));
  // An encoding cut short by a restart does not resume: the video failed, as it would at Bunny.
  for (const v of videos.values()) if (v.status >= 1 && v.status <= 3) fail(v, 'Codificação interrompida (o serviço reiniciou).');

  let webhookUrl = opts.webhookUrl;
  const webhooks: DeliveredWebhook[] = [];
  let encodings: Promise<unknown> = Promise.resolve();
  let deliveries: Promise<unknown> = Promise.resolve();
  let saving: Promise<unknown> = Promise.resolve();
  let closed = false;

  /** Encodings run one at a time (one ffmpeg); webhooks go out one at a time, in order, meanwhile. */
  const encode = (job: () => Promise<void>) => {
    encodings = encodings.then(job).catch((e: Error) => log(`error: ${e.message}`));
  };
  const deliver = (job: () => Promise<void>) => {
    deliveries = deliveries.then(job).catch((e: Error) => log(`error: ${e.message}`));
  };
  const save = () => {
    const snapshot = JSON.stringify({ videos: [...videos.values()], collections: [...collections.values()], uploads: [...uploads.values()] } satisfies State);
    saving = saving.then(async () => {
      await writeFile(`${statePath}.tmp`, snapshot);
      await rename(`${statePath}.tmp`, statePath);
    });
    return saving;
  };

  function fail(v: FakeBunnyVideo, message: string) {
    v.status = 5;
    v.transcodingMessages.push({ timeStamp: new Date().toISOString(), level: 2, issueCode: 0, message, value: null });
  }

  function webhook(videoGuid: string, status: number) {
    const url = webhookUrl;
    if (!url) return;
    const body = JSON.stringify({ VideoLibraryId: libraryNumber, VideoGuid: videoGuid, Status: status });
    const headers = {
      'Content-Type': 'application/json',
      'X-BunnyStream-Signature-Version': 'v1',
      'X-BunnyStream-Signature-Algorithm': 'hmac-sha256',
      'X-BunnyStream-Signature': createHmac('sha256', opts.readOnlyApiKey).update(body).digest('hex'),
    };
    deliver(async () => {
      if (closed) return;
      const status = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        () => 0,
      );
      webhooks.push({ url, body, headers, status });
      log(`webhook ${JSON.parse(body).Status} ${videoGuid} → ${status}`);
    });
  }

  // ---- Stream API ----

  function authorize(req: IncomingMessage, library: string, write: boolean) {
    const key = String(req.headers.accesskey ?? '');
    const ok = library === opts.libraryId && (safeEqual(key, opts.apiKey) || (!write && safeEqual(key, opts.readOnlyApiKey)));
    if (!ok) throw new Fail(401, 'Authorization has been denied for this request.');
  }

  async function api(req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams) {
    const m = /^\/library\/([^/]+)\/(videos|collections)(?:\/([^/]+))?$/.exec(pathname);
    if (!m) throw new Fail(404, 'Not found');
    const [, library, kind, id] = m as unknown as [string, string, 'videos' | 'collections', string | undefined];
    authorize(req, library, req.method !== 'GET');
    if (kind === 'collections') {
      if (req.method === 'GET' && !id) {
        const search = (query.get('search') ?? '').toLowerCase();
        const items = [...collections.values()].filter((c) => c.name.toLowerCase().includes(search));
        const perPage = Math.min(1000, Math.max(1, Number(query.get('itemsPerPage')) || 100));
        const page = Math.max(1, Number(query.get('page')) || 1);
        return send(res, 200, { totalItems: items.length, currentPage: page, itemsPerPage: perPage, items: items.slice((page - 1) * perPage, page * perPage).map(withCounts) });
      }
      if (req.method === 'POST' && !id) {
        const body = await readJson(req);
        if (typeof body.name !== 'string' || !body.name.trim()) throw new Fail(400, 'The collection name is required.');
        const c: FakeBunnyCollection = { videoLibraryId: libraryNumber, guid: randomUUID(), name: body.name, videoCount: 0, totalSize: 0, previewVideoIds: null, previewImageUrls: [] };
        collections.set(c.guid, c);
        await save();
        return send(res, 200, c);
      }
      const c = id ? collections.get(id) : undefined;
      if (!c) throw new Fail(404, 'The requested collection was not found.');
      if (req.method === 'GET') return send(res, 200, withCounts(c));
      if (req.method === 'DELETE') {
        collections.delete(c.guid);
        for (const v of videos.values()) if (v.collectionId === c.guid) v.collectionId = '';
        await save();
        return send(res, 200, { success: true, message: 'OK', statusCode: 200 });
      }
      throw new Fail(405, 'Method not allowed');
    }
    if (req.method === 'POST' && !id) {
      const body = await readJson(req);
      if (typeof body.title !== 'string' || !body.title.trim()) throw new Fail(400, 'The video title is required.');
      const collectionId = typeof body.collectionId === 'string' ? body.collectionId : '';
      if (collectionId && !collections.has(collectionId)) throw new Fail(400, 'The requested collection was not found.');
      const v = newVideo(body.title, collectionId);
      videos.set(v.guid, v);
      await save();
      log(`video created ${v.guid} (${v.title})`);
      return send(res, 200, v);
    }
    const v = id ? videos.get(id) : undefined;
    if (!v) throw new Fail(404, 'The requested video was not found.');
    if (req.method === 'GET') return send(res, 200, v);
    if (req.method === 'DELETE') {
      await deleteVideo(v);
      return send(res, 200, { success: true, message: 'OK', statusCode: 200 });
    }
    throw new Fail(405, 'Method not allowed');
  }

  function withCounts(c: FakeBunnyCollection): FakeBunnyCollection {
    const inside = [...videos.values()].filter((v) => v.collectionId === c.guid);
    return { ...c, videoCount: inside.length, totalSize: inside.reduce((s, v) => s + v.storageSize, 0) };
  }

  function newVideo(title: string, collectionId: string): FakeBunnyVideo {
    return {
      videoLibraryId: libraryNumber, guid: randomUUID(), title, dateUploaded: new Date().toISOString(), views: 0, isPublic: false, length: 0,
      status: 0, framerate: 0, rotation: 0, width: 0, height: 0, availableResolutions: null, thumbnailCount: 0, encodeProgress: 0,
      storageSize: 0, captions: [], hasMP4Fallback: false, collectionId, thumbnailFileName: 'thumbnail.jpg', averageWatchTime: 0,
      totalWatchTime: 0, category: '', chapters: [], moments: [], metaTags: [], transcodingMessages: [],
    };
  }

  async function deleteVideo(v: FakeBunnyVideo) {
    videos.delete(v.guid);
    for (const u of [...uploads.values()].filter((u) => u.videoId === v.guid)) {
      uploads.delete(u.id);
      await rm(path.join(uploadRoot, u.id), { force: true });
    }
    await rm(path.join(cdnRoot, v.guid), { recursive: true, force: true });
    await save();
    log(`video deleted ${v.guid}`);
  }

  // ---- TUS ----

  function tusHeaders(extra: Record<string, string> = {}) {
    return {
      'Tus-Resumable': TUS_VERSION,
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': TUS_EXPOSED.join(', '),
      'Cache-Control': 'no-store',
      ...extra,
    };
  }

  /** The presigned headers: valid, not expired, for this library and (when given) this upload's video. */
  function checkPresigned(req: IncomingMessage, videoId?: string): FakeBunnyVideo {
    const h = (name: string) => String(req.headers[name] ?? '');
    const expire = h('authorizationexpire');
    const video = videos.get(h('videoid'));
    const expected = createHash('sha256').update(`${opts.libraryId}${opts.apiKey}${expire}${h('videoid')}`).digest('hex');
    if (h('libraryid') !== opts.libraryId || !/^\d{1,12}$/.test(expire) || !safeEqual(h('authorizationsignature').toLowerCase(), expected)) {
      throw new Fail(401, 'Invalid upload signature');
    }
    if (Number(expire) < Date.now() / 1000) throw new Fail(401, 'The upload signature has expired');
    if (!video || (videoId !== undefined && video.guid !== videoId)) throw new Fail(404, 'Video not found');
    return video;
  }

  async function tus(req: IncomingMessage, res: ServerResponse, id: string | undefined) {
    const method = String(req.headers['x-http-method-override'] ?? req.method);
    if (method === 'OPTIONS') {
      return void res
        .writeHead(204, tusHeaders({
          'Tus-Version': TUS_VERSION,
          'Tus-Extension': 'creation',
          'Tus-Max-Size': String(MAX_UPLOAD_BYTES),
          'Access-Control-Allow-Methods': 'POST, HEAD, PATCH, OPTIONS',
          'Access-Control-Allow-Headers': TUS_HEADERS.join(', '),
          'Access-Control-Max-Age': '86400',
        }))
        .end();
    }
    if (req.headers['tus-resumable'] !== TUS_VERSION) throw new Fail(412, 'Tus-Resumable 1.0.0 required', { 'Tus-Version': TUS_VERSION });
    if (method === 'POST' && !id) {
      const video = checkPresigned(req);
      if (video.status !== 0 || [...uploads.values()].some((u) => u.videoId === video.guid)) throw new Fail(409, 'This video already has an upload');
      const length = Number(req.headers['upload-length']);
      if (!Number.isSafeInteger(length) || length < 1) throw new Fail(400, 'Upload-Length required');
      if (length > MAX_UPLOAD_BYTES) throw new Fail(413, 'Upload too large');
      const metadata = parseMetadata(String(req.headers['upload-metadata'] ?? ''));
      if (!metadata.filetype || !metadata.title) throw new Fail(400, 'Upload-Metadata needs filetype and title');
      const upload: TusUpload = { id: randomUUID().replace(/-/g, ''), videoId: video.guid, length, offset: 0, metadata };
      await writeFile(path.join(uploadRoot, upload.id), '');
      uploads.set(upload.id, upload);
      await save();
      webhook(video.guid, 6);
      return void res.writeHead(201, tusHeaders({ Location: `${url}/tusupload/${upload.id}` })).end();
    }
    const upload = id ? uploads.get(id) : undefined;
    if (!upload) throw new Fail(404, 'Upload not found');
    const video = checkPresigned(req, upload.videoId);
    if (method === 'HEAD') {
      return void res.writeHead(200, tusHeaders({ 'Upload-Offset': String(upload.offset), 'Upload-Length': String(upload.length) })).end();
    }
    if (method !== 'PATCH') throw new Fail(405, 'Method not allowed');
    if (req.headers['content-type'] !== 'application/offset+octet-stream') throw new Fail(415, 'Content-Type application/offset+octet-stream required');
    if (Number(req.headers['upload-offset']) !== upload.offset) throw new Fail(409, 'Upload-Offset does not match', { 'Upload-Offset': String(upload.offset) });
    await appendBody(req, upload);
    await save();
    if (upload.offset === upload.length) {
      uploads.delete(upload.id);
      await save();
      startEncoding(video, path.join(uploadRoot, upload.id));
    }
    res.writeHead(204, tusHeaders({ 'Upload-Offset': String(upload.offset) })).end();
  }

  /** Appends the PATCH body to the upload's file (at the disk's pace); what arrived before a broken connection counts. */
  async function appendBody(req: IncomingMessage, upload: TusUpload): Promise<void> {
    const out = createWriteStream(path.join(uploadRoot, upload.id), { flags: 'a' });
    let tooLong = false;
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        if (upload.offset + chunk.length > upload.length) {
          tooLong = true;
          break;
        }
        upload.offset += chunk.length;
        if (!out.write(chunk)) await once(out, 'drain');
      }
    } catch {
      // The client went away mid-request: it resumes from the offset HEAD reports.
    }
    await new Promise<void>((resolve) => out.end(() => resolve()));
    if (tooLong) throw new Fail(400, 'Body beyond Upload-Length');
  }

  // ---- Encoding ----

  function startEncoding(v: FakeBunnyVideo, source: string) {
    v.status = 1;
    void save();
    webhook(v.guid, 7);
    webhook(v.guid, 0);
    encode(async () => {
      const folder = path.join(cdnRoot, v.guid);
      try {
        if (!videos.has(v.guid) || closed) return;
        v.status = 2;
        webhook(v.guid, 1);
        const info = await probe(source);
        Object.assign(v, { width: info.width, height: info.height, framerate: info.framerate, length: Math.round(info.durationSeconds) });
        v.status = 3;
        await save();
        webhook(v.guid, 2);
        const plan = renditionsFor(info);
        const done: Rendition[] = [];
        for (const [i, r] of plan.entries()) {
          await encodeRendition(source, info, folder, r, (f) => (v.encodeProgress = Math.min(99, Math.floor(((i + f) / plan.length) * 100))));
          if (!videos.has(v.guid)) return; // deleted meanwhile
          done.push(r);
          await writeMasterPlaylist(folder, info, done);
          v.availableResolutions = done.map((d) => d.name).join(',');
          await save();
          webhook(v.guid, 4);
        }
        await writeThumbnail(source, info, folder);
        v.thumbnailCount = 1;
        v.storageSize = await folderSize(folder);
        v.encodeProgress = 100;
        v.status = 4;
        await save();
        webhook(v.guid, 3);
        log(`video ready ${v.guid} (${v.availableResolutions})`);
      } catch (e) {
        if (!videos.has(v.guid)) return;
        fail(v, (e as Error).message);
        await save();
        webhook(v.guid, 5);
        log(`video failed ${v.guid}: ${(e as Error).message}`);
      } finally {
        await rm(source, { force: true });
        if (!videos.has(v.guid)) await rm(folder, { recursive: true, force: true });
      }
    });
  }

  // ---- CDN ----

  async function cdn(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'OPTIONS') {
      return void res.writeHead(204, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD', 'Access-Control-Max-Age': '86400' }).end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new Fail(405, 'Method not allowed');
    const filePath = checkCdnRequest({ url: req.url ?? '/', clientIp: req.socket.remoteAddress ?? '', key: opts.tokenKey });
    if (filePath === null) throw new Fail(403, 'Forbidden');
    const parts = filePath.split('/').slice(1);
    const type = CDN_TYPES[path.extname(filePath)];
    if (!type || parts.length < 2 || !GUID.test(parts[0]!) || !videos.has(parts[0]!) || parts.some((p) => !p || p === '.' || p === '..' || p.includes('\\'))) {
      throw new Fail(404, 'Not found');
    }
    const file = path.join(cdnRoot, ...parts);
    const size = await stat(file).then((s) => (s.isFile() ? s.size : -1), () => -1);
    if (size < 0) throw new Fail(404, 'Not found');
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(size), 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'private, max-age=60' });
    if (req.method === 'HEAD') return void res.end();
    res.end(await readFile(file));
  }

  // ---- Server ----

  let url = '';
  const server = createServer((req, res) => {
    void (async () => {
      const [pathname = '/', search = ''] = (req.url ?? '/').split('?');
      try {
        if (pathname === '/health') return send(res, 200, { status: 'ok' });
        const tusMatch = /^\/tusupload(?:\/([0-9a-f]{32}))?\/?$/.exec(pathname);
        if (tusMatch) return await tus(req, res, tusMatch[1]);
        if (pathname.startsWith('/library/')) return await api(req, res, pathname, new URLSearchParams(search));
        return await cdn(req, res);
      } catch (e) {
        if (!(e instanceof Fail)) log(`error: ${(e as Error).message}`);
        const status = e instanceof Fail ? e.status : 500;
        if (res.headersSent) return void res.end();
        const extra = e instanceof Fail ? e.headers : {};
        if (pathname.startsWith('/tusupload')) return void res.writeHead(status, tusHeaders({ 'Content-Type': 'text/plain', ...extra })).end((e as Error).message);
        if (pathname.startsWith('/library/')) return send(res, status, { success: false, message: (e as Error).message, statusCode: status });
        res.writeHead(status, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' }).end(status === 403 ? '403 Forbidden' : String(status));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await save();

  const idle = async () => {
    // An encoding queues webhooks as it goes: wait until neither chain grew while waiting.
    for (let seen: unknown[] = []; seen[0] !== encodings || seen[1] !== deliveries; ) {
      seen = [encodings, deliveries];
      await Promise.all(seen);
    }
    await saving;
  };
  return {
    url,
    tusUrl: `${url}/tusupload`,
    dataDir: opts.dataDir,
    secrets: {
      VIDEO_HOST: 'bunny',
      BUNNY_API_URL: url,
      BUNNY_LIBRARY_ID: opts.libraryId,
      BUNNY_API_KEY: opts.apiKey,
      BUNNY_CDN_HOST: url,
      BUNNY_TOKEN_KEY: opts.tokenKey,
      BUNNY_TUS_URL: `${url}/tusupload`,
      BUNNY_WEBHOOK_SECRET: opts.readOnlyApiKey,
    },
    video: (guid) => videos.get(guid),
    collections: () => [...collections.values()].map(withCounts),
    webhooks,
    setWebhookUrl: (next) => void (webhookUrl = next),
    async seedVideo(o) {
      const existing = videos.get(o.guid);
      if (existing && existing.status !== 5) return;
      if (existing) await deleteVideo(existing);
      let collection = [...collections.values()].find((c) => c.name === o.collectionName);
      if (!collection) {
        collection = { videoLibraryId: libraryNumber, guid: randomUUID(), name: o.collectionName, videoCount: 0, totalSize: 0, previewVideoIds: null, previewImageUrls: [] };
        collections.set(collection.guid, collection);
      }
      const v = { ...newVideo(o.title, collection.guid), guid: o.guid };
      videos.set(v.guid, v);
      const source = path.join(uploadRoot, `seed-${randomUUID()}`);
      await copyFile(o.source, source);
      startEncoding(v, source);
    },
    idle,
    close: async () => {
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await idle().catch(() => {});
    },
  };
}

/** Bunny's TUS metadata: "key base64,key base64". */
function parseMetadata(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of header.split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

async function folderSize(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_JSON_BODY) return reject(new Fail(413, 'Body too large'));
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        resolve(body && typeof body === 'object' ? (body as Record<string, unknown>) : {});
      } catch {
        reject(new Fail(400, 'Invalid JSON'));
      }
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
