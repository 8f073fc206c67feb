// Storage through the real supabase-js client: upload, download, list, remove, upsert, signed URLs,
// ranges, public URLs, bucket limits and the bucket API.
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend, type JwtUser } from '../harness.ts';
import { countObjects, STORAGE_FIXTURE_SQL } from '../storage-helpers.ts';

/** The first bytes of a PNG (images are checked against their declared type). */
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const backend = useBackend({ sql: STORAGE_FIXTURE_SQL });
let alice: JwtUser;
let bob: JwtUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([backend.jwtUser(), backend.jwtUser()]);
});

const text = (s: string) => new Blob([s], { type: 'text/plain' });

describe('upload and download', () => {
  it('uploads a Blob (multipart, as a browser does) and downloads the same bytes', async () => {
    const path = `${alice.id}/notes/hello.txt`;
    const { data, error } = await alice.client.storage.from('fx-private').upload(path, text('olá, mundo'));
    expect(error).toBeNull();
    expect(data).toMatchObject({ path, fullPath: `fx-private/${path}` });
    expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);

    const down = await alice.client.storage.from('fx-private').download(path);
    expect(down.error).toBeNull();
    expect(await down.data!.text()).toBe('olá, mundo');
    expect(down.data!.type).toBe('text/plain');
  });

  it('uploads a raw Buffer with its content type and cache control (as Node does)', async () => {
    const path = `${alice.id}/raw.bin`;
    const bytes = Buffer.from([0, 1, 2, 3, 254, 255]);
    const { error } = await alice.client.storage
      .from('fx-private')
      .upload(path, bytes, { contentType: 'application/octet-stream', cacheControl: '120' });
    expect(error).toBeNull();
    const res = await fetch(`${backend.url}/storage/v1/object/authenticated/fx-private/${path}`, {
      headers: { Authorization: `Bearer ${alice.jwt}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('cache-control')).toBe('max-age=120');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);

    const { data: info } = await alice.client.storage.from('fx-private').info(path);
    expect(info).toMatchObject({ name: path, size: 6, contentType: 'application/octet-stream', cacheControl: 'max-age=120' });
    const { data: exists } = await alice.client.storage.from('fx-private').exists(path);
    expect(exists).toBe(true);
  });

  it('refuses to overwrite without upsert (409 Duplicate) and overwrites with upsert', async () => {
    const path = `${alice.id}/dup.txt`;
    const bucket = alice.client.storage.from('fx-private');
    expect((await bucket.upload(path, text('v1'))).error).toBeNull();

    const again = await bucket.upload(path, text('v2'));
    expect(again.error).toMatchObject({ message: 'The resource already exists', status: 409, statusCode: '409' });
    expect(await (await bucket.download(path)).data!.text()).toBe('v1');

    expect((await bucket.upload(path, text('v3'), { upsert: true })).error).toBeNull();
    expect(await (await bucket.download(path)).data!.text()).toBe('v3');
    expect((await bucket.update(path, text('v4'))).error).toBeNull();
    expect(await (await bucket.download(path)).data!.text()).toBe('v4');
    expect(await countObjects(backend, 'fx-private', path)).toBe(1);
  });

  it('answers 404 Object not found for a missing object and an unknown bucket', async () => {
    const missing = await alice.client.storage.from('fx-private').download(`${alice.id}/nope.txt`);
    expect(missing.error).toMatchObject({ status: 404 });
    const res = await fetch(`${backend.url}/storage/v1/object/authenticated/fx-private/${alice.id}/nope.txt`, {
      headers: { Authorization: `Bearer ${alice.jwt}` },
    });
    expect(await res.json()).toEqual({ statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: 'Object not found' });
    const noBucket = await alice.client.storage.from('no-such-bucket').upload(`${alice.id}/x.txt`, text('x'));
    expect(noBucket.error).toMatchObject({ message: 'Bucket not found', status: 404 });
  });
});

describe('ranges', () => {
  it('serves byte ranges with 206 and Content-Range so videos can seek', async () => {
    const path = `${alice.id}/video.mp4`;
    const bytes = Buffer.alloc(1000, 0);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 256;
    await alice.client.storage.from('fx-private').upload(path, bytes, { contentType: 'video/mp4' });
    const url = `${backend.url}/storage/v1/object/authenticated/fx-private/${path}`;
    const headers = { Authorization: `Bearer ${alice.jwt}` };

    const mid = await fetch(url, { headers: { ...headers, Range: 'bytes=100-199' } });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(mid.headers.get('accept-ranges')).toBe('bytes');
    expect(mid.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await mid.arrayBuffer())).toEqual(bytes.subarray(100, 200));

    const open = await fetch(url, { headers: { ...headers, Range: 'bytes=990-' } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer())).toEqual(bytes.subarray(990));

    const suffix = await fetch(url, { headers: { ...headers, Range: 'bytes=-10' } });
    expect(suffix.headers.get('content-range')).toBe('bytes 990-999/1000');

    const beyond = await fetch(url, { headers: { ...headers, Range: 'bytes=5000-6000' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */1000');

    const etag = mid.headers.get('etag')!;
    const cached = await fetch(url, { headers: { ...headers, 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
  });
});

describe('list and remove', () => {
  it('lists folders and files under a prefix, with limit, offset, search and sort', async () => {
    const bucket = alice.client.storage.from('fx-private');
    const root = `${alice.id}/course`;
    for (const name of ['b.txt', 'a.txt', 'c.txt', 'sub/deep.txt', 'sub2/x/y.txt']) {
      expect((await bucket.upload(`${root}/${name}`, text(name))).error).toBeNull();
    }
    const { data, error } = await bucket.list(root);
    expect(error).toBeNull();
    expect(data!.map((f) => f.name)).toEqual(['sub', 'sub2', 'a.txt', 'b.txt', 'c.txt']);
    expect(data![0]).toMatchObject({ id: null, metadata: null });
    expect(data![2].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data![2].metadata).toMatchObject({ size: 5, mimetype: 'text/plain', eTag: expect.any(String) });

    const page = await bucket.list(root, { limit: 2, offset: 2 });
    expect(page.data!.map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
    const desc = await bucket.list(root, { sortBy: { column: 'name', order: 'desc' } });
    expect(desc.data!.map((f) => f.name)).toEqual(['sub2', 'sub', 'c.txt', 'b.txt', 'a.txt']);
    const search = await bucket.list(root, { search: 'B' });
    expect(search.data!.map((f) => f.name)).toEqual(['b.txt']);
    const top = await bucket.list();
    expect(top.data!.map((f) => f.name)).toEqual([alice.id]);
  });

  it('removes many objects at once and returns what was removed', async () => {
    const bucket = alice.client.storage.from('fx-private');
    const paths = [`${alice.id}/rm/1.txt`, `${alice.id}/rm/2.txt`];
    for (const p of paths) await bucket.upload(p, text(p));
    const { data, error } = await bucket.remove([...paths, `${alice.id}/rm/missing.txt`]);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name).sort()).toEqual(paths);
    expect(await countObjects(backend, 'fx-private', paths[0])).toBe(0);
    expect((await bucket.download(paths[0])).error).toMatchObject({ status: 404 });
  });

  it('moves and copies objects', async () => {
    const bucket = alice.client.storage.from('fx-private');
    await bucket.upload(`${alice.id}/mv/a.txt`, text('move me'));
    expect((await bucket.move(`${alice.id}/mv/a.txt`, `${alice.id}/mv/b.txt`)).error).toBeNull();
    expect(await (await bucket.download(`${alice.id}/mv/b.txt`)).data!.text()).toBe('move me');
    expect((await bucket.download(`${alice.id}/mv/a.txt`)).error).toMatchObject({ status: 404 });

    const copy = await bucket.copy(`${alice.id}/mv/b.txt`, `${alice.id}/mv/c.txt`);
    expect(copy.error).toBeNull();
    expect(copy.data).toEqual({ path: `fx-private/${alice.id}/mv/c.txt` });
    expect(await (await bucket.download(`${alice.id}/mv/c.txt`)).data!.text()).toBe('move me');
    // Moving into another user's folder breaks the update policy's check.
    const stolen = await bucket.move(`${alice.id}/mv/c.txt`, `${bob.id}/c.txt`);
    expect(stolen.error).toMatchObject({ status: 403 });
    expect(await countObjects(backend, 'fx-private', `${bob.id}/c.txt`)).toBe(0);
  });
});

describe('public buckets and signed URLs', () => {
  it('serves public-bucket objects by public URL to anyone, never private ones', async () => {
    const path = `${alice.id}/avatar.png`;
    expect((await alice.client.storage.from('fx-public').upload(path, new Blob([PNG_BYTES], { type: 'image/png' }))).error).toBeNull();
    const { publicUrl } = backend.anon().storage.from('fx-public').getPublicUrl(path).data;
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_BYTES)).toBe(true);

    const dl = await fetch(backend.anon().storage.from('fx-public').getPublicUrl(path, { download: 'foto.png' }).data.publicUrl);
    expect(dl.headers.get('content-disposition')).toContain('attachment; filename="foto.png"');

    await alice.client.storage.from('fx-private').upload(`${alice.id}/secret.txt`, text('secret'));
    const priv = await fetch(backend.anon().storage.from('fx-private').getPublicUrl(`${alice.id}/secret.txt`).data.publicUrl);
    expect([400, 404]).toContain(priv.status);
    expect(await priv.text()).not.toContain('secret');
  });

  it('creates signed URLs only for visible objects, and they expire', async () => {
    const bucket = alice.client.storage.from('fx-private');
    const path = `${alice.id}/signed.txt`;
    await bucket.upload(path, text('signed content'));
    const { data, error } = await bucket.createSignedUrl(path, 60);
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain(`/storage/v1/object/sign/fx-private/${path}?token=`);
    const res = await fetch(data!.signedUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('signed content');

    const ranged = await fetch(data!.signedUrl, { headers: { Range: 'bytes=0-5' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('signed');

    const dl = await bucket.createSignedUrl(path, 60, { download: true });
    expect((await fetch(dl.data!.signedUrl)).headers.get('content-disposition')).toContain('attachment; filename="signed.txt"');

    // Bob cannot see Alice's folder, so he cannot sign it either.
    const bobs = await bob.client.storage.from('fx-private').createSignedUrl(path, 60);
    expect(bobs.error).toMatchObject({ status: 404 });

    // The token is bound to this object: reusing it for another path fails.
    const token = new URL(data!.signedUrl).searchParams.get('token');
    const other = await fetch(`${backend.url}/storage/v1/object/sign/fx-private/${alice.id}/dup.txt?token=${token}`);
    expect(other.status).toBe(400);
    const forged = await fetch(`${backend.url}/storage/v1/object/sign/fx-private/${path}?token=${token}x`);
    expect(forged.status).toBe(400);

    const short = await bucket.createSignedUrl(path, 1);
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await fetch(short.data!.signedUrl);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ message: 'jwt expired' });
  });

  it('creates signed upload URLs after an RLS check, and uploads through them as the signer', async () => {
    const path = `${alice.id}/via-signed-upload.txt`;
    const { data, error } = await alice.client.storage.from('fx-private').createSignedUploadUrl(path);
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain(`/storage/v1/object/upload/sign/fx-private/${path}?token=`);
    // Anyone holding the token may upload (e.g. the browser of a signed-out helper).
    const up = await backend.anon().storage.from('fx-private').uploadToSignedUrl(path, data!.token, text('signed upload'));
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path, fullPath: `fx-private/${path}` });
    expect(await (await alice.client.storage.from('fx-private').download(path)).data!.text()).toBe('signed upload');
    const { rows } = await backend.server.ctx.engine.query<{ owner: string }>(
      'select owner::text from storage.objects where bucket_id = $1 and name = $2',
      ['fx-private', path],
    );
    expect(rows[0].owner).toBe(alice.id);

    // Signing needs the insert policy; the token fits one path only and is not a download token.
    expect((await bob.client.storage.from('fx-private').createSignedUploadUrl(`${alice.id}/x.txt`)).error).toMatchObject({ status: 403 });
    const other = await backend.anon().storage.from('fx-private').uploadToSignedUrl(`${alice.id}/other.txt`, data!.token, text('x'));
    expect(other.error).toMatchObject({ status: 400 });
    const asDownload = await fetch(`${backend.url}/storage/v1/object/sign/fx-private/${path}?token=${data!.token}`);
    expect(asDownload.status).toBe(400);
    const again = await backend.anon().storage.from('fx-private').uploadToSignedUrl(path, data!.token, text('again'));
    expect(again.error).toMatchObject({ status: 409 });
  });

  it('creates several signed URLs at once, with an error for what the caller cannot see', async () => {
    const bucket = alice.client.storage.from('fx-private');
    await bucket.upload(`${alice.id}/many/1.txt`, text('one'));
    const { data, error } = await bucket.createSignedUrls([`${alice.id}/many/1.txt`, `${alice.id}/many/missing.txt`], 60);
    expect(error).toBeNull();
    expect(data![0]).toMatchObject({ error: null, path: `${alice.id}/many/1.txt` });
    expect(await (await fetch(data![0].signedUrl!)).text()).toBe('one');
    expect(data![1]).toMatchObject({ error: expect.any(String), signedUrl: null });
  });
});

describe('bucket limits', () => {
  it('refuses a file above file_size_limit with 413 and stores nothing', async () => {
    const bucket = alice.client.storage.from('fx-limited');
    const big = await bucket.upload('big.txt', new Blob(['x'.repeat(2000)], { type: 'text/plain' }));
    expect(big.error).toMatchObject({ status: 413, statusCode: '413', message: 'The object exceeded the maximum allowed size' });
    // Raw bodies too, whether the length is declared up front or only discovered while streaming.
    const raw = await bucket.upload('big-raw.txt', Buffer.alloc(5000, 1), { contentType: 'text/plain' });
    expect(raw.error).toMatchObject({ status: 413 });
    async function* chunks() {
      for (let i = 0; i < 10; i++) yield Buffer.alloc(500, 2);
    }
    const { Readable } = await import('node:stream');
    const streamed = await bucket.upload('big-stream.txt', Readable.from(chunks()), { contentType: 'text/plain' });
    expect(streamed.error).toMatchObject({ status: 413 });
    const res = await fetch(`${backend.url}/storage/v1/object/fx-limited/big-raw2.txt`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice.jwt}`, 'Content-Type': 'text/plain' },
      body: 'y'.repeat(4000),
    });
    expect(await res.json()).toEqual({
      statusCode: '413',
      code: 'EntityTooLarge',
      error: 'Payload too large',
      message: 'The object exceeded the maximum allowed size',
    });
    expect(await countObjects(backend, 'fx-limited')).toBe(0);

    const ok = await bucket.upload('small.txt', new Blob(['x'.repeat(1024)], { type: 'text/plain' }));
    expect(ok.error).toBeNull();
  });

  it('refuses a type outside allowed_mime_types with 415, and accepts wildcards', async () => {
    const bucket = alice.client.storage.from('fx-limited');
    const pdf = await bucket.upload('doc.pdf', new Blob(['%PDF'], { type: 'application/pdf' }));
    expect(pdf.error).toMatchObject({ status: 415, message: 'mime type application/pdf is not supported' });
    const raw = await bucket.upload('doc2.pdf', Buffer.from('%PDF'), { contentType: 'application/pdf' });
    expect(raw.error).toMatchObject({ status: 415 });
    expect(await countObjects(backend, 'fx-limited', 'doc.pdf')).toBe(0);
    const png = await bucket.upload('img.png', new Blob([PNG_BYTES], { type: 'image/png' }));
    expect(png.error).toBeNull();
    const webp = await bucket.upload('img.webp', Buffer.from('RIFF\0\0\0\0WEBP'), { contentType: 'image/webp' });
    expect(webp.error).toBeNull();
  });
});

describe('bucket API', () => {
  it('lets the service role create, read, update, empty and delete buckets', async () => {
    const storage = backend.service().storage;
    const created = await storage.createBucket('fx-made', { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['image/png'] });
    expect(created).toEqual({ data: { name: 'fx-made' }, error: null });
    expect((await storage.createBucket('fx-made')).error).toMatchObject({ status: 409, message: 'The resource already exists' });

    const { data: got } = await storage.getBucket('fx-made');
    expect(got).toMatchObject({ id: 'fx-made', public: false, allowed_mime_types: ['image/png'] });
    expect(Number(got!.file_size_limit)).toBe(1_000_000);
    expect((await storage.listBuckets()).data!.map((b) => b.id)).toContain('fx-made');

    expect((await storage.updateBucket('fx-made', { public: true, fileSizeLimit: 2048, allowedMimeTypes: null })).error).toBeNull();
    expect((await storage.getBucket('fx-made')).data).toMatchObject({ public: true, allowed_mime_types: null });

    await storage.from('fx-made').upload('a.txt', text('a'));
    expect((await storage.deleteBucket('fx-made')).error).toMatchObject({ status: 409 });
    expect((await storage.emptyBucket('fx-made')).error).toBeNull();
    expect((await storage.deleteBucket('fx-made')).error).toBeNull();
    expect((await storage.getBucket('fx-made')).error).toMatchObject({ status: 404 });
  });

  it('keeps buckets away from users when no policy allows them', async () => {
    const made = await alice.client.storage.createBucket('fx-user-bucket');
    expect(made.error).toMatchObject({ status: 403 });
    expect((await alice.client.storage.listBuckets()).data).toEqual([]);
    expect((await backend.anon().storage.deleteBucket('fx-public')).error).toMatchObject({ status: 409 });
    expect((await backend.anon().storage.emptyBucket('fx-public')).error).toMatchObject({ status: 404 });
  });
});
