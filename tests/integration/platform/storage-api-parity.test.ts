// What storage-js's own suite (scripts/client-suites, --suite storage) expects of the Storage API and
// local-supabase once answered differently: partial bucket updates, numeric size limits, Storage's
// bucket fields, the queued-empty message, a request without a JWT, info's metadata, and listV2.
import { beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend, type JwtUser } from '../harness.ts';
import { STORAGE_FIXTURE_SQL } from '../storage-helpers.ts';

const backend = useBackend({ sql: STORAGE_FIXTURE_SQL });
let alice: JwtUser;

beforeAll(async () => {
  alice = await backend.jwtUser();
});

const text = (s: string) => new Blob([s], { type: 'text/plain' });

describe('buckets', () => {
  it('changes only the fields an update sends, and null clears a limit', async () => {
    const storage = backend.service().storage;
    await storage.createBucket('px-partial', { public: true, fileSizeLimit: '20mb', allowedMimeTypes: ['image/jpeg'] });

    expect(await storage.updateBucket('px-partial', { public: false })).toEqual({
      data: { message: 'Successfully updated' },
      error: null,
    });
    const { data } = await storage.getBucket('px-partial');
    // A number on both engines (a bigint column, which node-postgres reads as a string).
    expect(data).toMatchObject({ public: false, file_size_limit: 20_000_000, allowed_mime_types: ['image/jpeg'] });

    expect((await storage.updateBucket('px-partial', { public: false, fileSizeLimit: null })).error).toBeNull();
    expect((await storage.getBucket('px-partial')).data).toMatchObject({
      file_size_limit: null,
      allowed_mime_types: ['image/jpeg'],
    });
  });

  it('refuses an update that sends nothing to change', async () => {
    const res = await fetch(`${backend.url}/storage/v1/bucket/fx-public`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 'fx-public', name: 'fx-public' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: '400', message: 'No content provided' });
  });

  it("answers Storage's bucket fields: getBucket without type, listBuckets with it", async () => {
    const storage = backend.service().storage;
    const { data: one } = await storage.getBucket('fx-limited');
    expect(Object.keys(one!).sort()).toEqual(
      ['allowed_mime_types', 'created_at', 'file_size_limit', 'id', 'name', 'owner', 'public', 'updated_at'].sort(),
    );
    expect(one!.file_size_limit).toBe(1024);
    const listed = (await storage.listBuckets()).data!.find((b) => b.id === 'fx-limited');
    expect(listed).toMatchObject({ type: 'STANDARD', file_size_limit: 1024 });
  });

  it('says an emptied bucket is queued, as Storage does, and it is empty', async () => {
    const storage = backend.service().storage;
    await storage.createBucket('px-empty');
    await storage.from('px-empty').upload('a.txt', text('a'));
    expect(await storage.emptyBucket('px-empty')).toEqual({
      data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
      error: null,
    });
    expect((await storage.from('px-empty').list()).data).toEqual([]);
  });
});

describe('a request without a JWT', () => {
  it("is refused with Storage's JWS error; with only the apikey it is the anon role", async () => {
    const bare = await fetch(`${backend.url}/storage/v1/bucket`);
    expect(bare.ok).toBe(false);
    expect(await bare.json()).toEqual({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
      message: 'Invalid Compact JWS',
    });
    const list = await fetch(`${backend.url}/storage/v1/object/list/fx-public`, { method: 'POST', body: '{}' });
    expect(list.ok).toBe(false);

    // The gateway puts the apikey where the JWT goes when there is no Authorization header.
    const keyOnly = await fetch(`${backend.url}/storage/v1/bucket`, { headers: { apikey: ANON_KEY } });
    expect(keyOnly.status).toBe(200);
  });

  it('still reads public objects, which need none', async () => {
    await backend.service().storage.from('fx-public').upload('open/readme.txt', text('hi'));
    const res = await fetch(`${backend.url}/storage/v1/object/public/fx-public/open/readme.txt`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hi');
  });
});

describe('object info', () => {
  it('gives {} as the metadata of an upload without any, and the metadata sent otherwise', async () => {
    const bucket = alice.client.storage.from('fx-private');
    await bucket.upload(`${alice.id}/plain.txt`, text('x'));
    await bucket.upload(`${alice.id}/raw.txt`, Buffer.from('x'), { contentType: 'text/plain' }); // a raw body, as Node sends
    await bucket.upload(`${alice.id}/tagged.txt`, text('y'), { metadata: { course: 'excel' } });
    // toEqual: toMatchObject would take null for {}.
    expect((await bucket.info(`${alice.id}/plain.txt`)).data!.metadata).toEqual({});
    expect((await bucket.info(`${alice.id}/raw.txt`)).data!.metadata).toEqual({});
    expect((await bucket.info(`${alice.id}/tagged.txt`)).data!.metadata).toEqual({ course: 'excel' });
  });
});

describe('listV2', () => {
  const names = ['zz', 'bb', 'xx', 'cc', 'aa'];
  beforeAll(async () => {
    const bucket = alice.client.storage.from('fx-private');
    // One at a time, so created_at follows this order.
    for (const n of names) await bucket.upload(`${alice.id}/v2/f-${n}.txt`, text(n));
    await bucket.upload(`${alice.id}/v2/sub/deep.txt`, text('deep'));
  });

  it('lists every object under a prefix, or folders and files under it with the delimiter', async () => {
    const bucket = alice.client.storage.from('fx-private');
    const all = await bucket.listV2({ prefix: `${alice.id}/v2` });
    expect(all.error).toBeNull();
    expect(all.data).toMatchObject({ hasNext: false, folders: [] });
    expect(all.data!.objects.map((o) => o.name)).toEqual([
      ...[...names].sort().map((n) => `${alice.id}/v2/f-${n}.txt`),
      `${alice.id}/v2/sub/deep.txt`,
    ]);
    expect(all.data!.objects[0]).toMatchObject({
      id: expect.any(String),
      metadata: expect.objectContaining({ size: 2 }),
    });

    const top = await bucket.listV2({ with_delimiter: true });
    expect(top.data).toEqual({
      hasNext: false,
      folders: [expect.objectContaining({ key: alice.id, name: `${alice.id}/` })],
      objects: [],
    });

    const level = await bucket.listV2({ prefix: `${alice.id}/v2/`, with_delimiter: true });
    expect(level.data!.folders).toEqual([
      expect.objectContaining({ key: 'sub', name: `${alice.id}/v2/sub/`, id: null }),
    ]);
    expect(level.data!.objects.map((o) => o.key)).toEqual([...names].sort().map((n) => `f-${n}.txt`));
  });

  it('pages with the cursor by name and by time, both ways', async () => {
    const bucket = alice.client.storage.from('fx-private');
    const files = (order: string[]) => order.map((n) => `${alice.id}/v2/f-${n}.txt`);
    const cases = [
      { sortBy: undefined, expected: files([...names].sort()) },
      { sortBy: { column: 'name', order: 'desc' }, expected: files([...names].sort().reverse()) },
      { sortBy: { column: 'created_at', order: 'asc' }, expected: files(names) },
      { sortBy: { column: 'created_at', order: 'desc' }, expected: files([...names].reverse()) },
    ] as const;
    for (const { sortBy, expected } of cases) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const res = await bucket.listV2({
          prefix: `${alice.id}/v2/f-`,
          with_delimiter: true,
          limit: 2,
          cursor,
          sortBy,
        });
        expect(res.error).toBeNull();
        seen.push(...res.data!.objects.map((o) => o.name));
        if (!res.data!.hasNext) break;
        cursor = res.data!.nextCursor;
      }
      expect(seen).toEqual(expected);
    }
  });

  it('shows only what the select policies allow, and refuses a bad cursor or sort', async () => {
    const bob = await backend.jwtUser();
    const theirs = await bob.client.storage.from('fx-private').listV2({ prefix: `${alice.id}/` });
    expect(theirs.data).toEqual({ hasNext: false, folders: [], objects: [] });

    const bucket = alice.client.storage.from('fx-private');
    expect((await bucket.listV2({ cursor: Buffer.from('nonsense').toString('base64') })).error).toMatchObject({
      statusCode: '400',
      message: 'Invalid Parameter continuation token',
    });
    const badSort = await bucket.listV2({ sortBy: { column: 'size' as 'name' } });
    expect(badSort.error).toMatchObject({ statusCode: '400' });
  });
});
