// local-supabase over HTTPS with HTTP/2 (config.tls), as the hosted API is served and as
// `npm run bench:lighthouse` measures the pages: the same routes and the same refusals over one
// multiplexed connection, seeded URLs pointing at it, and functions (reached over HTTP/1.1 inside)
// getting the browser's request without HTTP/2's pseudo-headers.
import { readFileSync } from 'node:fs';
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, SEED_PASSWORD, useBackend } from '../harness.ts';

const TLS_DIR = path.join(import.meta.dirname, '..', '..', '..', 'scripts', 'tls');
const CERT = path.join(TLS_DIR, 'localhost-cert.pem');
const VIDEO = {
  bucket: 'lesson-videos',
  path: '5c000000-0000-4000-8000-000000000001/c0000000-0000-4000-8000-000000000001/e0000000-0000-4000-8000-000000000003/formulas-basicas.mp4',
};

const backend = useBackend({
  tls: { port: 0, certFile: CERT, keyFile: path.join(TLS_DIR, 'localhost-key.pem') },
});
let session: ClientHttp2Session;

beforeAll(async () => {
  session = connect(backend.url, { ca: readFileSync(CERT) });
}, 60_000);
afterAll(async () => {
  session?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json: () => unknown;
}

/** One request over the shared HTTP/2 connection. */
function h2(
  method: string,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': method,
      ':path': pathAndQuery,
      apikey: ANON_KEY,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    });
    const chunks: Buffer[] = [];
    let head: IncomingHttpHeaders = {};
    stream.on('response', (h) => (head = h));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const all = Buffer.concat(chunks);
      resolve({
        status: Number(head[':status']),
        headers: head,
        body: all,
        json: () => JSON.parse(all.toString('utf8')),
      });
    });
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function accessToken(email: string): Promise<string> {
  const r = await h2('POST', '/auth/v1/token?grant_type=password', {}, { email, password: SEED_PASSWORD });
  expect(r.status).toBe(200);
  return (r.json() as { access_token: string }).access_token;
}

describe('local-supabase over HTTPS and HTTP/2', () => {
  it('answers the API over HTTP/2, and the seeded URLs point at the HTTPS listener', async () => {
    expect(backend.url).toMatch(/^https:\/\/localhost:\d+$/);
    const r = await h2('GET', '/rest/v1/schools?select=slug,login_banner_url&slug=eq.escola-demo');
    expect(r.status).toBe(200);
    expect(session.alpnProtocol).toBe('h2');
    const [school] = r.json() as { slug: string; login_banner_url: string }[];
    expect(school!.login_banner_url).toBe(
      `${backend.url}/storage/v1/object/public/school-banners/5c000000-0000-4000-8000-000000000001/login-banner.jpg`,
    );

    // The banner at a phone's width, as the SPA asks for it: transformed, and WebP for a browser that takes it.
    const render = new URL(school!.login_banner_url.replace('/object/public/', '/render/image/public/'));
    const image = await h2('GET', `${render.pathname}?width=480`, { accept: 'image/avif,image/webp,*/*' });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('runs a function for a signed-in student, with the request it would get over HTTP/1.1', async () => {
    const token = await accessToken('aluno@escola-demo.com.br');
    const r = await h2('POST', '/functions/v1/sign-lesson-file', { authorization: `Bearer ${token}` }, VIDEO);
    expect(r.status).toBe(200);
    const { signedUrl } = r.json() as { signedUrl: string };
    expect(signedUrl).toMatch(/^\/storage\/v1\/object\/sign\/lesson-videos\/.+formulas-basicas\.mp4\?token=/);
    const video = await h2('GET', `/storage/v1${signedUrl.replace(/^\/storage\/v1/, '')}`, { range: 'bytes=0-99' });
    expect(video.status).toBe(206);
    expect(video.body.length).toBe(100);
  });

  it('refuses over HTTP/2 what it refuses over HTTP/1.1: an anonymous caller, a forged token, a student of another school', async () => {
    const anonymous = await h2('POST', '/functions/v1/sign-lesson-file', {}, VIDEO);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json()).toEqual({ msg: 'Error: Missing authorization header' });

    const forged = await h2(
      'POST',
      '/functions/v1/sign-lesson-file',
      { authorization: `Bearer ${ANON_KEY.slice(0, -4)}AAAA` },
      VIDEO,
    );
    expect(forged.status).toBe(401);

    const other = await accessToken('aluno@academia-rival.com.br');
    const refused = await h2('POST', '/functions/v1/sign-lesson-file', { authorization: `Bearer ${other}` }, VIDEO);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(JSON.stringify(refused.json())).not.toContain('token=');

    const rows = await h2('GET', '/rest/v1/lesson_contents?select=lesson_id,video_url', {
      authorization: `Bearer ${other}`,
    });
    expect(rows.status).toBe(200);
    expect((rows.json() as { lesson_id: string }[]).map((l) => l.lesson_id)).not.toContain(
      'e0000000-0000-4000-8000-000000000003',
    );
  });
});
