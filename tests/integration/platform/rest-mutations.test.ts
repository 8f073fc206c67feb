// POST / PATCH / DELETE on /rest/v1 through supabase-js: inserts, upserts, updates, deletes,
// representations, status codes, constraint errors and row-level security.
import { describe, expect, it } from 'vitest';
import { rest, useRestBackend } from '../rest-fixtures.ts';

const rt = useRestBackend();

async function countRows(table: string, where = 'true'): Promise<number> {
  const r = await rt.backend.server.ctx.engine.query<{ n: number | string }>(`select count(*) as n from public.${table} where ${where}`);
  return Number(r.rows[0].n);
}

describe('insert', () => {
  it('inserts one row: 201 with no body by default, defaults for missing keys', async () => {
    const r = await rt.db.from('rt_counters').insert({ slug: 'one' });
    expect(r.error).toBeNull();
    expect(r.status).toBe(201);
    expect(r.data).toBeNull();
    const row = await rt.db.from('rt_counters').select().eq('slug', 'one').single();
    expect(row.data).toEqual({ slug: 'one', hits: 0, note: 'fresh' });
  });

  it('inserts many rows and returns the representation with select and embeds', async () => {
    const r = await rt.db
      .from('rt_modules')
      .insert([
        { id: 100, course_id: 2, title: 'M1', position: 1 },
        { id: 101, course_id: 2, title: 'M2', position: 2 },
      ])
      .select('id, title, course:rt_courses(title)');
    expect(r.error).toBeNull();
    expect(r.status).toBe(201);
    expect(r.data).toEqual([
      { id: 100, title: 'M1', course: { title: 'Geometria' } },
      { id: 101, title: 'M2', course: { title: 'Geometria' } },
    ]);
  });

  it('converts JSON values to column types (arrays, jsonb, numerics, timestamps)', async () => {
    const r = await rt.db
      .from('rt_courses')
      .insert({ id: 50, school_id: 3, title: 'Tipos', price: '12.3', tags: ['a', 'b c'], meta: { k: [1, { x: null }] }, created_at: '2025-05-06T07:08:09-03:00' })
      .select('price, tags, meta, created_at')
      .single();
    expect(r.error).toBeNull();
    expect(r.data).toEqual({ price: 12.3, tags: ['a', 'b c'], meta: { k: [1, { x: null }] }, created_at: '2025-05-06T10:08:09+00:00' });
  });

  it('array inserts send columns=: a missing key is null, or the default with missing=default', async () => {
    const asNull = await rt.db.from('rt_counters').insert([{ slug: 'n1', note: 'x' }, { slug: 'n2' }]).select('slug, note').order('slug');
    expect(asNull.data).toEqual([
      { slug: 'n1', note: 'x' },
      { slug: 'n2', note: null },
    ]);
    const asDefault = await rt.db
      .from('rt_counters')
      .insert([{ slug: 'd1', note: 'x' }, { slug: 'd2' }], { defaultToNull: false })
      .select('slug, note')
      .order('slug');
    expect(asDefault.error).toBeNull();
    expect(asDefault.data).toEqual([
      { slug: 'd1', note: 'x' },
      { slug: 'd2', note: 'fresh' },
    ]);
  });

  it('reports constraint violations with PostgREST statuses', async () => {
    const dup = await rt.db.from('rt_schools').insert({ id: 1, name: 'Dup' });
    expect(dup.status).toBe(409);
    expect(dup.error).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "rt_schools_pkey"', details: 'Key (id)=(1) already exists.' });
    const fk = await rt.db.from('rt_courses').insert({ id: 60, school_id: 999, title: 'FK' });
    expect(fk.status).toBe(409);
    expect(fk.error?.code).toBe('23503');
    const notNull = await rt.db.from('rt_courses').insert({ id: 61, school_id: 1 });
    expect(notNull.status).toBe(400);
    expect(notNull.error?.code).toBe('23502');
    const check = await rt.db.from('rt_courses').insert({ id: 62, school_id: 1, title: 'C', level: 'expert' });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe('23514');
    const badInt = await rt.db.from('rt_courses').insert({ id: 'abc', school_id: 1, title: 'C' });
    expect(badInt.status).toBe(400);
    expect(badInt.error?.code).toBe('22P02');
    // A failed bulk insert inserts nothing.
    const bulk = await rt.db.from('rt_schools').insert([{ id: 70, name: 'ok' }, { id: 1, name: 'dup' }]);
    expect(bulk.status).toBe(409);
    expect(await countRows('rt_schools', 'id = 70')).toBe(0);
  });

  it('rejects unknown columns with PGRST204', async () => {
    const r = await rt.db.from('rt_schools').insert({ id: 80, name: 'x', nope: 1 });
    expect(r.status).toBe(400);
    expect(r.error).toMatchObject({ code: 'PGRST204', message: "Could not find the 'nope' column of 'rt_schools' in the schema cache" });
  });

  it('count=exact on insert sets Content-Range */n', async () => {
    const res = await rest(rt.backend, '/rt_tags', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Prefer: 'count=exact' },
      body: JSON.stringify([{ id: 10, label: 'a' }, { id: 11, label: 'b' }]),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-range')).toBe('*/2');
    expect(await res.text()).toBe('');
  });
});

describe('upsert', () => {
  it('merges duplicates on the primary key: 201 when inserting, 200 when only updating', async () => {
    const first = await rt.db.from('rt_counters').upsert({ slug: 'u', hits: 1 }).select();
    expect(first.status).toBe(201);
    expect(first.data).toEqual([{ slug: 'u', hits: 1, note: 'fresh' }]);
    const again = await rt.db.from('rt_counters').upsert({ slug: 'u', hits: 2 }).select();
    expect(again.status).toBe(200);
    expect(again.data).toEqual([{ slug: 'u', hits: 2, note: 'fresh' }]);
  });

  it('ignores duplicates, and uses on_conflict columns', async () => {
    const ignored = await rt.db.from('rt_counters').upsert({ slug: 'u', hits: 99 }, { ignoreDuplicates: true }).select();
    expect(ignored.error).toBeNull();
    expect(ignored.data).toEqual([]);
    expect((await rt.db.from('rt_counters').select('hits').eq('slug', 'u').single()).data).toEqual({ hits: 2 });
    await rt.db.from('rt_schools').insert({ id: 95, name: 'Antiga', slug: 'nova' });
    const bySlug = await rt.db.from('rt_schools').upsert({ id: 96, name: 'Nova', slug: 'nova' }, { onConflict: 'slug' }).select('id, name');
    expect(bySlug.error).toBeNull();
    expect(bySlug.status).toBe(200);
    expect(bySlug.data).toEqual([{ id: 96, name: 'Nova' }]);
    expect(await countRows('rt_schools', "slug = 'nova'")).toBe(1);
    const bad = await rt.db.from('rt_schools').upsert({ id: 91, name: 'x' }, { onConflict: 'name' });
    expect(bad.status).toBe(400);
    expect(bad.error?.code).toBe('42P10');
  });
});

describe('update and delete', () => {
  it('updates with filters: 204 by default, 200 with the representation', async () => {
    const minimal = await rt.db.from('rt_lessons').update({ duration: 7 }).eq('id', 3);
    expect(minimal.status).toBe(204);
    expect(minimal.error).toBeNull();
    const rep = await rt.db.from('rt_lessons').update({ duration: 8 }).lte('id', 2).select('id, duration').order('id');
    expect(rep.status).toBe(200);
    expect(rep.data).toEqual([
      { id: 1, duration: 8 },
      { id: 2, duration: 8 },
    ]);
    const none = await rt.db.from('rt_lessons').update({ duration: 1 }).eq('id', 999).select();
    expect(none.status).toBe(200);
    expect(none.data).toEqual([]);
  });

  it('returns updated rows even when the filter column changed, and single() on a mutation', async () => {
    const r = await rt.db.from('rt_courses').update({ level: 'advanced' }).eq('level', 'basic').select('id, level').order('id');
    expect(r.data).toEqual([
      { id: 1, level: 'advanced' },
      { id: 4, level: 'advanced' },
    ]);
    const one = await rt.db.from('rt_courses').update({ level: 'basic' }).eq('id', 1).select('id, level').single();
    expect(one.data).toEqual({ id: 1, level: 'basic' });
    // More than one row with single(): 406, and nothing changes.
    const many = await rt.db.from('rt_courses').update({ title: 'Tudo igual' }).in('id', [1, 2]).select().single();
    expect(many.status).toBe(406);
    expect(await countRows('rt_courses', "title = 'Tudo igual'")).toBe(0);
  });

  it('deletes with filters: 204, or 200 with the deleted rows, count in Content-Range', async () => {
    const rep = await rt.db.from('rt_course_tags').delete().eq('course_id', 1).eq('tag_id', 1).select();
    expect(rep.status).toBe(200);
    expect(rep.data).toEqual([{ course_id: 1, tag_id: 1 }]);
    const counted = await rt.db.from('rt_course_tags').delete({ count: 'exact' }).eq('course_id', 3);
    expect(counted.status).toBe(204);
    expect(counted.count).toBe(1);
    expect(await countRows('rt_course_tags')).toBe(1);
  });

  it('validates filters of updates and deletes before changing anything', async () => {
    const r = await rt.db.from('rt_tags').delete().eq('nope', 1);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('42703');
    const u = await rt.db.from('rt_tags').update({ nope: 1 }).eq('id', 1);
    expect(u.status).toBe(400);
    expect(u.error?.code).toBe('PGRST204');
    expect(await countRows('rt_tags')).toBe(4);
  });
});

describe('row-level security', () => {
  it('lets users write only their own rows', async () => {
    const alice = await rt.backend.jwtUser();
    const bob = await rt.backend.jwtUser();
    const mine = await alice.client.from('rt_notes').insert({ body: 'da Alice' }).select('body, owner_id').single();
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual({ body: 'da Alice', owner_id: alice.id });

    // WITH CHECK violation: 42501, 403 for an authenticated user.
    const forged = await alice.client.from('rt_notes').insert({ body: 'falsa', owner_id: bob.id });
    expect(forged.status).toBe(403);
    expect(forged.error).toMatchObject({ code: '42501', message: 'new row violates row-level security policy for table "rt_notes"' });

    // Anonymous callers have no insert policy: 401.
    const anon = await rt.db.from('rt_notes').insert({ body: 'anon', owner_id: alice.id });
    expect(anon.status).toBe(401);
    expect(anon.error?.code).toBe('42501');

    // Bob cannot see, update or delete Alice's private note: nothing happens.
    expect((await bob.client.from('rt_notes').select()).data).toEqual([]);
    const upd = await bob.client.from('rt_notes').update({ body: 'hackeada' }).eq('owner_id', alice.id).select();
    expect(upd.status).toBe(200);
    expect(upd.data).toEqual([]);
    const del = await bob.client.from('rt_notes').delete().eq('owner_id', alice.id);
    expect(del.status).toBe(204);
    expect(await countRows('rt_notes', "body = 'da Alice'")).toBe(1);

    // Alice cannot move her note to Bob (WITH CHECK on update).
    const move = await alice.client.from('rt_notes').update({ owner_id: bob.id }).eq('body', 'da Alice');
    expect(move.status).toBe(403);
    expect(move.error?.code).toBe('42501');

    // The service role bypasses RLS.
    const all = await rt.backend.service().from('rt_notes').select('body');
    expect(all.data).toEqual([{ body: 'da Alice' }]);
  });

  it('denies tables without grants: 401 for anon, 403 for a user', async () => {
    const anon = await rt.db.from('rt_secrets').select();
    expect(anon.status).toBe(401);
    expect(anon.error).toMatchObject({ code: '42501', message: 'permission denied for table rt_secrets' });
    const user = await rt.backend.jwtUser();
    const denied = await user.client.from('rt_secrets').delete().eq('id', 1);
    expect(denied.status).toBe(403);
    expect(await countRows('rt_secrets')).toBe(1);
  });
});
