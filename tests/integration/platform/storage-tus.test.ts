// Resumable uploads (TUS 1.0) at /storage/v1/upload/resumable, driven with plain fetch exactly as
// tus-js-client speaks the protocol, with Supabase's Upload-Metadata keys and small chunks.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend, type JwtUser } from '../harness.ts';
import { countObjects, STORAGE_FIXTURE_SQL } from '../storage-helpers.ts';

const backend = useBackend({ sql: STORAGE_FIXTURE_SQL });
let alice: JwtUser;
let bob: JwtUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([backend.jwtUser(), backend.jwtUser()]);
});

const endpoint = () => `${backend.url}/storage/v1/upload/resumable`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

function metadata(m: Record<string, string>): string {
  return Object.entries(m)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');
}

async function create(user: JwtUser, size: number, meta: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(endpoint(), {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${user.jwt}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
      'Upload-Metadata': metadata(meta),
      ...headers,
    },
  });
}

async function patch(user: JwtUser, location: string, offset: number, chunk: Buffer) {
  return fetch(location, {
    method: 'PATCH',
    headers: {
      Authorization: `Bearer ${user.jwt}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(chunk),
  });
}

async function head(user: JwtUser, location: string) {
  return fetch(location, { method: 'HEAD', headers: { Authorization: `Bearer ${user.jwt}`, 'Tus-Resumable': '1.0.0' } });
}

function pattern(size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 7) % 251;
  return b;
}

describe('TUS resumable uploads', () => {
  it('uploads in small chunks, resumes from HEAD’s offset, and stores the object', async () => {
    const file = pattern(300_000);
    const name = `${alice.id}/videos/aula-1.mp4`;
    const created = await create(alice, file.length, {
      bucketName: 'fx-private',
      objectName: name,
      contentType: 'video/mp4',
      cacheControl: '3600',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    const location = created.headers.get('location')!;
    expect(location).toMatch(/\/storage\/v1\/upload\/resumable\/[\w-]+$/);

    const chunk = 64 * 1024;
    let offset = 0;
    // Send two chunks, then "lose" the client and ask the server where to resume.
    for (let i = 0; i < 2; i++) {
      const res = await patch(alice, location, offset, file.subarray(offset, offset + chunk));
      expect(res.status).toBe(204);
      offset = Number(res.headers.get('upload-offset'));
    }
    expect(offset).toBe(2 * chunk);
    expect(await countObjects(backend, 'fx-private', name)).toBe(0); // not visible until complete

    const resumed = await head(alice, location);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('upload-length')).toBe(String(file.length));
    offset = Number(resumed.headers.get('upload-offset'));
    expect(offset).toBe(2 * chunk);

    // A wrong offset is a conflict and changes nothing.
    expect((await patch(alice, location, 10, file.subarray(10, 20))).status).toBe(409);

    while (offset < file.length) {
      const res = await patch(alice, location, offset, file.subarray(offset, offset + chunk));
      expect(res.status).toBe(204);
      offset = Number(res.headers.get('upload-offset'));
    }
    expect(offset).toBe(file.length);

    const { data, error } = await alice.client.storage.from('fx-private').download(name);
    expect(error).toBeNull();
    expect(data!.type).toBe('video/mp4');
    expect(Buffer.from(await data!.arrayBuffer()).equals(file)).toBe(true);
    const { data: info } = await alice.client.storage.from('fx-private').info(name);
    expect(info).toMatchObject({
      size: file.length,
      cacheControl: 'max-age=3600',
      etag: `"${createHash('md5').update(file).digest('hex')}"`,
    });
    const { rows } = await backend.server.ctx.engine.query<{ owner: string }>(
      'select owner::text from storage.objects where bucket_id = $1 and name = $2',
      [`fx-private`, name],
    );
    expect(rows[0].owner).toBe(alice.id);

    // Nothing is left behind in the TUS staging folder.
    const tusDir = path.join(backend.server.ctx.storageDir, 'tus');
    expect(await readdir(tusDir)).toEqual([]);
  });

  it('supports creation-with-upload and x-upsert', async () => {
    const name = `${alice.id}/one-shot.txt`;
    await alice.client.storage.from('fx-private').upload(name, new Blob(['old'], { type: 'text/plain' }));
    const dup = await create(alice, 3, { bucketName: 'fx-private', objectName: name, contentType: 'text/plain' });
    expect(dup.status).toBe(409);
    const res = await fetch(endpoint(), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${alice.jwt}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '3',
        'Upload-Metadata': metadata({ bucketName: 'fx-private', objectName: name, contentType: 'text/plain' }),
        'Content-Type': 'application/offset+octet-stream',
        'x-upsert': 'true',
      },
      body: 'new',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('upload-offset')).toBe('3');
    expect(await (await alice.client.storage.from('fx-private').download(name)).data!.text()).toBe('new');
  });

  it('checks RLS before accepting an upload', async () => {
    const res = await create(bob, 10, { bucketName: 'fx-private', objectName: `${alice.id}/planted.bin`, contentType: 'text/plain' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    expect(await readdir(path.join(backend.server.ctx.storageDir, 'tus'))).toEqual([]);
  });

  it('checks RLS again when the upload completes', async () => {
    const name = `${alice.id}/revoked.bin`;
    const created = await create(alice, 8, { bucketName: 'fx-private', objectName: name, contentType: 'text/plain' });
    expect(created.status).toBe(201);
    // The policy goes away mid-upload: the final insert is refused and nothing is stored.
    await backend.server.ctx.engine.exec('alter policy fx_private_insert on storage.objects with check (false)');
    try {
      const res = await patch(alice, created.headers.get('location')!, 0, Buffer.from('12345678'));
      expect(res.status).toBe(403);
    } finally {
      await backend.server.ctx.engine.exec(`alter policy fx_private_insert on storage.objects
        with check (bucket_id = 'fx-private' and (storage.foldername(name))[1] = (select auth.uid())::text)`);
    }
    expect(await countObjects(backend, 'fx-private', name)).toBe(0);
    expect(await readdir(path.join(backend.server.ctx.storageDir, 'tus'))).toEqual([]);
  });

  it('enforces the bucket’s size and type limits', async () => {
    const big = await create(alice, 5000, { bucketName: 'fx-limited', objectName: 'big.txt', contentType: 'text/plain' });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ statusCode: '413', error: 'Payload too large' });
    const pdf = await create(alice, 10, { bucketName: 'fx-limited', objectName: 'doc.pdf', contentType: 'application/pdf' });
    expect(pdf.status).toBe(415);
    expect(await pdf.json()).toMatchObject({ message: 'mime type application/pdf is not supported' });
  });

  it('refuses hostile object names and unknown buckets', async () => {
    for (const objectName of [`${alice.id}/../../escape.bin`, '/etc/passwd', `${alice.id}/a\\b`, '']) {
      const res = await create(alice, 4, { bucketName: 'fx-private', objectName, contentType: 'text/plain' });
      expect(res.status, objectName).toBe(400);
    }
    const noBucket = await create(alice, 4, { bucketName: 'nope', objectName: `${alice.id}/x`, contentType: 'text/plain' });
    expect(noBucket.status).toBe(404);
    expect(await readdir(path.join(backend.server.ctx.storageDir, 'tus'))).toEqual([]);
  });

  it('does not let another user see, continue or cancel someone’s upload; the owner can cancel it', async () => {
    const created = await create(alice, 100, { bucketName: 'fx-private', objectName: `${alice.id}/mine.bin`, contentType: 'text/plain' });
    const location = created.headers.get('location')!;
    expect((await head(bob, location)).status).toBe(403);
    expect((await patch(bob, location, 0, Buffer.alloc(100))).status).toBe(403);
    const bobDelete = await fetch(location, { method: 'DELETE', headers: { Authorization: `Bearer ${bob.jwt}`, 'Tus-Resumable': '1.0.0' } });
    expect(bobDelete.status).toBe(403);
    expect(Number((await head(alice, location)).headers.get('upload-offset'))).toBe(0);

    const del = await fetch(location, { method: 'DELETE', headers: { Authorization: `Bearer ${alice.jwt}`, 'Tus-Resumable': '1.0.0' } });
    expect(del.status).toBe(204);
    expect((await head(alice, location)).status).toBe(404);
  });
});
