// GET /rest/v1 through supabase-js: select, embedding, ordering, pagination, counts, single objects.
import { describe, expect, it } from 'vitest';
import { rest, useRestBackend } from '../rest-fixtures.ts';

const rt = useRestBackend();

describe('select', () => {
  it('returns all columns with PostgreSQL JSON formats', async () => {
    const { data, error, status } = await rt.db.from('rt_courses').select().eq('id', 1);
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      {
        id: 1,
        school_id: 1,
        title: 'Álgebra',
        price: 100.5,
        tags: ['math', 'exatas'],
        meta: { hours: 10, author: { name: 'Ana' } },
        published: true,
        level: 'basic',
        created_at: '2024-01-02T03:04:05+00:00',
      },
    ]);
  });

  it('selects columns with aliases, casts and JSON paths', async () => {
    const { data, error } = await rt.db
      .from('rt_courses')
      .select('id, name:title, price::text, hours:meta->hours, meta->author->>name')
      .in('id', [1, 2])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, name: 'Ana', price: '100.50', hours: 10 },
      { id: 2, name: null, price: null, hours: 4 },
    ]);
    const typed = await rt.db.from('rt_courses').select('title, hours:meta->>hours').eq('id', 1).single();
    expect(typed.data).toEqual({ title: 'Álgebra', hours: '10' });
  });

  it('embeds many-to-one as an object (or null) and one-to-many as an array, nested', async () => {
    const { data, error } = await rt.db
      .from('rt_courses')
      .select('id, school:rt_schools(name), rt_modules(title, rt_lessons(title))')
      .order('id')
      .limit(2);
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        id: 1,
        school: { name: 'Escola Azul' },
        rt_modules: [
          { title: 'Introdução', rt_lessons: [{ title: 'Boas-vindas' }, { title: 'Números' }] },
          { title: 'Equações', rt_lessons: [{ title: 'Lineares' }] },
        ],
      },
      { id: 2, school: { name: 'Escola Azul' }, rt_modules: [] },
    ]);
    // A self-referencing key, as PostgREST reads it: the key column names the parent, the table's
    // name the children (narrowed with the children's column as the hint).
    const people = await rt.db.from('rt_people').select('name, mentor:mentor_id(name)').order('id');
    expect(people.data).toEqual([
      { name: 'Ana', mentor: null },
      { name: 'Bruno', mentor: { name: 'Ana' } },
      { name: 'Carla', mentor: { name: 'Ana' } },
    ]);
    const mentees = await rt.db.from('rt_people').select('name, mentees:rt_people!mentor_id(name)').order('id');
    expect(mentees.data).toEqual([
      { name: 'Ana', mentees: [{ name: 'Bruno' }, { name: 'Carla' }] },
      { name: 'Bruno', mentees: [] },
      { name: 'Carla', mentees: [] },
    ]);
  });

  it('embeds one-to-one as an object from both sides and many-to-many through a junction table', async () => {
    const a = await rt.db.from('rt_people').select('name, rt_profiles(bio)').eq('id', 1).single();
    expect(a.data).toEqual({ name: 'Ana', rt_profiles: { bio: 'Professora' } });
    const b = await rt.db.from('rt_profiles').select('bio, rt_people(name)');
    expect(b.data).toEqual([{ bio: 'Professora', rt_people: { name: 'Ana' } }]);
    const c = await rt.db.from('rt_courses').select('id, rt_tags(label)').in('id', [1, 2]).order('id');
    expect(c.data).toEqual([
      { id: 1, rt_tags: [{ label: 'novo' }, { label: 'popular' }] },
      { id: 2, rt_tags: [] },
    ]);
  });

  it('disambiguates with !fk hints and embeds through a column name', async () => {
    const { data, error } = await rt.db
      .from('rt_messages')
      .select('body, from:rt_people!rt_messages_sender_id_fkey(name), to:rt_people!receiver_id(name), sender_id(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { body: 'oi', from: { name: 'Ana' }, to: { name: 'Bruno' }, sender_id: { name: 'Ana' } },
      { body: 'olá', from: { name: 'Bruno' }, to: { name: 'Ana' }, sender_id: { name: 'Bruno' } },
    ]);
  });

  it('filters embedded resources, and the parent too with !inner or rel=not.is.null', async () => {
    const embedOnly = await rt.db.from('rt_courses').select('id, rt_modules(title)').eq('rt_modules.position', 2).in('id', [1, 3]).order('id');
    expect(embedOnly.data).toEqual([
      { id: 1, rt_modules: [{ title: 'Equações' }] },
      { id: 3, rt_modules: [] },
    ]);
    const inner = await rt.db.from('rt_courses').select('id, rt_schools!inner(slug)').eq('rt_schools.slug', 'verde').order('id');
    expect(inner.data).toEqual([
      { id: 3, rt_schools: { slug: 'verde' } },
      { id: 4, rt_schools: { slug: 'verde' } },
    ]);
    const withModules = await rt.db.from('rt_courses').select('id, rt_modules()').not('rt_modules', 'is', null).order('id');
    expect(withModules.data).toEqual([{ id: 1 }, { id: 3 }]);
    const toOneFilter = await rt.db.from('rt_courses').select('id, rt_schools(slug)').eq('rt_schools.slug', 'verde').eq('id', 1);
    expect(toOneFilter.data).toEqual([{ id: 1, rt_schools: null }]);
  });

  it('orders, limits and offsets embedded resources', async () => {
    const { data } = await rt.db
      .from('rt_modules')
      .select('id, rt_lessons(title)')
      .eq('id', 1)
      .order('position', { referencedTable: 'rt_lessons', ascending: false })
      .limit(1, { referencedTable: 'rt_lessons' });
    expect(data).toEqual([{ id: 1, rt_lessons: [{ title: 'Números' }] }]);
    const offset = await rt.db.from('rt_modules').select('id, rt_lessons(title)').eq('id', 1).order('position', { referencedTable: 'rt_lessons' }).range(1, 1, { referencedTable: 'rt_lessons' });
    expect(offset.data).toEqual([{ id: 1, rt_lessons: [{ title: 'Números' }] }]);
  });

  it('spreads a to-one embed and counts related rows', async () => {
    const spread = await rt.db.from('rt_courses').select('id, ...rt_schools(school_name:name)').order('id').limit(1);
    expect(spread.data).toEqual([{ id: 1, school_name: 'Escola Azul' }]);
    const counted = await rt.db.from('rt_courses').select('id, rt_modules(count)').order('id');
    expect(counted.data).toEqual([
      { id: 1, rt_modules: [{ count: 2 }] },
      { id: 2, rt_modules: [{ count: 0 }] },
      { id: 3, rt_modules: [{ count: 1 }] },
      { id: 4, rt_modules: [{ count: 0 }] },
    ]);
  });
});

describe('order', () => {
  it('orders by several columns with nullsfirst / nullslast', async () => {
    const last = await rt.db.from('rt_courses').select('id').order('price', { ascending: false, nullsFirst: false });
    expect(last.data?.map((r) => r.id)).toEqual([1, 3, 4, 2]);
    const first = await rt.db.from('rt_courses').select('id').order('price', { ascending: true, nullsFirst: true });
    expect(first.data?.map((r) => r.id)).toEqual([2, 4, 3, 1]);
    const multi = await rt.db.from('rt_courses').select('id').order('school_id', { ascending: false }).order('id', { ascending: false });
    expect(multi.data?.map((r) => r.id)).toEqual([4, 3, 2, 1]);
  });

  it('orders the parent by a column of a to-one embed, and by a JSON path', async () => {
    const res = await rest(rt.backend, '/rt_courses?select=id,rt_schools(name)&order=rt_schools(name).desc,id.asc');
    expect((await res.json()).map((r: { id: number }) => r.id)).toEqual([3, 4, 1, 2]);
    const json = await rt.db.from('rt_courses').select('id').order('meta->hours', { ascending: true, nullsFirst: false }).limit(2);
    expect(json.data?.map((r) => r.id)).toEqual([4, 2]);
  });
});

describe('pagination and counts', () => {
  it('limit/offset with count=exact give Content-Range and 206 when partial', async () => {
    const { data, count, status } = await rt.db.from('rt_courses').select('id', { count: 'exact' }).order('id').range(1, 2);
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
    expect(count).toBe(4);
    expect(status).toBe(206);
    const res = await rest(rt.backend, '/rt_courses?select=id&order=id&limit=2&offset=1', { headers: { Prefer: 'count=exact' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('1-2/4');
    const full = await rest(rt.backend, '/rt_courses?select=id', { headers: { Prefer: 'count=exact' } });
    expect(full.status).toBe(200);
    expect(full.headers.get('content-range')).toBe('0-3/4');
    const none = await rest(rt.backend, '/rt_courses?select=id&id=eq.999', { headers: { Prefer: 'count=exact' } });
    expect(none.status).toBe(200);
    expect(none.headers.get('content-range')).toBe('*/0');
    // count=planned is the planner's estimate, as PostgREST gives it: one row for a primary key lookup.
    const planned = await rest(rt.backend, '/rt_courses?select=id&id=eq.999', { headers: { Prefer: 'count=planned' } });
    expect(planned.status).toBe(206);
    expect(planned.headers.get('content-range')).toBe('*/1');
    const noCount = await rest(rt.backend, '/rt_courses?select=id&limit=1');
    expect(noCount.status).toBe(200);
    expect(noCount.headers.get('content-range')).toBe('0-0/*');
  });

  it('honours Range headers', async () => {
    const res = await rest(rt.backend, '/rt_courses?select=id&order=id', { headers: { Range: '2-3', 'Range-Unit': 'items', Prefer: 'count=exact' } });
    expect(await res.json()).toEqual([{ id: 3 }, { id: 4 }]);
    expect(res.headers.get('content-range')).toBe('2-3/4');
    expect(res.status).toBe(206);
  });

  it('answers 416 when the offset is past the end with an exact count', async () => {
    const res = await rest(rt.backend, '/rt_courses?select=id&offset=10', { headers: { Prefer: 'count=exact' } });
    expect(res.status).toBe(416);
    expect((await res.json()).code).toBe('PGRST103');
  });

  it('HEAD returns only the count', async () => {
    const { data, count, status, error } = await rt.db.from('rt_courses').select('*', { count: 'exact', head: true }).eq('published', true);
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toBeNull();
    expect(count).toBe(3);
  });
});

describe('single objects', () => {
  it('single() returns an object, or PGRST116 / 406 when not exactly one row', async () => {
    const one = await rt.db.from('rt_schools').select('name').eq('id', 2).single();
    expect(one.data).toEqual({ name: 'Escola Verde' });
    const many = await rt.db.from('rt_schools').select('name').single();
    expect(many.status).toBe(406);
    expect(many.error).toMatchObject({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 3 rows',
      hint: null,
    });
    const none = await rt.db.from('rt_schools').select('name').eq('id', 99).single();
    expect(none.status).toBe(406);
    expect(none.error?.details).toBe('The result contains 0 rows');
  });

  it('maybeSingle() returns null for no rows', async () => {
    const none = await rt.db.from('rt_schools').select('name').eq('id', 99).maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
    const one = await rt.db.from('rt_schools').select('name').eq('id', 1).maybeSingle();
    expect(one.data).toEqual({ name: 'Escola Azul' });
  });

  it('strips nulls when asked', async () => {
    const { data } = await rt.db.from('rt_courses').select('id, price, level').eq('id', 2).stripNulls();
    expect(data).toEqual([{ id: 2, level: 'advanced' }]);
  });
});

describe('schema cache', () => {
  it('sees tables and columns created after the server started', async () => {
    await rt.backend.server.ctx.engine.exec(`create table public.rt_late (id int primary key, v text); insert into public.rt_late values (1, 'a');`);
    expect((await rt.db.from('rt_late').select()).data).toEqual([{ id: 1, v: 'a' }]);
    await rt.backend.server.ctx.engine.exec(`alter table public.rt_late add column w int default 7`);
    expect((await rt.db.from('rt_late').select('id, w')).data).toEqual([{ id: 1, w: 7 }]);
  });
});
