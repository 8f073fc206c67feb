// Bunny Stream behind the VideoHost interface (issue 39), written from Bunny's public API:
// - Stream API (AccessKey header): POST /library/{id}/videos creates the video in the school's
//   collection; one collection per school, named by the school's id, found with GET .../collections?search=
//   and created on first use. GET .../videos/{guid} is the status, DELETE removes the video.
// - TUS upload (https://video.bunnycdn.com/tusupload): the browser sends AuthorizationSignature =
//   sha256_hex(libraryId + apiKey + expire + videoId), AuthorizationExpire, VideoId and LibraryId with
//   every request, so the API key never leaves the function.
// - Delivery: the library's pull zone with token authentication on (HMAC-SHA256 tokens, "HS256-"):
//   a directory token whose token_path is the video's folder, so the master playlist, each rendition's
//   playlist, segments and keys under /{guid}/ all pass and nothing outside it does; optionally bound to
//   the viewer's IP ("HS256-1-", the IP signed but not in the URL). The token sits in the path
//   (/bcdn_token=…/{guid}/playlist.m3u8) so the players' relative URLs keep it.
// - Webhooks: Bunny signs each POST with X-BunnyStream-Signature = hex HMAC-SHA256 of the raw body keyed
//   with the library's read-only API key (BUNNY_WEBHOOK_SECRET). We check that signature AND then ask
//   the API for the video's real status: the body only names the video, so even a replayed signed body
//   reports today's truth, never what the body claims.
// Only web-standard APIs (fetch, Web Crypto): the same file runs in Deno and in Node.
import type { PlaybackRequest, VideoHost, VideoStatus, VideoUpload } from './host.ts';

export interface BunnyConfig {
  /** Stream API base, https://video.bunnycdn.com. */
  apiUrl: string;
  libraryId: string;
  /** The library's API key (Stream › API): creates, reads and deletes videos, signs TUS uploads. */
  apiKey: string;
  /** The pull zone's origin: https://vz-….b-cdn.net (a bare host name gets https://). */
  cdnUrl: string;
  /** The pull zone's URL Token Authentication Key. */
  tokenKey: string;
  /** https://video.bunnycdn.com/tusupload. */
  tusUrl: string;
  /** The library's read-only API key, which Bunny signs webhooks with. */
  webhookSecret: string;
}

const DEFAULT_API_URL = 'https://video.bunnycdn.com';
const DEFAULT_TUS_URL = 'https://video.bunnycdn.com/tusupload';

/** The BUNNY_* secrets; throws naming the first one missing (a half-configured host is an error, not Storage). */
export function bunnyConfigFromEnv(get: (name: string) => string | undefined): BunnyConfig {
  const required = (name: string) => {
    const value = get(name)?.trim();
    if (!value) throw new Error(`VIDEO_HOST=bunny needs the secret ${name}`);
    return value;
  };
  const cdn = required('BUNNY_CDN_HOST');
  return {
    apiUrl: (get('BUNNY_API_URL')?.trim() || DEFAULT_API_URL).replace(/\/+$/, ''),
    libraryId: required('BUNNY_LIBRARY_ID'),
    apiKey: required('BUNNY_API_KEY'),
    cdnUrl: (cdn.includes('://') ? cdn : `https://${cdn}`).replace(/\/+$/, ''),
    tokenKey: required('BUNNY_TOKEN_KEY'),
    tusUrl: get('BUNNY_TUS_URL')?.trim() || DEFAULT_TUS_URL,
    webhookSecret: required('BUNNY_WEBHOOK_SECRET'),
  };
}

export class BunnyError extends Error {
  constructor(
    /** Bunny's HTTP status; 0 when Bunny could not be reached. */
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The video object of GET /library/{id}/videos/{guid} (the fields we read). */
export interface BunnyVideo {
  videoLibraryId: number;
  guid: string;
  title: string;
  /** 0 Created, 1 Uploaded, 2 Processing, 3 Transcoding, 4 Finished, 5 Error, 6 UploadFailed, 7 JitSegmenting, 8 JitPlaylistsCreated. */
  status: number;
  encodeProgress: number;
  /** "360p,720p": the renditions ready so far. */
  availableResolutions: string | null;
  /** Seconds. */
  length: number;
  thumbnailFileName: string | null;
  collectionId: string | null;
  transcodingMessages?: { message?: string | null; level?: number }[] | null;
}

interface BunnyCollection {
  guid: string;
  name: string;
}

/** Webhook statuses (not the video's): 3 Finished, 4 a resolution finished, 5 failed, ... */
interface BunnyWebhookBody {
  VideoLibraryId: number;
  VideoGuid: string;
  Status: number;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A thumbnail is a still, not the lesson: its URL may live as long as the row that keeps it. */
const THUMBNAIL_URL_SECONDS = 365 * 24 * 3600;

export class BunnyStream implements VideoHost {
  constructor(private readonly config: BunnyConfig) {}

  private async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T | null> {
    let res: Response;
    try {
      res = await fetch(`${this.config.apiUrl}/library/${encodeURIComponent(this.config.libraryId)}${path}`, {
        method,
        headers: { AccessKey: this.config.apiKey, Accept: 'application/json', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
    } catch {
      throw new BunnyError(0, 'Bunny Stream não respondeu');
    }
    const text = await res.text();
    if (res.status === 404) return null;
    if (!res.ok) throw new BunnyError(res.status, `Bunny Stream respondeu ${res.status}: ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** The school's collection (named by its id), created on first use. */
  private async collectionOf(schoolId: string): Promise<string> {
    const find = async () => {
      const list = await this.call<{ items: BunnyCollection[] }>('GET', `/collections?search=${encodeURIComponent(schoolId)}&itemsPerPage=100&page=1`);
      // search matches parts of names; ours is the exact name. Lowest guid first, so that two first
      // uploads racing each other settle on the same collection.
      return (list?.items ?? []).filter((c) => c.name === schoolId).sort((a, b) => (a.guid < b.guid ? -1 : 1));
    };
    const found = await find();
    if (found[0]) return found[0].guid;
    const created = await this.call<BunnyCollection>('POST', '/collections', { name: schoolId });
    if (!created) throw new BunnyError(404, 'Biblioteca do Bunny Stream não encontrada');
    const winner = (await find())[0]?.guid ?? created.guid;
    if (winner !== created.guid) await this.call('DELETE', `/collections/${created.guid}`);
    return winner;
  }

  async createUpload(input: { schoolId: string; title: string; expiresInSeconds: number }): Promise<VideoUpload> {
    const collectionId = await this.collectionOf(input.schoolId);
    const video = await this.call<BunnyVideo>('POST', '/videos', { title: input.title, collectionId });
    if (!video) throw new BunnyError(404, 'Biblioteca do Bunny Stream não encontrada');
    const expire = Math.floor(Date.now() / 1000) + input.expiresInSeconds;
    const { libraryId, apiKey } = this.config;
    return {
      hostVideoId: video.guid,
      endpoint: this.config.tusUrl,
      headers: {
        AuthorizationSignature: await sha256Hex(`${libraryId}${apiKey}${expire}${video.guid}`),
        AuthorizationExpire: String(expire),
        VideoId: video.guid,
        LibraryId: libraryId,
      },
      expiresAt: new Date(expire * 1000).toISOString(),
    };
  }

  async status(hostVideoId: string): Promise<VideoStatus> {
    const video = await this.call<BunnyVideo>('GET', `/videos/${checkGuid(hostVideoId)}`);
    if (!video) return { state: 'failed', reason: 'O vídeo não existe mais no Bunny Stream.' };
    return this.statusOf(video);
  }

  private async statusOf(video: BunnyVideo): Promise<VideoStatus> {
    switch (video.status) {
      case 0:
        return { state: 'waiting' };
      case 4:
      case 8: {
        const thumbnailUrl = video.thumbnailFileName
          ? await this.signedUrl({ filePath: `/${video.guid}/${video.thumbnailFileName}`, tokenPath: null, expiresInSeconds: THUMBNAIL_URL_SECONDS })
          : null;
        return { state: 'ready', renditions: renditionsOf(video.availableResolutions), durationSeconds: video.length > 0 ? video.length : null, thumbnailUrl };
      }
      case 5:
      case 6: {
        const messages = (video.transcodingMessages ?? []).map((m) => m.message).filter((m): m is string => !!m);
        return { state: 'failed', reason: messages.at(-1) ?? (video.status === 6 ? 'O envio do arquivo falhou.' : 'O Bunny Stream não conseguiu processar o vídeo.') };
      }
      default:
        return { state: 'processing', percent: Math.max(0, Math.min(100, Math.round(video.encodeProgress || 0))) };
    }
  }

  playbackUrl(input: PlaybackRequest): Promise<string> {
    const guid = checkGuid(input.hostVideoId);
    return this.signedUrl({ filePath: `/${guid}/playlist.m3u8`, tokenPath: `/${guid}/`, expiresInSeconds: input.expiresInSeconds, viewerIp: input.viewerIp });
  }

  /** A CDN URL with a path-embedded token: for `tokenPath` (a directory) or for exactly `filePath`. */
  private async signedUrl(o: { filePath: string; tokenPath: string | null; expiresInSeconds: number; viewerIp?: string }): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + o.expiresInSeconds;
    const token = await signCdnToken({ key: this.config.tokenKey, signaturePath: o.tokenPath ?? o.filePath, expires, userIp: o.viewerIp, params: o.tokenPath ? { token_path: o.tokenPath } : {} });
    const params = o.tokenPath ? `&token_path=${encodeURIComponent(o.tokenPath)}` : '';
    return `${this.config.cdnUrl}/bcdn_token=${token}${params}&expires=${expires}${o.filePath}`;
  }

  async delete(hostVideoId: string): Promise<void> {
    // Already gone (404) is what was asked for.
    await this.call('DELETE', `/videos/${checkGuid(hostVideoId)}`);
  }

  async verifyWebhook(req: { body: string; headers: Headers }): Promise<{ hostVideoId: string; status: VideoStatus } | null> {
    const signature = req.headers.get('x-bunnystream-signature') ?? '';
    if (req.headers.get('x-bunnystream-signature-version') !== 'v1' || !/^[0-9a-f]{64}$/.test(signature)) return null;
    if (!(await hmacSha256Verify(this.config.webhookSecret, req.body, signature))) return null;
    let event: BunnyWebhookBody;
    try {
      event = JSON.parse(req.body) as BunnyWebhookBody;
    } catch {
      return null;
    }
    if (String(event?.VideoLibraryId) !== this.config.libraryId || typeof event.VideoGuid !== 'string' || !GUID.test(event.VideoGuid)) return null;
    // The status comes from the API, never from the body.
    return { hostVideoId: event.VideoGuid, status: await this.status(event.VideoGuid) };
  }
}

function checkGuid(id: string): string {
  if (!GUID.test(id)) throw new BunnyError(400, 'Identificador de vídeo inválido');
  return id;
}

/** "720p,360p" → ['360p', '720p'] (lowest first). */
function renditionsOf(available: string | null): string[] {
  return (available ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .sort((a, b) => parseInt(a) - parseInt(b));
}

const encoder = new TextEncoder();

async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/** Constant-time check of a lowercase hex HMAC-SHA256 of `body`. */
async function hmacSha256Verify(secret: string, body: string, hex: string): Promise<boolean> {
  const bytes = new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));
  return crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), bytes, encoder.encode(body));
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Bunny's token (advanced token authentication, HMAC-SHA256): "HS256-" (+ "1-" when bound to an IP)
 * + base64url(HMAC(key, signaturePath + expires + ipBytes + "k=v&…" of the sorted parameters)). The IP
 * enters as its bytes: an IPv4 address's 4, an IPv6 address's 16 with the last 8 zeroed (its /64).
 */
export async function signCdnToken(o: { key: string; signaturePath: string; expires: number; userIp?: string; params?: Record<string, string> }): Promise<string> {
  const signing = Object.entries(o.params ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const ip = o.userIp ? ipBytes(o.userIp) : new Uint8Array(0);
  const head = encoder.encode(`${o.signaturePath}${o.expires}`);
  const tail = encoder.encode(signing);
  const message = new Uint8Array(head.length + ip.length + tail.length);
  message.set(head);
  message.set(ip, head.length);
  message.set(tail, head.length + ip.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(o.key, 'sign'), message));
  const base64url = btoa(String.fromCharCode(...mac)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `HS256-${o.userIp ? '1-' : ''}${base64url}`;
}

/** An IP address's bytes as Bunny signs them; an IPv4-mapped IPv6 address is its IPv4 address. */
export function ipBytes(ip: string): Uint8Array {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = parseIPv4(mapped ? mapped[1]! : ip);
  if (v4) return v4;
  const v6 = parseIPv6(ip);
  if (!v6) throw new BunnyError(400, `Endereço IP inválido: ${ip}`);
  v6.fill(0, 8);
  return v6;
}

function parseIPv4(ip: string): Uint8Array | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return new Uint8Array(parts.map(Number));
}

function parseIPv6(ip: string): Uint8Array | null {
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s ? s.split(':') : []);
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms) counts as two groups.
  const last = (tail.length ? tail : head).at(-1);
  const v4 = last?.includes('.') ? parseIPv4(last) : null;
  if (last?.includes('.')) {
    if (!v4) return null;
    (tail.length ? tail : head).splice(-1, 1, ((v4[0]! << 8) | v4[1]!).toString(16), ((v4[2]! << 8) | v4[3]!).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  return out;
}
