// Serving an object's bytes: its stored headers, ETag/304, single ranges (206), and the headers that
// keep a stored file from ever acting as a page of the API's origin (nosniff, a sandboxing CSP).
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS } from '../http.ts';
import { errors } from './errors.ts';
import { storedFile } from './keys.ts';
import { essenceOf } from './body.ts';
import type { ObjectRow, Store } from './object-rows.ts';

/** `bytes=a-b`, `bytes=a-`, `bytes=-n`; null when absent or not a single range (then the whole body). */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

function contentDisposition(download: string, objectName: string): string {
  const filename = download || path.posix.basename(objectName);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Sent with every stored object: no script, no plugin, no subresource; a unique opaque origin. */
export const STORED_OBJECT_CSP = "default-src 'none'; sandbox";

/**
 * The Content-Type an object is served with: its stored type, but any type naming text/html as plain
 * text (as Storage's renderer does), and a stored type that is not one media type (older objects) as
 * application/octet-stream.
 */
export function servedContentType(stored: unknown): string {
  if (typeof stored !== 'string' || !stored) return 'application/octet-stream';
  if (stored.toLowerCase().includes('text/html')) return 'text/plain';
  return essenceOf(stored) ? stored : 'application/octet-stream';
}

/** Streams an object from disk with its stored headers, ETag/304 and single-range (206) support. */
export async function sendObject(s: Store, req: IncomingMessage, res: ServerResponse, obj: ObjectRow, url: URL): Promise<void> {
  const { file, size } = await storedFile(s.ctx.storageDir, obj.version);
  const meta = obj.metadata ?? {};
  const eTag = typeof meta.eTag === 'string' ? meta.eTag : `"${obj.version}"`;
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Content-Type': servedContentType(meta.mimetype),
    // No stored object is a page of the API's origin: the browser neither guesses another type nor
    // runs a script of it (an SVG, or HTML stored before types were checked), whatever its type says.
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': STORED_OBJECT_CSP,
    'Cache-Control': typeof meta.cacheControl === 'string' ? meta.cacheControl : 'no-cache',
    ETag: eTag,
    'Last-Modified': new Date(typeof meta.lastModified === 'string' ? meta.lastModified : obj.updated_at).toUTCString(),
    'Accept-Ranges': 'bytes',
  };
  const download = url.searchParams.get('download');
  if (download !== null) headers['Content-Disposition'] = contentDisposition(download, obj.name);

  if (req.headers['if-none-match'] === eTag) {
    res.writeHead(304, headers);
    return void res.end();
  }
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Type': 'application/json' });
    return void res.end(JSON.stringify(errors.invalidRange().body));
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  headers['Content-Length'] = String(Math.max(0, end - start + 1));
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || size === 0) return void res.end();
  try {
    await pipeline(createReadStream(file, { start, end }), res);
  } catch {
    res.destroy(); // client went away, or the file vanished under a concurrent delete
  }
}

/** Storage's `info` shape. */
export function objectInfo(obj: ObjectRow & { bucket_id?: string }) {
  const meta = obj.metadata ?? {};
  return {
    id: obj.id,
    name: obj.name,
    version: obj.version,
    bucket_id: obj.bucket_id,
    size: meta.size ?? null,
    content_type: meta.mimetype ?? null,
    cache_control: meta.cacheControl ?? null,
    etag: meta.eTag ?? null,
    metadata: obj.user_metadata ?? null,
    last_modified: meta.lastModified ?? obj.updated_at,
    created_at: obj.created_at,
  };
}
