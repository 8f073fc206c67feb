// Issue 19, items 5 and 6 and the signed-URL hardening, as an attacker sees them:
// - active content in public buckets: an SVG with <script>, a content type `image/png, text/html`, and
//   HTML bytes declared as a PNG are refused at upload; an object already stored with such a type
//   (a legacy row) is served with nosniff, a sandboxing CSP and `text/html` as text/plain, and a real
//   Chromium runs none of their scripts;
// - copy and move: paid lesson files never reach a public bucket through a student, and the destination
//   bucket's types, size limit and policies apply as to an upload;
// - signed URLs of lesson files: students sign only through `sign-lesson-file`, whose lifetime is
//   capped (function secrets), so no student holds a year-long URL to a paid video.
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright';
import { signLessonVideo, signMaterial } from '../../../src/features/lessons/api/queries.ts';
import { versionPath } from '../../../local-supabase/storage/keys.ts';
import { ANON_KEY, useBackend } from '../harness.ts';
import { countObjects } from '../storage-helpers.ts';
import { COURSE, EMAIL, LESSON, OBJECT, SCHOOL, USER } from '../rls/seed.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const backend = useBackend();
const aluno = backend.signedIn('aluno');
const aluna = backend.signedIn('aluna');
const alunoRival = backend.signedIn('alunoRival');
const admin = backend.signedIn('adminDemo');
let alunoJwt: string;
let browser: Browser | undefined;

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const SCRIPT_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>document.title = 'EXECUTOU'</script></svg>`;
const SCRIPT_HTML = `<!doctype html><html><head><title>arquivo</title></head><body><script>document.title = 'EXECUTOU'</script></body></html>`;
const ANNOUNCEMENT_VIDEO = `${SCHOOL.demo}/aviso-copia.mp4`;
const LESSON_PNG = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/grafico.png`;
const BIG_PNG = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/grande.png`;

beforeAll(async () => {
  alunoJwt = (await aluno.auth.getSession()).data.session!.access_token;
  const service = backend.service();
  for (const [bucket, name, body, type] of [
    ['announcement-videos', ANNOUNCEMENT_VIDEO, Buffer.alloc(256, 1), 'video/mp4'],
    ['lesson-materials', LESSON_PNG, PNG, 'image/png'],
    ['lesson-materials', BIG_PNG, Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]), 'image/png'],
  ] as const) {
    const { error } = await service.storage.from(bucket).upload(name, body, { contentType: type });
    if (error) throw error;
  }
  // The image is a material of the lesson: a student is signed only files a material holds (issue 39).
  await backend.sql(`insert into public.materials (course_id, lesson_id, title, type, file_path) values ($1, $2, 'Gráfico', 'OTHER', $3)`, [
    COURSE.excel, LESSON.excelUpload, LESSON_PNG,
  ]);
  // The video is a published announcement's: a student reads only such a file (20261128008500).
  await backend.sql(`insert into public.announcements (school_id, title, body, video_type, video_url) values ($1, 'Aviso', '<p>Aviso</p>', 'direct', $2)`, [
    SCHOOL.demo, ANNOUNCEMENT_VIDEO,
  ]);
});
afterAll(async () => {
  await browser?.close();
});

/** A raw upload with exactly this Content-Type header (what supabase-js sends for a Buffer body). */
function rawUpload(jwt: string, bucket: string, name: string, contentType: string, body: Buffer | string) {
  return fetch(`${backend.url}/storage/v1/object/${bucket}/${name}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${jwt}`, 'Content-Type': contentType, 'x-upsert': 'true' },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}

/** A multipart upload whose file part carries exactly this Content-Type (what a browser form sends). */
function multipartUpload(jwt: string, bucket: string, name: string, partType: string, body: string, contentTypeField?: string) {
  const boundary = `----limite${randomBytes(6).toString('hex')}`;
  const field = (key: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`;
  const payload =
    field('cacheControl', '3600') +
    (contentTypeField === undefined ? '' : field('contentType', contentTypeField)) +
    `--${boundary}\r\nContent-Disposition: form-data; name=""; filename="x"\r\nContent-Type: ${partType}\r\n\r\n${body}\r\n` +
    `--${boundary}--\r\n`;
  return fetch(`${backend.url}/storage/v1/object/${bucket}/${name}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${jwt}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: payload,
  });
}

/** A TUS upload creation (the resumable route) declaring this content type. */
function tusCreate(jwt: string, bucket: string, name: string, contentType: string, size: number) {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return fetch(`${backend.url}/storage/v1/upload/resumable`, {
    method: 'POST',
    headers: {
      apikey: ANON_KEY,
      Authorization: `Bearer ${jwt}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
      'Upload-Metadata': `bucketName ${b64(bucket)},objectName ${b64(name)},contentType ${b64(contentType)}`,
    },
  });
}

const publicUrl = (bucket: string, name: string) => `${backend.url}/storage/v1/object/public/${bucket}/${name}`;

/** Writes an object straight into the database and the storage folder, as an older version could have left it. */
async function seedLegacyObject(bucket: string, name: string, mimetype: string, body: string): Promise<void> {
  const version = randomUUID();
  await writeFile(versionPath(backend.server.ctx.storageDir, version), body);
  await backend.server.ctx.engine.query(
    `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
     values ($1, $2, $3::uuid, $4, $5, jsonb_build_object('mimetype', $6::text, 'size', $7::int, 'eTag', '"legado"'))`,
    [bucket, name, USER.aluno, USER.aluno, version, mimetype, Buffer.byteLength(body)],
  );
}

/** Opens a URL in Chromium; true when a script of the page ran (it sets document.title). */
async function scriptRanAt(url: string): Promise<boolean> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    return (await page.title()) === 'EXECUTOU';
  } finally {
    await page.close();
  }
}

/** Seconds between a signed URL's token's iat and exp. */
function lifetimeOf(signedUrl: string): number {
  const token = new URL(signedUrl).searchParams.get('token')!;
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { iat: number; exp: number };
  return payload.exp - payload.iat;
}

describe('active content in public buckets', () => {
  it('refuses an SVG avatar with hosted Storage’s 415, whatever the upload route, and stores nothing', async () => {
    const name = `${USER.aluno}/avatar.svg`;
    const raw = await rawUpload(alunoJwt, 'avatars', name, 'image/svg+xml', SCRIPT_SVG);
    expect(raw.status).toBe(415);
    expect(await raw.json()).toMatchObject({ statusCode: '415', error: 'invalid_mime_type', message: 'mime type image/svg+xml is not supported' });
    expect((await multipartUpload(alunoJwt, 'avatars', name, 'image/svg+xml', SCRIPT_SVG)).status).toBe(415);
    // Storage lets a `contentType` form field override the part's type: it is checked the same way.
    expect((await multipartUpload(alunoJwt, 'avatars', name, 'image/png', SCRIPT_SVG, 'image/svg+xml')).status).toBe(415);
    const viaJs = await aluno.storage.from('avatars').upload(name, new Blob([SCRIPT_SVG], { type: 'image/svg+xml' }), { upsert: true });
    expect(viaJs.error).toMatchObject({ statusCode: '415' });
    expect((await tusCreate(alunoJwt, 'avatars', name, 'image/svg+xml', SCRIPT_SVG.length)).status).toBe(415);
    expect(await countObjects(backend, 'avatars', name)).toBe(0);
    expect((await fetch(publicUrl('avatars', name))).status).toBe(404);
  });

  it('refuses a content type that is a list, has a comma or is not one type/subtype', async () => {
    const name = `${USER.aluno}/avatar.png`;
    for (const type of ['image/png, text/html', 'image/png,text/html', 'text/html, image/png', 'image/png;text/html', 'image/png/html', 'image/', 'png', 'image/png; charset="a", text/html']) {
      const res = await rawUpload(alunoJwt, 'avatars', name, type, PNG);
      expect(res.status, type).toBe(415);
      expect(await res.json()).toMatchObject({ error: 'invalid_mime_type', code: 'InvalidMimeType' });
      expect((await multipartUpload(alunoJwt, 'avatars', name, type, SCRIPT_HTML)).status, `multipart ${type}`).toBe(415);
    }
    expect((await tusCreate(alunoJwt, 'avatars', name, 'image/png, text/html', 10)).status).toBe(415);
    expect(await countObjects(backend, 'avatars', name)).toBe(0);
    // The control: one type with a parameter, and a real PNG, is an avatar.
    const good = await rawUpload(alunoJwt, 'avatars', name, 'image/png; charset=binary', PNG);
    expect(good.status).toBe(200);
    expect(await countObjects(backend, 'avatars', name)).toBe(1);
  });

  it('refuses HTML bytes declared as a PNG (or as a PDF), and keeps the avatar it would have replaced', async () => {
    const name = `${USER.aluno}/foto.png`;
    expect((await rawUpload(alunoJwt, 'avatars', name, 'image/png', PNG)).status).toBe(200);
    const html = await rawUpload(alunoJwt, 'avatars', name, 'image/png', SCRIPT_HTML);
    expect(html.status).toBe(415);
    expect(await html.json()).toMatchObject({ error: 'invalid_mime_type' });
    const jpeg = await aluno.storage.from('avatars').upload(`${USER.aluno}/foto.jpg`, new Blob([SCRIPT_HTML], { type: 'image/jpeg' }));
    expect(jpeg.error).toMatchObject({ statusCode: '415' });
    expect(await countObjects(backend, 'avatars', `${USER.aluno}/foto.jpg`)).toBe(0);
    const served = await fetch(publicUrl('avatars', name));
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const adminJwt = (await admin.auth.getSession()).data.session!.access_token;
    const pdfPath = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/falso.pdf`;
    expect((await rawUpload(adminJwt, 'lesson-materials', pdfPath, 'application/pdf', SCRIPT_HTML)).status).toBe(415);
    expect(await countObjects(backend, 'lesson-materials', pdfPath)).toBe(0);
  });

  it('serves every stored object with nosniff and a sandboxing CSP; a legacy text/html type as text/plain', async () => {
    await seedLegacyObject('avatars', `${USER.aluno}/legado.svg`, 'image/svg+xml', SCRIPT_SVG);
    await seedLegacyObject('avatars', `${USER.aluno}/legado.png`, 'image/png, text/html', SCRIPT_HTML);
    const svg = await fetch(publicUrl('avatars', `${USER.aluno}/legado.svg`));
    expect(svg.status).toBe(200);
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
    expect(svg.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    const html = await fetch(publicUrl('avatars', `${USER.aluno}/legado.png`));
    expect(html.headers.get('content-type')).toBe('text/plain');
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    // Signed and authenticated downloads carry the same headers.
    const { data } = await backend.service().storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, 60);
    const video = await fetch(data!.signedUrl);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(video.headers.get('x-content-type-options')).toBe('nosniff');
    expect(video.headers.get('content-security-policy')).toMatch(/sandbox/);
  });

  it('in Chromium, no script runs from an uploaded or a legacy SVG or HTML object', { timeout: 60_000 }, async () => {
    // The upload attempts (refused now) and their public URLs.
    await rawUpload(alunoJwt, 'avatars', `${USER.aluno}/ataque.svg`, 'image/svg+xml', SCRIPT_SVG);
    await rawUpload(alunoJwt, 'avatars', `${USER.aluno}/ataque.png`, 'image/png, text/html', SCRIPT_HTML);
    expect(await scriptRanAt(publicUrl('avatars', `${USER.aluno}/ataque.svg`))).toBe(false);
    expect(await scriptRanAt(publicUrl('avatars', `${USER.aluno}/ataque.png`))).toBe(false);
    // Objects stored before the fix, straight in the database and the storage folder.
    await seedLegacyObject('avatars', `${USER.aluno}/antigo.svg`, 'image/svg+xml', SCRIPT_SVG);
    await seedLegacyObject('avatars', `${USER.aluno}/antigo.png`, 'image/png, text/html', SCRIPT_HTML);
    await seedLegacyObject('avatars', `${USER.aluno}/antigo.html`, 'text/html', SCRIPT_HTML);
    await seedLegacyObject('avatars', `${USER.aluno}/antigo.xml`, 'application/xhtml+xml', `<html xmlns="http://www.w3.org/1999/xhtml"><body><script>document.title = 'EXECUTOU'</script></body></html>`);
    for (const file of ['antigo.svg', 'antigo.png', 'antigo.html', 'antigo.xml']) {
      expect(await scriptRanAt(publicUrl('avatars', `${USER.aluno}/${file}`)), file).toBe(false);
    }
  });
});

describe('copy and move into another bucket', () => {
  it('a student cannot copy a paid lesson video into its avatar folder; nothing is public afterwards', async () => {
    const dest = `${USER.aluno}/aula.png`;
    const { error } = await aluno.storage.from('lesson-videos').copy(OBJECT.lessonVideo, dest, { destinationBucket: 'avatars' });
    expect(error).not.toBeNull();
    expect(await countObjects(backend, 'avatars', dest)).toBe(0);
    expect((await fetch(publicUrl('avatars', dest))).status).toBe(404);
    // Nor the lesson's PNG material (an allowed avatar type), nor by moving it.
    expect((await aluno.storage.from('lesson-materials').copy(LESSON_PNG, `${USER.aluno}/grafico.png`, { destinationBucket: 'avatars' })).error).not.toBeNull();
    expect((await aluno.storage.from('lesson-materials').move(LESSON_PNG, `${USER.aluno}/grafico.png`, { destinationBucket: 'avatars' })).error).not.toBeNull();
    expect(await countObjects(backend, 'avatars', `${USER.aluno}/grafico.png`)).toBe(0);
    expect(await countObjects(backend, 'lesson-materials', LESSON_PNG)).toBe(1);
  });

  it('a student cannot copy or move a file it may read (an announcement video) into a public bucket', async () => {
    const dest = `${USER.aluna}/aviso.png`;
    const copy = await aluna.storage.from('announcement-videos').copy(ANNOUNCEMENT_VIDEO, dest, { destinationBucket: 'avatars' });
    expect(copy.error).toMatchObject({ statusCode: '415' });
    const move = await aluna.storage.from('announcement-videos').move(ANNOUNCEMENT_VIDEO, dest, { destinationBucket: 'avatars' });
    expect(move.error).not.toBeNull();
    expect(await countObjects(backend, 'avatars', dest)).toBe(0);
    expect(await countObjects(backend, 'announcement-videos', ANNOUNCEMENT_VIDEO)).toBe(1);
  });

  it('applies the destination’s types and size limit to staff too; staff may publish a fitting image', async () => {
    const video = await admin.storage.from('lesson-videos').copy(OBJECT.lessonVideo, `${SCHOOL.demo}/aula.png`, { destinationBucket: 'course-thumbnails' });
    expect(video.error).toMatchObject({ statusCode: '415' });
    const moved = await admin.storage.from('lesson-videos').move(OBJECT.lessonVideo, `${USER.adminDemo}/aula.png`, { destinationBucket: 'avatars' });
    expect(moved.error).toMatchObject({ statusCode: '415' });
    expect(await countObjects(backend, 'lesson-videos', OBJECT.lessonVideo)).toBe(1);
    const big = await admin.storage.from('lesson-materials').copy(BIG_PNG, `${USER.adminDemo}/grande.png`, { destinationBucket: 'avatars' });
    expect(big.error).toMatchObject({ statusCode: '413' });
    expect(await countObjects(backend, 'course-thumbnails', `${SCHOOL.demo}/aula.png`)).toBe(0);
    expect(await countObjects(backend, 'avatars', `${USER.adminDemo}/grande.png`)).toBe(0);
    // Staff publishing a lesson image as a course thumbnail of their school is theirs to decide.
    const ok = await admin.storage.from('lesson-materials').copy(LESSON_PNG, `${SCHOOL.demo}/grafico.png`, { destinationBucket: 'course-thumbnails' });
    expect(ok.error).toBeNull();
    expect(Buffer.from(await (await fetch(publicUrl('course-thumbnails', `${SCHOOL.demo}/grafico.png`))).arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('a move needs the destination’s insert policy: a student cannot move its avatar into a lesson folder', async () => {
    const own = `${USER.aluna}/avatar.png`;
    expect((await aluna.storage.from('avatars').upload(own, new Blob([PNG], { type: 'image/png' }), { upsert: true })).error).toBeNull();
    const dest = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelUpload}/intruso.png`;
    expect((await aluna.storage.from('avatars').move(own, dest, { destinationBucket: 'lesson-materials' })).error).not.toBeNull();
    expect((await aluna.storage.from('avatars').copy(own, dest, { destinationBucket: 'lesson-materials' })).error).not.toBeNull();
    expect(await countObjects(backend, 'lesson-materials', dest)).toBe(0);
    expect(await countObjects(backend, 'avatars', own)).toBe(1);
  });
});

describe('signed URLs of lesson files', () => {
  it('a student cannot sign a paid lesson file directly, for any lifetime', async () => {
    const year = 365 * 24 * 3600;
    expect((await aluno.storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, year)).error).not.toBeNull();
    expect((await aluno.storage.from('lesson-materials').createSignedUrl(OBJECT.lessonPdf, year)).error).not.toBeNull();
    expect((await aluno.storage.from('lesson-videos').createSignedUrls([OBJECT.lessonVideo], year)).data?.[0]?.signedUrl ?? null).toBeNull();
    expect((await aluno.storage.from('lesson-videos').download(OBJECT.lessonVideo)).data).toBeNull();
  });

  it('through sign-lesson-file, a year-long request gets at most the cap: video 4 h, material 1 h', async () => {
    const year = 365 * 24 * 3600;
    const video = await signLessonVideo(aluno, OBJECT.lessonVideo, year);
    expect(lifetimeOf(video)).toBe(4 * 3600);
    const res = await fetch(video);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    // (A PDF material is not signed for a student at all: material-stamp.test.ts.)
    const image = await signMaterial(aluno, LESSON_PNG, year);
    expect(lifetimeOf(image)).toBe(3600);
    expect((await fetch(image)).status).toBe(200);
    // A shorter request keeps its own lifetime.
    expect(lifetimeOf(await signLessonVideo(aluno, OBJECT.lessonVideo, 90))).toBe(90);
  });

  it('refuses students without access to the lesson, other schools, anon and other buckets', async () => {
    await expect(signLessonVideo(aluna, OBJECT.lessonVideo, 60)).rejects.toThrow();
    await expect(signMaterial(alunoRival, OBJECT.lessonPdf, 60)).rejects.toThrow();
    await expect(signLessonVideo(backend.anon(), OBJECT.lessonVideo, 60)).rejects.toThrow();
    const other = await aluno.functions.invoke('sign-lesson-file', { body: { bucket: 'avatars', path: `${USER.aluno}/avatar.png`, expiresIn: 60 } });
    expect(other.error).not.toBeNull();
    for (const body of [{}, { bucket: 'lesson-videos' }, { bucket: 'lesson-videos', path: OBJECT.lessonVideo, expiresIn: 'x' }, { bucket: 'lesson-videos', path: '../x', expiresIn: 60 }]) {
      const bad = await aluno.functions.invoke('sign-lesson-file', { body });
      expect(bad.error, JSON.stringify(body)).not.toBeNull();
      expect(bad.response?.status).toBeLessThan(500);
    }
    // Staff still sign their school's files (directly too).
    expect(lifetimeOf(await signLessonVideo(admin, OBJECT.lessonVideo, 60))).toBe(60);
    expect((await admin.storage.from('lesson-videos').createSignedUrl(OBJECT.lessonVideo, 60)).error).toBeNull();
  });
});

describe('the caps come from the function secrets', () => {
  const configured = useBackend({ functionSecrets: { LESSON_VIDEO_URL_MAX_SECONDS: '1800', LESSON_MATERIAL_URL_MAX_SECONDS: '300' } });

  it('uses LESSON_VIDEO_URL_MAX_SECONDS and LESSON_MATERIAL_URL_MAX_SECONDS', async () => {
    const client = await configured.signIn(EMAIL.aluno);
    const { error } = await configured.service().storage.from('lesson-materials').upload(LESSON_PNG, PNG, { contentType: 'image/png' });
    if (error) throw error;
    await configured.sql(`insert into public.materials (course_id, lesson_id, title, type, file_path) values ($1, $2, 'Gráfico', 'OTHER', $3)`, [
      COURSE.excel, LESSON.excelUpload, LESSON_PNG,
    ]);
    expect(lifetimeOf(await signLessonVideo(client, OBJECT.lessonVideo, 24 * 3600))).toBe(1800);
    expect(lifetimeOf(await signMaterial(client, LESSON_PNG, 24 * 3600))).toBe(300);
  });
});
