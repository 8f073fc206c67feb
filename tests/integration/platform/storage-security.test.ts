// What an attacker sees: RLS on storage.objects denies what the policies forbid, hostile object
// names and paths are refused and change nothing on disk or in the database, bad JWTs are refused.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../../local-supabase/jwt.ts';
import { LOCAL_JWT_SECRET } from '../../../local-supabase/config.ts';
import { ANON_KEY, useBackend, type JwtUser } from '../harness.ts';
import { countObjects, STORAGE_FIXTURE_SQL } from '../storage-helpers.ts';

const backend = useBackend({ sql: STORAGE_FIXTURE_SQL });
let alice: JwtUser;
let bob: JwtUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([backend.jwtUser(), backend.jwtUser()]);
  await alice.client.storage.from('fx-private').upload(`${alice.id}/diary.txt`, new Blob(['dear diary'], { type: 'text/plain' }));
});

const text = (s: string) => new Blob([s], { type: 'text/plain' });

/** Every file under the server's storage folder (to prove nothing was written anywhere). */
async function filesOnDisk(): Promise<string[]> {
  const root = path.dirname(backend.server.ctx.storageDir);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

describe('RLS on storage.objects', () => {
  it('denies an upload into another user’s folder with 403 and writes nothing', async () => {
    const before = await filesOnDisk();
    const { error } = await bob.client.storage.from('fx-private').upload(`${alice.id}/planted.txt`, text('evil'));
    expect(error).toMatchObject({ status: 403, statusCode: '403', message: 'new row violates row-level security policy' });
    expect(await countObjects(backend, 'fx-private', `${alice.id}/planted.txt`)).toBe(0);
    expect(await filesOnDisk()).toEqual(before);
  });

  it('denies anonymous uploads', async () => {
    const { error } = await backend.anon().storage.from('fx-private').upload('anon.txt', text('x'));
    expect(error).toMatchObject({ status: 403 });
    const pub = await backend.anon().storage.from('fx-public').upload('anon.txt', text('x'));
    expect(pub.error).toMatchObject({ status: 403 });
  });

  it('hides other users’ objects from download, list, info and signing', async () => {
    const bucket = bob.client.storage.from('fx-private');
    expect((await bucket.download(`${alice.id}/diary.txt`)).error).toMatchObject({ status: 404 });
    expect((await bucket.list(alice.id)).data).toEqual([]);
    expect((await bucket.info(`${alice.id}/diary.txt`)).error).toMatchObject({ status: 404 });
    expect((await bucket.createSignedUrl(`${alice.id}/diary.txt`, 60)).error).toMatchObject({ status: 404 });
    const anon = await fetch(`${backend.url}/storage/v1/object/authenticated/fx-private/${alice.id}/diary.txt`, {
      headers: { apikey: ANON_KEY },
    });
    expect(anon.status).toBe(404);
  });

  it('does not let a user remove or overwrite another user’s object', async () => {
    const target = `${alice.id}/diary.txt`;
    const removed = await bob.client.storage.from('fx-private').remove([target]);
    expect(removed).toEqual({ data: [], error: null });
    const one = await fetch(`${backend.url}/storage/v1/object/fx-private/${target}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${bob.jwt}` },
    });
    expect(one.status).toBe(404);
    const overwrite = await bob.client.storage.from('fx-private').upload(target, text('overwritten'), { upsert: true });
    expect(overwrite.error).toMatchObject({ status: 403 });
    const put = await bob.client.storage.from('fx-private').update(target, text('overwritten'));
    expect(put.error).toMatchObject({ status: 403 });
    expect(await (await alice.client.storage.from('fx-private').download(target)).data!.text()).toBe('dear diary');
  });

  it('lets an insert-only policy upload, but upsert needs update and select too (as in Storage)', async () => {
    const bucket = alice.client.storage.from('fx-dropbox');
    expect((await bucket.upload('drop/1.txt', text('1'))).error).toBeNull();
    expect((await bucket.download('drop/1.txt')).error).toMatchObject({ status: 404 });
    expect((await bucket.upload('drop/1.txt', text('2'), { upsert: true })).error).toMatchObject({ status: 403 });
    expect((await bucket.remove(['drop/1.txt'])).data).toEqual([]);
    expect(await countObjects(backend, 'fx-dropbox', 'drop/1.txt')).toBe(1);
  });

  it('lets the service role bypass RLS', async () => {
    const service = backend.service().storage.from('fx-private');
    expect(await (await service.download(`${alice.id}/diary.txt`)).data!.text()).toBe('dear diary');
    expect((await service.upload('service/owned.txt', text('svc'))).error).toBeNull();
    expect((await service.remove(['service/owned.txt'])).data).toHaveLength(1);
  });

  it('records the uploader as owner (auth.uid())', async () => {
    const { rows } = await backend.server.ctx.engine.query<{ owner: string; owner_id: string }>(
      `select owner::text, owner_id from storage.objects where bucket_id = 'fx-private' and name = $1`,
      [`${alice.id}/diary.txt`],
    );
    expect(rows[0]).toEqual({ owner: alice.id, owner_id: alice.id });
  });
});

describe('hostile names and paths', () => {
  const raw = (p: string, init: RequestInit = {}) =>
    fetch(`${backend.url}/storage/v1/${p}`, {
      ...init,
      headers: { Authorization: `Bearer ${alice.jwt}`, 'Content-Type': 'text/plain', ...init.headers },
    });

  it('refuses traversal, absolute, backslash, NUL and empty-segment names with 400 Invalid key', async () => {
    const before = await filesOnDisk();
    const names = [
      `${alice.id}/..%2F..%2F..%2Fescape.txt`,
      `${alice.id}%2F..%2F..%2Fescape.txt`,
      `..%2F..%2Fescape.txt`,
      `${alice.id}/a%5C..%5C..%5Cescape.txt`,
      `${alice.id}/nul%00.txt`,
      `${alice.id}//double.txt`,
      `%2Fetc%2Fpasswd`,
      `${alice.id}/trailing/`,
      `${alice.id}/%2e%2e%2fescape.txt`,
    ];
    for (const name of names) {
      const res = await raw(`object/fx-private/${name}`, { method: 'POST', body: 'pwned' });
      expect(res.status, name).toBe(400);
      expect(await res.json(), name).toMatchObject({ statusCode: '400', error: 'InvalidKey', message: expect.stringMatching(/^Invalid key/) });
    }
    expect(await filesOnDisk()).toEqual(before);
    const { rows } = await backend.server.ctx.engine.query<{ n: number }>(
      `select count(*)::int as n from storage.objects where name like '%escape%' or name like '%pwned%' or name like '%passwd%'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses traversal through supabase-js names and in every other endpoint', async () => {
    const bucket = alice.client.storage.from('fx-private');
    const before = await filesOnDisk();
    const up = await bucket.upload(`${alice.id}/../../../../tmp/pwned.txt`, text('pwned'));
    expect(up.error).not.toBeNull();
    const down = await bucket.download(`${alice.id}/../../../../etc/passwd`);
    expect(down.error).not.toBeNull();
    const mv = await bucket.move(`${alice.id}/diary.txt`, `${alice.id}/../../escape.txt`);
    expect(mv.error).toMatchObject({ status: 400 });
    const cp = await bucket.copy(`${alice.id}/diary.txt`, `../escape.txt`);
    expect(cp.error).toMatchObject({ status: 400 });
    for (const p of [
      `object/authenticated/fx-private/..%2F..%2Fobjects`,
      `object/sign/fx-private/..%2F..%2Fx?token=abc`,
      `object/public/fx-public/..%2F..%2F..%2Fetc%2Fpasswd`,
      `object/info/fx-private/..%2Fx`,
    ]) {
      const res = await raw(p);
      expect(res.status, p).toBe(400);
    }
    const bucketTraversal = await raw(`object/..%2Ffx-private/x.txt`, { method: 'POST', body: 'x' });
    expect(bucketTraversal.status).toBeGreaterThanOrEqual(400);
    expect(await filesOnDisk()).toEqual(before);
    expect(await (await bucket.download(`${alice.id}/diary.txt`)).data!.text()).toBe('dear diary');
  });

  it('stores bytes by server-made version ids, never under the object name', async () => {
    await alice.client.storage.from('fx-private').upload(`${alice.id}/name-not-on-disk.txt`, text('x'));
    const files = await filesOnDisk();
    expect(files.some((f) => f.includes('name-not-on-disk'))).toBe(false);
    for (const f of files.filter((f) => f.includes(`${path.sep}objects${path.sep}`))) {
      expect(path.basename(f)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('JWTs', () => {
  it('refuses forged and expired tokens', async () => {
    const forged = await signJwt({ sub: alice.id, role: 'authenticated' }, 'not-the-secret-but-long-enough-to-sign', 3600);
    const expired = await signJwt({ sub: alice.id, role: 'authenticated' }, LOCAL_JWT_SECRET, -10);
    for (const token of [forged, expired, 'not.a.jwt']) {
      const res = await fetch(`${backend.url}/storage/v1/object/authenticated/fx-private/${alice.id}/diary.txt`, {
        headers: { Authorization: `Bearer ${token}`, apikey: ANON_KEY },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });
      const up = await fetch(`${backend.url}/storage/v1/object/fx-private/${alice.id}/forged.txt`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
        body: 'forged',
      });
      expect(up.status).toBe(403);
    }
    expect(await countObjects(backend, 'fx-private', `${alice.id}/forged.txt`)).toBe(0);
  });
});
