// /storage/v1/render/image/{public,authenticated,sign}/<bucket>/<name>: Storage's image transformations.
// The hosted platform runs them through imgproxy (storage-api's ImageRenderer); here sharp does the
// same work with imgproxy's defaults: no enlargement, EXIF rotation, metadata stripped, WebP when the
// request's Accept has image/webp and no format is asked. Access is exactly the object routes':
// a public bucket, the caller's RLS, or a signed token, whose transformations are part of it. The options
// are read in render-options.ts; what a render may cost the machine is bounded in render-limits.ts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import sharp, { type FitEnum, type Metadata } from 'sharp';
import { CORS_HEADERS, type RequestAuth } from '../http.ts';
import { readTomlTable } from '../toml.ts';
import { clientIp } from '../auth/rate-limit.ts';
import { errors, storageError } from './errors.ts';
import { storedFile } from './keys.ts';
import { findBucket, findObjectAsSuperuser, findVisibleObject, type Store } from './object-rows.ts';
import { STORED_OBJECT_CSP } from './serve-object.ts';
import { signObjectToken, verifySignedUrl } from './signed-urls.ts';
import { RenderCache } from './render-cache.ts';
import { AVIF_EFFORT, createRenderTurns, framesToRender, outputFramePixels, type RenderTurns } from './render-limits.ts';
import { clamp, MAX_DIMENSION, transformFromBody, transformFromQuery, transformFromToken, transformationSegments, type TransformOptions } from './render-options.ts';

/** The hosted platform's limits (Storage docs, "Image Transformations › Limits"). */
export const RENDER_LIMITS = {
  /** Width and height are clamped to 1-2500, as storage-api clamps them (render-options.ts). */
  maxDimension: MAX_DIMENSION,
  /** "The image size cannot exceed 25MB." */
  maxSourceBytes: 25 * 1024 * 1024,
  /**
   * "The image resolution cannot exceed 50MP." For an animated image, the frames rendered together:
   * each is a whole canvas once decoded, however few bytes it takes (imgproxy's IMGPROXY_MAX_SRC_RESOLUTION
   * sums them the same way).
   */
  maxSourcePixels: 50_000_000,
  /** Frames of an animated GIF or WebP rendered; the rest are dropped (IMGPROXY_MAX_ANIMATION_FRAMES=60, as the Supabase CLI runs imgproxy). */
  maxAnimationFrames: 60,
};

/** Source formats rendered (sharp's names); anything else is the platform's "invalid or unsupported". */
const SOURCE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
const MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tiff: 'image/tiff',
};
const DEFAULT_QUALITY = 80;
/** imgproxy's resizing types in sharp's words: fill (cover), fit (contain), force (fill). */
const FIT: Record<NonNullable<TransformOptions['resize']>, keyof FitEnum> = { cover: 'cover', contain: 'inside', fill: 'fill' };

// imgproxy's answers as storage-api words them (src/storage/renderer/image.ts), status 400.
const renderError = (message: string) => errors.invalidRequest(message);
const INVALID_SOURCE = 'The source image is invalid or unsupported for rendering';
const SOURCE_TOO_BIG = 'The source image file is too large to process';
const RESOLUTION_TOO_BIG = 'The source image resolution is too large to process';

/**
 * Whether transformations are on: `[storage.image_transformation] enabled` of supabase/config.toml (the
 * Supabase CLI's key; on a hosted project, the plan and the dashboard switch decide), and storage-api's
 * own ENABLE_IMAGE_TRANSFORMATION variable over it. Off, the render routes answer what a hosted project
 * without the feature answers.
 */
export function imageTransformationEnabled(rootDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const fromEnv = env.ENABLE_IMAGE_TRANSFORMATION;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv === 'true';
  try {
    const toml = readFileSync(path.join(rootDir, 'supabase', 'config.toml'), 'utf8');
    return readTomlTable(toml, ['storage', 'image_transformation']).enabled !== false;
  } catch {
    return true;
  }
}

const featureNotEnabled = () => storageError(403, 'FeatureNotEnabled', 'FeatureNotEnabled', 'feature not enabled for this tenant');

/** Results kept on disk, by default up to 256 MB (LOCAL_STORAGE_RENDER_CACHE_MB). */
function cacheBytes(): number {
  const mb = Number(process.env.LOCAL_STORAGE_RENDER_CACHE_MB);
  return (Number.isFinite(mb) && mb >= 0 ? mb : 256) * 1024 * 1024;
}

export interface ImageRenderer {
  enabled: boolean;
  cache: RenderCache;
  turns: RenderTurns;
  /** GET or HEAD of /render/image/<kind>/<bucket>/<name>. */
  route(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    kind: string | undefined,
    target: () => { bucketId: string; name: string },
    caller: () => Promise<RequestAuth>,
  ): Promise<void>;
  /** The signedURL of POST /object/sign with a `transform`, or null when there is nothing to transform. */
  signedRenderUrl(bucketId: string, name: string, expiresIn: number, transform: unknown): Promise<string | null>;
}

export function createImageRenderer(s: Store): ImageRenderer {
  const enabled = imageTransformationEnabled(s.ctx.config.rootDir);
  const cache = new RenderCache(path.join(s.ctx.storageDir, 'render-cache'), cacheBytes());
  const turns = createRenderTurns(s.ctx.config.renderMissesPerMinute);

  const route: ImageRenderer['route'] = async (req, res, url, kind, target, caller) => {
    if (!enabled) throw featureNotEnabled();
    if (kind === 'public') {
      const t = transformFromQuery(url.searchParams);
      const { bucketId, name } = target();
      const bucket = await findBucket(s.ctx, bucketId);
      if (!bucket?.public) throw errors.bucketNotFound();
      const obj = await findObjectAsSuperuser(s, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      return respond(req, res, url, obj, t);
    }
    if (kind === 'authenticated') {
      const auth = await caller();
      const t = transformFromQuery(url.searchParams);
      const { bucketId, name } = target();
      const obj = await findVisibleObject(s, auth, req, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      return respond(req, res, url, obj, t);
    }
    if (kind === 'sign') {
      const token = url.searchParams.get('token');
      if (!token) throw errors.invalidRequest("querystring must have required property 'token'");
      const { bucketId, name } = target();
      // The transformations are the token's: a signed URL cannot be asked for another size.
      const payload = await verifySignedUrl(s, token, bucketId, name);
      const obj = await findObjectAsSuperuser(s, bucketId, name);
      if (!obj) throw errors.objectNotFound();
      const t = transformFromToken(payload.transformations, payload.format);
      const expires = typeof payload.exp === 'number' ? new Date(payload.exp * 1000).toUTCString() : undefined;
      return respond(req, res, url, obj, t, expires);
    }
    throw errors.notFound();
  };

  type RenderObject = NonNullable<Awaited<ReturnType<typeof findObjectAsSuperuser>>>;

  async function respond(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    obj: RenderObject,
    t: TransformOptions,
    /** A signed URL's expiry: sent as Expires instead of the object's Cache-Control, as hosted does. */
    expires?: string,
  ): Promise<void> {
    const { file: source, size } = await storedFile(s.ctx.storageDir, obj.version);
    if (size > RENDER_LIMITS.maxSourceBytes) throw renderError(SOURCE_TOO_BIG);
    // WebP when the browser takes it and no format was asked (imgproxy's WebP detection).
    const webp = !t.format && /image\/webp/i.test(String(req.headers.accept ?? ''));
    const key = createHash('sha256')
      .update(JSON.stringify([obj.version, t.width ? clamp(t.width) : 0, t.height ? clamp(t.height) : 0, t.resize ?? 'cover', t.quality ?? 0, t.format ?? '', webp]))
      .digest('hex');
    const meta = obj.metadata ?? {};
    const eTag = `"${key.slice(0, 32)}"`; // one variant of one object version
    const headers: Record<string, string> = {
      ...CORS_HEADERS,
      // The same URL answers WebP or the original format by the request's Accept.
      Vary: 'Accept',
      ETag: eTag,
      'Last-Modified': new Date(typeof meta.lastModified === 'string' ? meta.lastModified : obj.updated_at).toUTCString(),
      'X-Transformations': transformationSegments(t).join(','),
      'X-Robots-Tag': 'none',
      // As every stored object: never a page of the API's origin.
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': STORED_OBJECT_CSP,
    };
    if (expires) headers.Expires = expires;
    else headers['Cache-Control'] = typeof meta.cacheControl === 'string' ? meta.cacheControl : 'no-cache';
    if (req.headers['if-none-match'] === eTag) {
      res.writeHead(304, headers); // the browser has this variant: no work at all
      return void res.end();
    }

    // A miss renders in the client's turn, within its budget (render-limits.ts); a hit is a file read.
    const result = await cache.get(key, (temp) => turns.take(clientIp(req), () => renderTo(source, temp, t, webp)));
    headers['Content-Type'] = MIME[result.format] ?? 'application/octet-stream';
    headers['Content-Length'] = String(result.body.length);
    const download = url.searchParams.get('download');
    if (download !== null) {
      const encoded = encodeURIComponent(download);
      headers['Content-Disposition'] = download === '' ? 'attachment;' : `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`;
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : result.body);
  }

  async function signedRenderUrl(bucketId: string, name: string, expiresIn: number, transform: unknown): Promise<string | null> {
    const t = transformFromBody(transform);
    // A project without the feature signs a plain object URL, as storage-api does.
    if (!enabled) return null;
    const transformations = transformationSegments(t, true).join(',');
    if (!transformations) return null;
    const claims: Record<string, unknown> = { transformations };
    if (t.format) claims.format = t.format;
    const token = await signObjectToken(s, bucketId, name, claims, expiresIn);
    return `/render/image/sign/${bucketId}/${name}?token=${token}`;
  }

  return { enabled, cache, turns, route, signedRenderUrl };
}

/**
 * Renders source into file; returns the output format. Any failure to read the source as an image is
 * the platform's "invalid or unsupported" answer, never a 500.
 */
async function renderTo(source: string, file: string, t: TransformOptions, webp: boolean): Promise<string> {
  let meta: Metadata;
  try {
    meta = await sharp(source).metadata();
  } catch {
    throw renderError(INVALID_SOURCE);
  }
  if (!meta.format || !SOURCE_FORMATS.has(meta.format) || !meta.width || !meta.height) throw renderError(INVALID_SOURCE);
  // What will be decoded: the first frames of an animated GIF or WebP, the first page of anything else.
  const frameHeight = meta.pageHeight ?? meta.height;
  const frames = meta.format === 'gif' || meta.format === 'webp' ? Math.min(meta.pages ?? 1, RENDER_LIMITS.maxAnimationFrames) : 1;
  if (meta.width * frameHeight * frames > RENDER_LIMITS.maxSourcePixels) throw renderError(RESOLUTION_TOO_BIG);
  // An animation too large to encode in full is answered as its first frame (render-limits.ts).
  const pages = framesToRender(frames, outputFramePixels(meta.width, frameHeight, t));

  const origin = meta.format === 'heif' ? 'avif' : meta.format;
  const format = t.format === 'avif' ? 'avif' : webp ? 'webp' : origin;
  const quality = t.quality ?? DEFAULT_QUALITY;
  try {
    // libvips checks the same limit on what it actually decodes (all the frames loaded, stacked).
    let img = sharp(source, { pages, limitInputPixels: RENDER_LIMITS.maxSourcePixels }).rotate();
    if (t.width || t.height) {
      img = img.resize({
        width: t.width ? clamp(t.width) : undefined,
        height: t.height ? clamp(t.height) : undefined,
        fit: FIT[t.resize ?? 'cover'],
        withoutEnlargement: true,
      });
    }
    if (format === 'jpeg') img = img.jpeg({ quality, progressive: true });
    else if (format === 'webp') img = img.webp({ quality });
    else if (format === 'avif') img = img.avif({ quality, effort: AVIF_EFFORT });
    else if (format === 'png') img = img.png();
    else if (format === 'gif') img = img.gif();
    else img = img.tiff({ quality });
    await img.timeout({ seconds: 30 }).toFile(file);
  } catch {
    throw renderError(INVALID_SOURCE);
  }
  return format;
}
