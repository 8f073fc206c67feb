// JWT signing keys (issue 37): a project with `[auth] signing_keys_path` (a key file as `supabase gen
// signing-key` writes it) gets ES256 access tokens naming their key by kid, published at
// /auth/v1/.well-known/jwks.json, which supabase-js's getClaims() verifies locally; REST, storage and
// the edge functions accept them, and the anon and service-role keys stay HS256, as on the platform.
// Without signing keys (this project's config) tokens stay HS256 and the JWKS lists nothing.
import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT, importJWK, type JWK } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { authFetch, jwtPayload, projectWithConfig } from '../auth-helpers.ts';
import { ANON_KEY, SEED_PASSWORD, SERVICE_ROLE_KEY, useBackend, type BackendLike } from '../harness.ts';

const STUDENT = { id: 'a0000000-0000-4000-8000-000000000011', email: 'aluno@escola-demo.com.br' };
const RIVAL_STUDENT = 'aluno@academia-rival.com.br';
const ADMIN = 'admin@escola-demo.com.br';
const SCHOOL = '5c000000-0000-4000-8000-000000000001';
const LESSON = 'e0000000-0000-4000-8000-000000000003';
const VIDEO = {
  bucket: 'lesson-videos',
  path: `${SCHOOL}/c0000000-0000-4000-8000-000000000001/${LESSON}/formulas-basicas.mp4`,
};
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A private key as `supabase gen signing-key --algorithm <alg>` writes it. */
function cliKey(alg: 'ES256' | 'RS256', keyOps: string[]) {
  const { privateKey } =
    alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', key_ops: keyOps, alg, ext: true } satisfies JWK;
}

// The signing key, and a retired one kept to verify the tokens it signed before a rotation.
const SIGNING = cliKey('ES256', ['sign', 'verify']);
const RETIRED = cliKey('RS256', ['verify']);

const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** A client that notes the URLs it fetched (to tell a local getClaims() from a server round trip). */
function recordingClient(backend: BackendLike) {
  const urls: string[] = [];
  const client = createClient(backend.url, ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        return fetch(input, init);
      },
    },
  });
  return { client, urls };
}

async function signedIn(backend: BackendLike, email: string): Promise<{ client: SupabaseClient; token: string; urls: string[] }> {
  const { client, urls } = recordingClient(backend);
  const { data, error } = await client.auth.signInWithPassword({ email, password: SEED_PASSWORD });
  expect(error).toBeNull();
  return { client, token: data.session!.access_token, urls };
}

const restAs = (backend: BackendLike, token: string, pathAndQuery: string, init: RequestInit = {}) =>
  fetch(`${backend.url}/rest/v1${pathAndQuery}`, {
    ...init,
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });

describe('a project with asymmetric signing keys (signing_keys_path)', () => {
  const project = projectWithConfig({ auth: ['signing_keys_path = "./signing_keys.json"'] }, {
    'signing_keys.json': JSON.stringify([RETIRED, SIGNING], null, 2),
  });
  afterAll(() => project.remove()); // after the backend stops (after hooks run last-registered first)
  const backend = useBackend({ rootDir: project.dir });

  it('publishes the public halves of every key at /auth/v1/.well-known/jwks.json, never a private part', async () => {
    const res = await fetch(`${backend.url}/auth/v1/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    const { keys } = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toEqual([
      { kty: 'RSA', n: RETIRED.n, e: RETIRED.e, kid: RETIRED.kid, alg: 'RS256', use: 'sig', key_ops: ['verify'] },
      { kty: 'EC', crv: 'P-256', x: SIGNING.x, y: SIGNING.y, kid: SIGNING.kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
    ]);
  });

  it('signs in with an ES256 access token naming the signing key, which getClaims() verifies against the JWKS alone', async () => {
    const { client, token, urls } = await signedIn(backend, STUDENT.email);
    expect(header(token)).toEqual({ alg: 'ES256', kid: SIGNING.kid, typ: 'JWT' });
    expect(jwtPayload(token)).toMatchObject({ sub: STUDENT.id, role: 'authenticated', aal: 'aal1', iss: `${backend.url}/auth/v1` });

    urls.length = 0;
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data!.claims.sub).toBe(STUDENT.id);
    expect(data!.header.kid).toBe(SIGNING.kid);
    // Verified in the client with the published key: the JWKS was fetched, GoTrue's /user was not asked.
    expect(urls.map((u) => new URL(u).pathname)).toEqual(['/auth/v1/.well-known/jwks.json']);

    // A refreshed session is signed the same way.
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(header(refreshed.data.session!.access_token)).toMatchObject({ alg: 'ES256', kid: SIGNING.kid });
  });

  it('reads under RLS with the ES256 session: the enrolled student sees the lesson, the other school’s student does not', async () => {
    const own = await signedIn(backend, STUDENT.email);
    const mine = await own.client.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON);
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual([{ lesson_id: LESSON }]);
    const rival = await signedIn(backend, RIVAL_STUDENT);
    const theirs = await rival.client.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON);
    expect(theirs.error).toBeNull();
    expect(theirs.data).toEqual([]);
    // The API keys stay HS256 and keep working beside the ES256 tokens.
    expect(header(ANON_KEY).alg).toBe('HS256');
    const anon = await backend.anon().from('schools').select('slug').eq('id', SCHOOL);
    expect(anon.data).toEqual([{ slug: 'escola-demo' }]);
    const service = await backend.service().from('profiles').select('id').eq('id', STUDENT.id);
    expect(service.data).toEqual([{ id: STUDENT.id }]);
  });

  it('signs a storage URL of the student’s own avatar with the ES256 session, and the URL serves the file', async () => {
    const { client } = await signedIn(backend, STUDENT.email);
    const file = `${STUDENT.id}/chave-assimetrica.png`;
    const up = await client.storage.from('avatars').upload(file, PNG, { contentType: 'image/png', upsert: true });
    expect(up.error).toBeNull();
    const signed = await client.storage.from('avatars').createSignedUrl(file, 60);
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    // Another school's student may not sign it (storage.objects RLS under their ES256 token).
    const rival = await signedIn(backend, RIVAL_STUDENT);
    expect((await rival.client.storage.from('avatars').createSignedUrl(file, 60)).error).not.toBeNull();
  });

  it('calls edge functions with the ES256 session: the gateway, the call back to REST as the caller, and _shared/requireStaff', async () => {
    const { client } = await signedIn(backend, STUDENT.email);
    const lesson = await client.functions.invoke('sign-lesson-file', { body: VIDEO });
    expect(lesson.error).toBeNull();
    const video = await fetch(`${backend.url}${(lesson.data as { signedUrl: string }).signedUrl}`, { headers: { range: 'bytes=0-9' } });
    expect(video.status).toBe(206);
    expect((await video.arrayBuffer()).byteLength).toBe(10);

    const admin = await signedIn(backend, ADMIN);
    const preview = await admin.client.functions.invoke('email-preview', { body: { school_id: SCHOOL } });
    expect(preview.error).toBeNull();
    expect(preview.data).toEqual({ smtp_configured: true });
    const refused = await client.functions.invoke('email-preview', { body: { school_id: SCHOOL } });
    expect((refused.error as { context?: Response } | null)?.context?.status).toBe(403);

    // video-playback verifies an asymmetric token itself, against the project's keys (issue 39), and the
    // database takes it as the student's sign-in: the session is theirs (this backend has no video host, so
    // no URL follows). Fórmulas básicas's neighbour lesson, so the seeded video above stays the lesson's.
    const hosted = 'e0000000-0000-4000-8000-000000000004';
    await backend.sql(`select public.record_lesson_video_upload($1, 'bunny', 'guid-chave-assimetrica')`, [hosted]);
    await backend.sql(`select public.record_lesson_video_status('bunny', 'guid-chave-assimetrica', 'ready', 100, array['360p'], 10)`);
    const playing = await client.functions.invoke('video-playback', { body: { lessonId: hosted, action: 'start', deviceId: 'notebook' } });
    expect((playing.error as { context?: Response } | null)?.context?.status).toBe(409);
    expect(await (playing.error as { context: Response }).context.json()).toMatchObject({ code: 'no_video_host' });
    expect(await backend.sql(`select lesson_id from private.playback_sessions where user_id = $1`, [STUDENT.id])).toEqual([{ lesson_id: hosted }]);
  });

  it('still accepts a token of the retired key (a session from before the rotation)', async () => {
    const before = await new SignJWT({ sub: STUDENT.id, role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'RS256', kid: RETIRED.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(createPrivateKey({ key: RETIRED, format: 'jwk' })); // its key_ops say verify: WebCrypto would not sign
    const res = await restAs(backend, before, `/lesson_contents?select=lesson_id&lesson_id=eq.${LESSON}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ lesson_id: LESSON }]);
  });

  it('refuses tokens forged under the signing key’s kid (another key, or HS256 keyed with the public key) everywhere, and they change nothing', async () => {
    const forger = cliKey('ES256', ['sign']);
    const claims = { sub: STUDENT.id, role: 'service_role', aud: 'authenticated' };
    const otherKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: SIGNING.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(await importJWK(forger, 'ES256'));
    const publicJwk = ((await (await fetch(`${backend.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: object[] }).keys[1]!;
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: SIGNING.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    const nameBefore = await backend.server.ctx.engine.query<{ name: string }>('select name from public.profiles where id = $1', [STUDENT.id]);

    for (const forged of [otherKey, confused]) {
      const write = await restAs(backend, forged, `/profiles?id=eq.${STUDENT.id}`, { method: 'PATCH', body: JSON.stringify({ name: 'Forjado' }) });
      expect(write.status).toBe(401);
      const upload = await fetch(`${backend.url}/storage/v1/object/avatars/${STUDENT.id}/forjado.png`, {
        method: 'POST',
        headers: { apikey: ANON_KEY, Authorization: `Bearer ${forged}`, 'Content-Type': 'image/png' },
        body: PNG,
      });
      expect(upload.status).toBe(403);
      const fn = await fetch(`${backend.url}/functions/v1/sign-lesson-file`, {
        method: 'POST',
        headers: { apikey: ANON_KEY, Authorization: `Bearer ${forged}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(VIDEO),
      });
      expect(fn.status).toBe(401);
      expect(await fn.json()).toEqual({ msg: 'Invalid JWT' });
      expect((await authFetch(backend.url, '/admin/users', { token: forged })).status).toBe(403);
    }
    const nameAfter = await backend.server.ctx.engine.query<{ name: string }>('select name from public.profiles where id = $1', [STUDENT.id]);
    expect(nameAfter.rows).toEqual(nameBefore.rows);
    const objects = await backend.server.ctx.engine.query(`select 1 from storage.objects where bucket_id = 'avatars' and name = $1`, [`${STUDENT.id}/forjado.png`]);
    expect(objects.rows).toEqual([]);
    // Control: the real service-role key does reach the admin API.
    expect((await authFetch(backend.url, '/admin/users?per_page=1', { token: SERVICE_ROLE_KEY })).status).toBe(200);
  });
});

describe('a project without signing keys (this project’s config)', () => {
  const backend = useBackend();

  it('signs HS256 access tokens without a kid, publishes no key, and getClaims() asks GoTrue instead', async () => {
    const jwks = await fetch(`${backend.url}/auth/v1/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(await jwks.json()).toEqual({ keys: [] });
    const { client, token, urls } = await signedIn(backend, STUDENT.email);
    expect(header(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    urls.length = 0;
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data!.claims.sub).toBe(STUDENT.id);
    expect(urls.map((u) => new URL(u).pathname)).toEqual(['/auth/v1/user']);
  });
});
