// Receives an upload body (raw, or multipart/form-data as browsers send it) straight into a temp
// file: bytes are streamed, hashed and counted, never held whole in memory.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { errors } from './errors.ts';

export interface UploadLimits {
  /** Bytes; null = no limit. */
  maxSize: number | null;
  /** null or empty = any type; entries like 'image/png' or 'image/*'. */
  allowedMimeTypes: string[] | null;
}

export interface ReceivedFile {
  tempPath: string;
  size: number;
  /** Quoted MD5 of the bytes, like S3's ETag. */
  eTag: string;
  mimetype: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

// One media type as RFC 9110 writes it: type "/" subtype, then optional `; name=value` parameters.
// A list ("image/png, text/html"), a stray comma, or anything else is not one type.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\\\x00-\\x1f\\x7f]|\\\\[\\t\\x20-\\x7e])*"';
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*[ \\t]*$`);

/** `type/subtype` of a content type, lowercased, or null when it is not exactly one media type. */
export function essenceOf(contentType: string): string | null {
  const m = MEDIA_TYPE.exec(contentType.trim());
  return m ? `${m[1]}/${m[2]}`.toLowerCase() : null;
}

/**
 * The content type must be one media type (refused otherwise, even where the bucket allows any type:
 * it is sent back verbatim when the object is served), and its `type/subtype` one of the bucket's
 * types: an exact entry, or `type/*` (Storage's wildcard). Refusals are Storage's 415 InvalidMimeType.
 */
export function checkMimeType(mimetype: string, allowed: string[] | null): void {
  const essence = essenceOf(mimetype);
  if (!essence) throw errors.invalidMime(mimetype);
  if (!allowed || allowed.length === 0) return;
  const [type, sub] = essence.split('/');
  const ok = allowed.some((a) => {
    const [aType, aSub] = a.trim().toLowerCase().split('/');
    return aType === type && (aSub === '*' || aSub === sub);
  });
  if (!ok) throw errors.invalidMime(mimetype);
}

// The first bytes each type must start with, for the types a browser would render if they held
// markup instead (images of the public buckets, PDFs). Other types are not sniffed.
const SIGNATURES: Record<string, Buffer[]> = {
  'image/png': [Buffer.from([0x89, 0x50, 0x4e, 0x47])],
  'image/jpeg': [Buffer.from([0xff, 0xd8, 0xff])],
  'image/gif': [Buffer.from('GIF87a'), Buffer.from('GIF89a')],
  'image/webp': [Buffer.from('RIFF')], // and 'WEBP' at offset 8, checked below
  'application/pdf': [Buffer.from('%PDF-')],
};

/** Refuses (415) a file whose first bytes are not those of its declared image or PDF type. */
export async function checkContent(file: string, mimetype: string, size: number): Promise<void> {
  const essence = essenceOf(mimetype);
  const signatures = essence ? SIGNATURES[essence] : undefined;
  if (!signatures || size === 0) return;
  const head = Buffer.alloc(12);
  const fh = await open(file, 'r');
  let read: number;
  try {
    ({ bytesRead: read } = await fh.read(head, 0, head.length, 0));
  } finally {
    await fh.close();
  }
  const bytes = head.subarray(0, read);
  let ok = signatures.some((sig) => bytes.subarray(0, sig.length).equals(sig));
  if (ok && essence === 'image/webp') ok = bytes.subarray(8, 12).equals(Buffer.from('WEBP'));
  if (!ok) throw errors.contentMismatch(mimetype);
}

/** Counts and hashes bytes; past the limit it drops them but keeps reading, so the client gets our 413. */
class Meter extends Transform {
  size = 0;
  tooLarge = false;
  private readonly hash = createHash('md5');
  constructor(private readonly max: number | null) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.max !== null && this.size > this.max) this.tooLarge = true;
    if (this.tooLarge) return done();
    this.hash.update(chunk);
    done(null, chunk);
  }
  digest(): string {
    return `"${this.hash.digest('hex')}"`;
  }
}

async function writeToTemp(source: Readable, tmpDir: string, max: number | null): Promise<{ tempPath: string; size: number; eTag: string }> {
  const tempPath = path.join(tmpDir, randomUUID());
  const meter = new Meter(max);
  try {
    await pipeline(source, meter, createWriteStream(tempPath, { flags: 'wx' }));
  } catch (e) {
    await unlink(tempPath).catch(() => {});
    throw e;
  }
  if (meter.tooLarge) {
    await unlink(tempPath).catch(() => {});
    throw errors.tooLarge();
  }
  return { tempPath, size: meter.size, eTag: meter.digest() };
}

function cacheControlOf(value: string | undefined): string {
  if (!value) return 'no-cache';
  return /^\d+$/.test(value.trim()) ? `max-age=${value.trim()}` : value;
}

function parseUserMetadata(json: string | undefined): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    throw errors.invalidRequest('Invalid metadata');
  }
}

/** Stops reading into our logic but lets the rest of the body flow away, so the response still arrives. */
function discard(req: IncomingMessage): void {
  req.resume();
}

export async function receiveUpload(req: IncomingMessage, tmpDir: string, limits: UploadLimits): Promise<ReceivedFile> {
  const file = await receiveFile(req, tmpDir, limits);
  // Storage records `{ ...userMetadata }`: an upload without metadata has {} (what info() returns), not null.
  return { ...file, userMetadata: file.userMetadata ?? {} };
}

async function receiveFile(req: IncomingMessage, tmpDir: string, limits: UploadLimits): Promise<ReceivedFile> {
  const contentType = req.headers['content-type'] ?? '';
  if (/^multipart\/form-data/i.test(contentType)) return receiveMultipart(req, tmpDir, limits);

  const mimetype = contentType || 'application/octet-stream';
  const declared = Number(req.headers['content-length']);
  try {
    checkMimeType(mimetype, limits.allowedMimeTypes);
    if (limits.maxSize !== null && Number.isFinite(declared) && declared > limits.maxSize) throw errors.tooLarge();
  } catch (e) {
    discard(req);
    throw e;
  }
  const xMetadata = req.headers['x-metadata'];
  const userMetadata =
    typeof xMetadata === 'string' ? parseUserMetadata(Buffer.from(xMetadata, 'base64').toString('utf8')) : null;
  const cacheControl = req.headers['cache-control'];
  const file = await writeToTemp(req, tmpDir, limits.maxSize);
  return { ...file, mimetype, cacheControl: cacheControlOf(typeof cacheControl === 'string' ? cacheControl : undefined), userMetadata };
}

function receiveMultipart(req: IncomingMessage, tmpDir: string, limits: UploadLimits): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: 1024 * 1024 } });
    } catch {
      discard(req);
      reject(errors.invalidRequest('Invalid multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let mimetype = 'application/octet-stream';
    let file: Promise<{ tempPath: string; size: number; eTag: string }> | null = null;

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      // Storage takes the first file part; later ones are read and dropped.
      if (file) return void stream.resume();
      // As in Storage, a `contentType` field sent before the file overrides the part's own type.
      mimetype = fields.contentType || info.mimeType || 'application/octet-stream';
      file = (async () => {
        try {
          checkMimeType(mimetype, limits.allowedMimeTypes);
        } catch (e) {
          stream.resume();
          throw e;
        }
        return writeToTemp(stream, tmpDir, limits.maxSize);
      })();
      file.catch(() => {}); // reported on 'close'
    });
    parser.on('error', () => {
      req.unpipe(parser);
      discard(req);
      reject(errors.invalidRequest('Invalid multipart body'));
    });
    parser.on('close', () => {
      if (!file) return reject(errors.invalidRequest('No content provided'));
      file.then(
        (written) => {
          try {
            resolve({
              ...written,
              mimetype,
              cacheControl: cacheControlOf(fields.cacheControl),
              userMetadata: parseUserMetadata(fields.metadata),
            });
          } catch (e) {
            void unlink(written.tempPath).catch(() => {});
            reject(e);
          }
        },
        reject,
      );
    });
    req.on('aborted', () => reject(errors.invalidRequest('Upload aborted')));
    req.pipe(parser);
  });
}
