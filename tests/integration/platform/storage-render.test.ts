// Storage's image transformations (/storage/v1/render/image/...), through the real supabase-js as the
// SPA and the official storage-js suite use them: the resize modes, WebP by the request's Accept,
// format=origin, the public, authenticated and signed forms with the object routes' access rules,
// the platform's refusals and limits, and the on-disk cache keyed by object version.
import { randomUUID } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { versionPath } from '../../../local-supabase/storage/keys.ts';
import { MAX_ANIMATION_OUTPUT_PIXELS, RENDER_QUEUE_BOUND } from '../../../local-supabase/storage/render-limits.ts';
import { gifOfScreens, webpOfScreens } from '../../../src/test/animated-images.ts';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { STORAGE_FIXTURE_SQL } from '../storage-helpers.ts';
import { COURSE, EMAIL, LESSON, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend({ sql: STORAGE_FIXTURE_SQL });
const service = backend.service();
const admin = backend.signedIn('adminDemo');
let anon: SupabaseClient;

const THUMB = `${SCHOOL.demo}/render-teste.jpg`; // course-thumbnails (public)
const LOGO = `${SCHOOL.demo}/render-logo.png`; // school-banners (public)
const LESSON_DIR = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}`;
const PRIVATE_PNG = `${LESSON_DIR}/grafico-render.png`; // lesson-materials (private)
const SEEDED_PDF = `${LESSON_DIR}/apostila-formulas.pdf`; // lesson-materials, from the seed
const JPEG_ONLY = 'image/jpeg,*/*;q=0.8';
const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

/** A w×h image of one colour (a few KB), in the given format. */
function picture(width: number, height: number, format: 'jpeg' | 'png', color = '#2563eb'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })[format]().toBuffer();
}

/** An answer's frames as decoded: [frame width, frame height, frames]. */
async function framesOf(body: Buffer) {
  const meta = await sharp(body, { animated: true }).metadata();
  return [meta.width, meta.pageHeight ?? meta.height, meta.pages ?? 1];
}

/** A real animated GIF: `frames` frames of w×h, each its own colour. */
function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * frames * 3);
  for (let f = 0; f < frames; f++) raw.fill(Buffer.from([(f * 40) % 256, 100, 255 - ((f * 40) % 256)]), f * width * height * 3, (f + 1) * width * height * 3);
  return sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } }).gif().toBuffer();
}

async function upload(client: SupabaseClient, bucket: string, name: string, body: Buffer, contentType: string, cacheControl?: string) {
  const { error } = await client.storage.from(bucket).upload(name, body, { contentType, upsert: true, cacheControl });
  if (error) throw error;
}

/** GET with an Accept header; the body decoded by sharp when it is an image. */
async function get(url: string, accept = JPEG_ONLY, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { Accept: accept, ...headers } });
  const body = Buffer.from(await res.arrayBuffer());
  const image = res.ok && res.headers.get('content-type')?.startsWith('image/') ? await sharp(body).metadata() : null;
  return { res, body, image, json: image ? null : safeJson(body) };
}

function safeJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

const publicRender = (bucket: string, name: string, transform: Record<string, unknown>) =>
  anon.storage.from(bucket).getPublicUrl(name, { transform }).data.publicUrl;

const renderCacheFiles = async () => (await readdir(path.join(backend.server.ctx.storageDir, 'render-cache'))).filter((f) => !f.startsWith('tmp-'));

beforeAll(async () => {
  anon = backend.anon();
  await upload(service, 'course-thumbnails', THUMB, await picture(1200, 800, 'jpeg'), 'image/jpeg', '31536000');
  await upload(service, 'school-banners', LOGO, await picture(600, 200, 'png'), 'image/png');
  await upload(service, 'lesson-materials', PRIVATE_PNG, await picture(1200, 800, 'png'), 'image/png');
});

describe('resize modes (public form, getPublicUrl with transform)', () => {
  it.each([
    ['cover (default): fills the box and crops', { width: 300, height: 300 }, [300, 300]],
    ['cover, width only: keeps the ratio', { width: 300 }, [300, 200]],
    ['cover, height only: keeps the ratio', { height: 100 }, [150, 100]],
    ['contain: fits inside the box, ratio kept', { width: 300, height: 300, resize: 'contain' }, [300, 200]],
    ['fill: exactly the box, ratio not kept', { width: 300, height: 100, resize: 'fill' }, [300, 100]],
    ['no enlargement past the source (imgproxy default)', { width: 2000 }, [1200, 800]],
  ] as const)('%s', async (_label, transform, [width, height]) => {
    const url = publicRender('course-thumbnails', THUMB, transform);
    expect(url).toContain('/storage/v1/render/image/public/course-thumbnails/');
    const { res, image } = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect([image?.width, image?.height]).toEqual([width, height]);
  });

  it('answers with the headers storage-api sends: X-Transformations, the object cache-control, Vary, nosniff and the sandbox CSP', async () => {
    const { res } = await get(publicRender('course-thumbnails', THUMB, { width: 200, height: 200, quality: 60 }));
    expect(res.headers.get('x-transformations')).toBe('height:200,width:200,resizing_type:fill,quality:60');
    expect(res.headers.get('cache-control')).toBe('max-age=31536000');
    expect(res.headers.get('vary')).toBe('Accept');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const etag = res.headers.get('etag')!;
    const again = await fetch(publicRender('course-thumbnails', THUMB, { width: 200, height: 200, quality: 60 }), { headers: { Accept: JPEG_ONLY, 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const head = await fetch(publicRender('course-thumbnails', THUMB, { width: 200 }), { method: 'HEAD', headers: { Accept: JPEG_ONLY } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('clamps a width or height past 2500 px to 2500, as the platform does', async () => {
    const wide = `${SCHOOL.demo}/render-largo.jpg`;
    await upload(service, 'course-thumbnails', wide, await picture(3000, 1000, 'jpeg'), 'image/jpeg');
    const { res, image } = await get(publicRender('course-thumbnails', wide, { width: 9000 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-transformations')).toBe('width:2500,resizing_type:fill');
    expect([image?.width, image?.height]).toEqual([2500, 833]);
  });
});

describe('formats', () => {
  it('serves WebP to a browser that accepts it, the original format otherwise; Vary: Accept', async () => {
    const url = publicRender('course-thumbnails', THUMB, { width: 320 });
    const chrome = await get(url, CHROME_ACCEPT);
    expect(chrome.res.headers.get('content-type')).toBe('image/webp');
    expect(chrome.image?.format).toBe('webp');
    expect(chrome.image?.width).toBe(320);
    const plain = await get(url, '*/*');
    expect(plain.res.headers.get('content-type')).toBe('image/jpeg');
    expect(plain.image?.format).toBe('jpeg');
    expect(chrome.res.headers.get('vary')).toBe('Accept');
  });

  it('format=origin keeps the original format even when WebP is accepted (PNG stays PNG)', async () => {
    const jpeg = await get(publicRender('course-thumbnails', THUMB, { width: 320, format: 'origin' }), CHROME_ACCEPT);
    expect(jpeg.image?.format).toBe('jpeg');
    const png = await get(publicRender('school-banners', LOGO, { width: 120, format: 'origin' }), CHROME_ACCEPT);
    expect(png.res.headers.get('content-type')).toBe('image/png');
    expect([png.image?.format, png.image?.width, png.image?.height]).toEqual(['png', 120, 40]);
  });

  it('format=avif is AVIF whatever the Accept header; format=webp is refused, as storage-api’s schema (origin, avif) refuses it', async () => {
    const avif = await get(publicRender('course-thumbnails', THUMB, { width: 100, format: 'avif' }), '*/*');
    expect(avif.res.headers.get('content-type')).toBe('image/avif');
    expect([avif.image?.format, avif.image?.width]).toEqual(['heif', 100]);
    const webp = await get(publicRender('course-thumbnails', THUMB, { width: 100, format: 'webp' }), '*/*');
    expect(webp.res.status).toBe(400);
    expect(webp.json).toEqual({ statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message: 'querystring/format must be equal to one of the allowed values' });
  });
});

describe('access: the same rules as the object routes', () => {
  it('the authenticated form (download with transform) applies RLS: staff get the private image, others the not-found answer', async () => {
    const { data, error } = await admin.storage.from('lesson-materials').download(PRIVATE_PNG, { transform: { width: 200, format: 'origin' } });
    expect(error).toBeNull();
    expect(data?.type).toBe('image/png');
    const meta = await sharp(Buffer.from(await data!.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([200, 133]);

    // An enrolled student has no direct read of lesson files (issue 19), another school's staff none at
    // all, and a visitor is anon: the same answer as for a missing object.
    for (const who of [EMAIL.aluno, EMAIL.adminRival]) {
      const client = await backend.signIn(who);
      const denied = await client.storage.from('lesson-materials').download(PRIVATE_PNG, { transform: { width: 200 } });
      expect(denied.data, who).toBeNull();
      expect((denied.error as { status?: number } | null)?.status, who).toBe(404);
    }
    const raw = await get(`${backend.url}/storage/v1/render/image/authenticated/lesson-materials/${PRIVATE_PNG}?width=200`, JPEG_ONLY, { apikey: ANON_KEY });
    expect(raw.res.status).toBe(404);
    expect(raw.json).toMatchObject({ statusCode: '404', error: 'not_found', message: 'Object not found' });
  });

  it('the public form refuses a private bucket, whoever asks, without rendering anything', async () => {
    const before = (await renderCacheFiles()).length;
    const { res, json } = await get(`${backend.url}/storage/v1/render/image/public/lesson-materials/${PRIVATE_PNG}?width=200`);
    expect(res.status).toBe(404);
    expect(json).toMatchObject({ statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' });
    expect((await renderCacheFiles()).length).toBe(before);
  });

  it('createSignedUrl with transform signs the render path; the token fixes the transformation and the object', async () => {
    const { data, error } = await admin.storage.from('lesson-materials').createSignedUrl(PRIVATE_PNG, 600, { transform: { width: 200, height: 200, quality: 60 } });
    expect(error).toBeNull();
    const signed = data!.signedUrl;
    expect(signed).toContain(`/storage/v1/render/image/sign/lesson-materials/${PRIVATE_PNG}?token=`);

    const { res, image } = await get(signed, CHROME_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-transformations')).toBe('height:200,width:200,resizing_type:fill,quality:60');
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(new Date(res.headers.get('expires')!).getTime()).toBeGreaterThan(Date.now() + 500_000);
    expect([image?.width, image?.height]).toEqual([200, 200]);

    // Asking the signed URL for another size changes nothing: the transformation is the token's.
    const bigger = await get(`${signed}&width=1200&height=800`);
    expect([bigger.image?.width, bigger.image?.height]).toEqual([200, 200]);

    // The token names its object: used for another one, it is refused.
    const token = new URL(signed).searchParams.get('token');
    const other = await get(`${backend.url}/storage/v1/render/image/sign/lesson-materials/${SEEDED_PDF}?token=${token}`);
    expect(other.res.status).toBe(400);
    expect(other.json).toMatchObject({ code: 'InvalidSignature' });
    const forged = await get(`${backend.url}/storage/v1/render/image/sign/lesson-materials/${PRIVATE_PNG}?token=${token!.slice(0, -4)}AAAA`);
    expect(forged.res.status).toBe(400);
    const none = await get(`${backend.url}/storage/v1/render/image/sign/lesson-materials/${PRIVATE_PNG}`);
    expect(none.res.status).toBe(400);
  });

  it('createSignedUrl with an empty transform signs the plain object path (storage-js contract)', async () => {
    const { data } = await admin.storage.from('lesson-materials').createSignedUrl(PRIVATE_PNG, 60, { transform: {} });
    expect(data!.signedUrl).toContain('/storage/v1/object/sign/lesson-materials/');
  });

  it('a student cannot sign a lesson image with a transform either (no direct read of lesson files)', async () => {
    const aluno = await backend.signIn(EMAIL.aluno);
    const { data, error } = await aluno.storage.from('lesson-materials').createSignedUrl(PRIVATE_PNG, 60, { transform: { width: 100 } });
    expect(data).toBeNull();
    expect(error).not.toBeNull();
  });
});

describe('refusals, as the platform words them', () => {
  const invalidSource = { statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message: 'The source image is invalid or unsupported for rendering' };

  it('a non-image (the seeded PDF) answers 400 "invalid or unsupported"', async () => {
    const { data } = await admin.storage.from('lesson-materials').createSignedUrl(SEEDED_PDF, 60, { transform: { width: 200 } });
    const { res, json } = await get(data!.signedUrl);
    expect(res.status).toBe(400);
    expect(json).toEqual(invalidSource);
  });

  it('an SVG stored before types were checked is never rendered (nor served as SVG)', async () => {
    const name = `${USER.aluno}/legado-render.png`;
    const version = randomUUID();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    await writeFile(versionPath(backend.server.ctx.storageDir, version), svg);
    await backend.server.ctx.engine.query(
      `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
       values ('avatars', $1, $2::uuid, $3, $4, jsonb_build_object('mimetype', 'image/svg+xml', 'size', 120, 'eTag', '"legado"'))`,
      [name, USER.aluno, USER.aluno, version],
    );
    const { res, json } = await get(publicRender('avatars', name, { width: 50 }), CHROME_ACCEPT);
    expect(res.status).toBe(400);
    expect(json).toEqual(invalidSource);
  });

  it('a source over 25 MB answers 400 "file is too large"', async () => {
    const big = Buffer.concat([await picture(100, 100, 'jpeg'), Buffer.alloc(26 * 1024 * 1024)]);
    await upload(service, 'fx-public', 'grande.jpg', big, 'image/jpeg');
    const { res, json } = await get(publicRender('fx-public', 'grande.jpg', { width: 50 }));
    expect(res.status).toBe(400);
    expect(json).toEqual({ ...invalidSource, message: 'The source image file is too large to process' });
  });

  it('a source over 50 megapixels answers 400 "resolution is too large"', async () => {
    await upload(service, 'fx-public', 'enorme.png', await picture(8000, 7000, 'png'), 'image/png');
    const { res, json } = await get(publicRender('fx-public', 'enorme.png', { width: 50 }));
    expect(res.status).toBe(400);
    expect(json).toEqual({ ...invalidSource, message: 'The source image resolution is too large to process' });
  });

  it('an animated GIF or WebP counts every frame it decodes: 60 frames of 2048×2048 (a 1.4 KB avatar) are refused, nothing rendered', async () => {
    const student = await backend.signIn(EMAIL.aluno);
    const gif = Buffer.from(gifOfScreens(2048, 60));
    const webp = Buffer.from(webpOfScreens(2048, 60));
    expect(gif.length).toBe(1419);
    expect(webp.length).toBeLessThan(3000);
    await upload(student, 'avatars', `${USER.aluno}/bomba.gif`, gif, 'image/gif');
    await upload(student, 'avatars', `${USER.aluno}/bomba.webp`, webp, 'image/webp');
    const before = await renderCacheFiles();
    for (const name of ['bomba.gif', 'bomba.webp']) {
      for (const transform of [{ width: 320 }, { width: 64, format: 'origin' }]) {
        const { res, json } = await get(publicRender('avatars', `${USER.aluno}/${name}`, transform), CHROME_ACCEPT);
        expect(res.status, `${name} ${JSON.stringify(transform)}`).toBe(400);
        expect(json).toEqual({ ...invalidSource, message: 'The source image resolution is too large to process' });
      }
    }
    expect(await renderCacheFiles()).toEqual(before);
  });

  it('the frames are counted up to the limit: 11 frames of 2048×2048 (46 MP) render, 12 (50.3 MP) do not', async () => {
    await upload(service, 'fx-public', 'onze.gif', Buffer.from(gifOfScreens(2048, 11)), 'image/gif');
    await upload(service, 'fx-public', 'doze.gif', Buffer.from(gifOfScreens(2048, 12)), 'image/gif');
    const eleven = await get(publicRender('fx-public', 'onze.gif', { width: 16 }), CHROME_ACCEPT);
    expect(eleven.res.status).toBe(200);
    expect(eleven.res.headers.get('content-type')).toBe('image/webp');
    const twelve = await get(publicRender('fx-public', 'doze.gif', { width: 16 }), CHROME_ACCEPT);
    expect(twelve.res.status).toBe(400);
    expect(twelve.json).toMatchObject({ message: 'The source image resolution is too large to process' });
  });

  it.each([
    ['width=abc', 'querystring/width must be integer'],
    ['width=-5', 'querystring/width must be >= 0'],
    ['quality=10', 'querystring/quality must be >= 20'],
    ['quality=101', 'querystring/quality must be <= 100'],
    ['resize=stretch', 'querystring/resize must be equal to one of the allowed values'],
    ['format=bmp', 'querystring/format must be equal to one of the allowed values'],
  ])('an invalid option (%s) answers 400 before any work', async (query, message) => {
    const { res, json } = await get(`${backend.url}/storage/v1/render/image/public/course-thumbnails/${THUMB}?${query}`);
    expect(res.status).toBe(400);
    expect(json).toEqual({ statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message });
  });

  it('a missing object or bucket is the not-found answer; a path with .. is an invalid key', async () => {
    expect((await get(publicRender('course-thumbnails', `${SCHOOL.demo}/nao-existe.jpg`, { width: 10 }))).res.status).toBe(404);
    expect((await get(publicRender('nao-existe', 'x.jpg', { width: 10 }))).res.status).toBe(404);
    const dots = await get(`${backend.url}/storage/v1/render/image/public/course-thumbnails/a/../../x.jpg?width=10`);
    expect([400, 404]).toContain(dots.res.status);
  });
});

describe('animated images', () => {
  it('a student’s animated GIF avatar renders animated, every frame (WebP to Chrome, GIF with format=origin)', async () => {
    const student = await backend.signIn(EMAIL.aluno);
    const name = `${USER.aluno}/avatar-animado.gif`;
    await upload(student, 'avatars', name, await animatedGif(400, 400, 8), 'image/gif');
    const webp = await get(publicRender('avatars', name, { width: 320 }), CHROME_ACCEPT);
    expect(webp.res.status).toBe(200);
    expect(webp.res.headers.get('content-type')).toBe('image/webp');
    expect(await framesOf(webp.body)).toEqual([320, 320, 8]);
    const gif = await get(publicRender('avatars', name, { width: 100, format: 'origin' }), CHROME_ACCEPT);
    expect(gif.res.headers.get('content-type')).toBe('image/gif');
    expect(gif.image?.format).toBe('gif');
    expect(await framesOf(gif.body)).toEqual([100, 100, 8]);
  });

  it('renders at most 60 frames of a longer animation, as the platform’s imgproxy does (IMGPROXY_MAX_ANIMATION_FRAMES)', async () => {
    await upload(service, 'fx-public', 'longa.gif', Buffer.from(gifOfScreens(32, 100)), 'image/gif');
    const { res, body } = await get(publicRender('fx-public', 'longa.gif', { width: 16 }), CHROME_ACCEPT);
    expect(res.status).toBe(200);
    expect(await framesOf(body)).toEqual([16, 16, 60]);
  });
});

describe('hostile input', () => {
  it('random paths, options, tokens and sign bodies never get a 5xx or an internal detail', { timeout: 120_000 }, async () => {
    const seed = Number(process.env.FUZZ_SEED || 20261124);
    const value = fc.oneof(fc.constantFrom('0', '1', '-1', '2500', '99999', '1.5', '1e3', '', 'abc', 'cover', 'origin', 'webp', 'avif', '%00'), fc.string({ maxLength: 8 }));
    const option = fc.tuple(fc.constantFrom('width', 'height', 'quality', 'resize', 'format', 'download', 'token'), value);
    const bucket = fc.constantFrom('course-thumbnails', 'school-banners', 'lesson-materials', 'avatars', 'fx-public', 'nao-existe', '..', '%2e%2e');
    const name = fc.oneof(fc.constantFrom(THUMB, LOGO, PRIVATE_PNG, SEEDED_PDF, 'grande.jpg', 'enorme.png', `${SCHOOL.demo}/../x`, 'a//b', '%00'), fc.string({ maxLength: 12 }));
    const kind = fc.constantFrom('public', 'authenticated', 'sign', 'outro', '');
    const who = fc.constantFrom(null, ANON_KEY, SERVICE_ROLE_KEY, 'nao.e.um.jwt');
    await fc.assert(
      fc.asyncProperty(kind, bucket, name, fc.array(option, { maxLength: 4 }), who, fc.jsonValue({ maxDepth: 2 }), async (k, b, n, opts, key, transform) => {
        const query = opts.map(([o, v]) => `${o}=${encodeURIComponent(v)}`).join('&');
        const path = n.split('/').map((seg) => (seg.startsWith('%') ? seg : encodeURIComponent(seg))).join('/');
        const headers: Record<string, string> = key ? { apikey: key, Authorization: `Bearer ${key}`, Accept: CHROME_ACCEPT } : { Accept: CHROME_ACCEPT };
        const res = await fetch(`${backend.url}/storage/v1/render/image/${k}/${b}/${path}?${query}`, { headers });
        const body = await res.text();
        expect(res.status, `${k} ${b} ${n} ${query}`).toBeLessThan(500);
        expect(body).not.toMatch(/at \w+ \(|node_modules|local-supabase\/|vips|sharp/i);
        const signed = await fetch(`${backend.url}/storage/v1/object/sign/${b}/${path}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ expiresIn: 60, transform }),
        });
        expect(signed.status, `sign ${b} ${n} ${JSON.stringify(transform)}`).toBeLessThan(500);
      }),
      { seed, numRuns: 150 },
    );
  });
});

describe('the cache of results', () => {
  it('keeps each result once on disk and serves a second request from it', async () => {
    const url = publicRender('course-thumbnails', THUMB, { width: 333 });
    const before = await renderCacheFiles();
    const first = await get(url, CHROME_ACCEPT);
    const added = (await renderCacheFiles()).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^[0-9a-f]{64}\.webp$/);
    const second = await get(url, CHROME_ACCEPT);
    expect(second.body.equals(first.body)).toBe(true);
    expect((await renderCacheFiles()).length).toBe(before.length + 1);
    // The JPEG answer for the same URL is another entry (the Accept decides the format).
    await get(url, JPEG_ONLY);
    expect((await renderCacheFiles()).length).toBe(before.length + 2);
  });

  it('after the object is replaced, the same URL gives the new image (the key is the object version)', async () => {
    const name = `${SCHOOL.demo}/render-troca.jpg`;
    const url = publicRender('course-thumbnails', name, { width: 120 });
    const colour = async () => {
      const { body } = await get(url);
      const { dominant } = await sharp(body).stats();
      return dominant;
    };
    await upload(admin, 'course-thumbnails', name, await picture(800, 450, 'jpeg', '#dc2626'), 'image/jpeg');
    const red = await colour();
    expect(red.r).toBeGreaterThan(200);
    expect(red.b).toBeLessThan(60);
    await upload(admin, 'course-thumbnails', name, await picture(800, 450, 'jpeg', '#2563eb'), 'image/jpeg');
    const blue = await colour();
    expect(blue.b).toBeGreaterThan(200);
    expect(blue.r).toBeLessThan(60);
  });
});

describe('what renders may cost the machine (issue 37, attacks on the fixes)', () => {
  /** A GET from a given local address (the server tells clients apart by address; every test runs on loopback). */
  function getFrom(address: string, url: string, accept = CHROME_ACCEPT): Promise<{ status: number; type: string; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(url.replace('//localhost:', '//127.0.0.1:'), { localAddress: address, headers: { Accept: accept } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }
  const ATTACKER = '127.0.0.1';
  const VICTIM = '127.0.0.2';
  const tooMany = { statusCode: '429', code: 'InvalidRequest', error: 'InvalidRequest', message: 'Too many requests' };

  /** An ordinary 2500×2500 photo-like avatar (blurred noise, ~340 KB): inside every upload and render limit. */
  async function noisyPhoto(): Promise<Buffer> {
    const size = 2500;
    const noise = Buffer.alloc(size * size * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = Math.imul(i, 2654435761) >>> 24;
    return sharp(noise, { raw: { width: size, height: size, channels: 3 } }).blur(2).jpeg({ quality: 30 }).toBuffer();
  }

  it(
    'one address asking AVIF of a big avatar at ever new widths: another address’s render and cache hit are served in between; past the queue bound, 429',
    { timeout: 300_000 },
    async () => {
      const student = await backend.signIn(EMAIL.alunoRival);
      const name = `${USER.alunoRival}/avatar-grande.jpg`;
      await upload(student, 'avatars', name, await noisyPhoto(), 'image/jpeg');
      const hit = publicRender('course-thumbnails', THUMB, { width: 222 });
      expect((await getFrom(VICTIM, hit)).status).toBe(200); // cached now

      const done: string[] = [];
      let refusedSoFar = 0;
      let queueFull!: () => void;
      const queueIsFull = new Promise<void>((resolve) => (queueFull = resolve));
      const attack = Array.from({ length: 1 + RENDER_QUEUE_BOUND + 3 }, (_, i) =>
        getFrom(ATTACKER, publicRender('avatars', name, { width: 2400 - i, format: 'avif', quality: 50 })).then((r) => {
          if (r.status === 200) done.push('attack');
          if (r.status === 429 && ++refusedSoFar === 3) queueFull();
          return r;
        }),
      );
      // The victim asks once the attack fills the server's queue (its three refusals are back), not after
      // a guessed pause: on a loaded machine the attack's requests may take longer to arrive. If the queue
      // never refuses, every attack answer is in and the checks below say what went wrong.
      await Promise.race([queueIsFull, Promise.all(attack)]);
      const [victimHit, victimRender] = await Promise.all([
        getFrom(VICTIM, hit).then((r) => (done.push('hit'), r)),
        getFrom(VICTIM, publicRender('course-thumbnails', THUMB, { width: 223 })).then((r) => (done.push('render'), r)),
      ]);
      expect(victimHit.status).toBe(200);
      expect(victimRender.status).toBe(200);
      const answers = await Promise.all(attack);

      // Before: every render went to libuv's four threads at once and the victim's file reads and render
      // queued behind them (9 or more AVIF renders finished first). Now one of the attacker's at most.
      expect(done.slice(0, done.indexOf('hit')).filter((d) => d === 'attack').length).toBeLessThanOrEqual(1);
      expect(done.slice(0, done.indexOf('render')).filter((d) => d === 'attack').length).toBeLessThanOrEqual(1);
      // The attacker's renders beyond one running and RENDER_QUEUE_BOUND waiting were refused, as imgproxy
      // refuses past its queue (storage-api passes its 429 on); the others rendered, AVIF.
      const refused = answers.filter((r) => r.status === 429);
      expect(refused).toHaveLength(3);
      expect(JSON.parse(refused[0]!.body.toString())).toEqual(tooMany);
      expect(answers.filter((r) => r.status === 200).every((r) => r.type === 'image/avif')).toBe(true);
    },
  );

  it('control: a page’s worth of new images from one address all render at once', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `${SCHOOL.demo}/pagina-${i}.jpg`);
    await Promise.all(names.map(async (n, i) => upload(service, 'course-thumbnails', n, await picture(800, 450, 'jpeg', i % 2 ? '#16a34a' : '#9333ea'), 'image/jpeg')));
    const answers = await Promise.all(names.map((n) => getFrom(ATTACKER, publicRender('course-thumbnails', n, { width: 320 }))));
    expect(answers.map((r) => [r.status, r.type])).toEqual(names.map(() => [200, 'image/webp']));
  });

  it('a 60-frame 912×912 GIF (49.9 MP, accepted) asked back as GIF: a large size is its first frame only, a small one stays animated', async () => {
    const student = await backend.signIn(EMAIL.aluno);
    const name = `${USER.aluno}/sessenta.gif`;
    await upload(student, 'avatars', name, Buffer.from(gifOfScreens(912, 60)), 'image/gif');
    const big = await get(publicRender('avatars', name, { width: 897, format: 'origin' }), CHROME_ACCEPT);
    expect(big.res.status).toBe(200);
    expect(big.res.headers.get('content-type')).toBe('image/gif');
    // 60 frames × 897² would be 48 MP to encode; the bound is MAX_ANIMATION_OUTPUT_PIXELS.
    expect(60 * 897 * 897).toBeGreaterThan(MAX_ANIMATION_OUTPUT_PIXELS);
    expect(await framesOf(big.body)).toEqual([897, 897, 1]);
    const webp = await get(publicRender('avatars', name, { width: 896 }), CHROME_ACCEPT);
    expect(await framesOf(webp.body)).toEqual([896, 896, 1]);
    // Control: an animation of 60 frames at an avatar's size is whole.
    const moving = `${USER.aluno}/sessenta-cores.gif`;
    await upload(student, 'avatars', moving, await animatedGif(400, 400, 60), 'image/gif');
    const small = await get(publicRender('avatars', moving, { width: 128, format: 'origin' }), CHROME_ACCEPT);
    expect(small.res.headers.get('content-type')).toBe('image/gif');
    expect(await framesOf(small.body)).toEqual([128, 128, 60]);
  });

  describe('each address’s budget of new renders', () => {
    const limited = useBackend({ renderMissesPerMinute: 3 });
    beforeAll(async () => {
      await limited.service().storage.from('course-thumbnails').upload(THUMB, await picture(1200, 800, 'jpeg'), { contentType: 'image/jpeg', upsert: true });
    });

    it('answers 429 past 3 new renders a minute (LOCAL_STORAGE_RENDER_MISSES_PER_MINUTE), renders nothing for it; cached sizes and other addresses are served', async () => {
      const url = (width: number) => limited.anon().storage.from('course-thumbnails').getPublicUrl(THUMB, { transform: { width } }).data.publicUrl;
      const cached = async () => (await readdir(path.join(limited.server.ctx.storageDir, 'render-cache'))).filter((f) => !f.startsWith('tmp-')).length;
      for (const width of [301, 302, 303]) expect((await getFrom(ATTACKER, url(width))).status).toBe(200);
      const fourth = await getFrom(ATTACKER, url(304));
      expect(fourth.status).toBe(429);
      expect(JSON.parse(fourth.body.toString())).toEqual({ ...tooMany, message: 'Too many new image transformations from this address: at most 3 a minute (local-supabase)' });
      expect(await cached()).toBe(3);
      // What the cache holds costs nothing and is still served to that address.
      const again = await getFrom(ATTACKER, url(301));
      expect([again.status, again.type]).toEqual([200, 'image/webp']);
      // Another address has its own budget.
      expect((await getFrom(VICTIM, url(304))).status).toBe(200);
      expect(await cached()).toBe(4);
    });
  });
});

describe('a project without image transformations (hosted free plan)', () => {
  const off = useBackend({ env: { ENABLE_IMAGE_TRANSFORMATION: 'false' } });

  it('answers 403 FeatureNotEnabled on the render routes and signs plain object URLs', async () => {
    const url = off.anon().storage.from('school-banners').getPublicUrl(`${SCHOOL.demo}/banner.jpg`, { transform: { width: 320 } }).data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ statusCode: '403', code: 'FeatureNotEnabled', error: 'FeatureNotEnabled', message: 'feature not enabled for this tenant' });
    // The original stays where it was: what the SPA falls back to.
    expect((await fetch(url.replace('/render/image/', '/object/').split('?')[0]!)).status).toBe(200);
    const staff = await off.signIn(EMAIL.adminDemo);
    const { data } = await staff.storage.from('lesson-materials').createSignedUrl(SEEDED_PDF, 60, { transform: { width: 100 } });
    expect(data!.signedUrl).toContain('/storage/v1/object/sign/');
  });
});
