// /rest/v1 against PostgREST 13's documented behaviour (docs/references/api/*.rst, errors.rst):
// request → status, headers and body, for what the rest-*.test.ts files do not already cover.
import { describe, expect, it } from 'vitest';
import { restSettings } from '../../../local-supabase/rest/settings.ts';
import { rest, useRestBackend } from '../rest-fixtures.ts';

const rt = useRestBackend();

describe('PostgREST 13 error texts', () => {
  it('PGRST203 (300) when more than one overload fits the named arguments', async () => {
    const r = await rt.db.rpc('rt_greet', { a: 1 });
    expect(r.status).toBe(300);
    expect(r.error).toEqual({
      code: 'PGRST203',
      message: 'Could not choose the best candidate function between: public.rt_greet(a => integer), public.rt_greet(a => integer, b => integer)',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    });
    // Arguments only one overload takes pick it.
    expect((await rt.db.rpc('rt_greet', { a: 1, b: 3 })).data).toBe('two');
  });

  it('PGRST116 (406) "Cannot coerce the result to a single JSON object" for 0 or many rows', async () => {
    const many = await rest(rt.backend, '/rt_schools?select=name', { headers: { Accept: 'application/vnd.pgrst.object+json' } });
    expect(many.status).toBe(406);
    expect(await many.json()).toEqual({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 3 rows',
      hint: null,
    });
    const none = await rt.db.from('rt_schools').select('name').eq('id', 99).single();
    expect(none.status).toBe(406);
    expect(none.error).toEqual({ code: 'PGRST116', message: 'Cannot coerce the result to a single JSON object', details: 'The result contains 0 rows', hint: null });
  });

  it('PGRST200 (400) with a "Perhaps you meant" hint for a close relationship name', async () => {
    const r = await rt.db.from('rt_courses').select('id, rt_module(title)');
    expect(r.status).toBe(400);
    expect(r.error).toEqual({
      code: 'PGRST200',
      message: "Could not find a relationship between 'rt_courses' and 'rt_module' in the schema cache",
      details: "Searched for a foreign key relationship between 'rt_courses' and 'rt_module' in the schema 'public', but no matches were found.",
      hint: "Perhaps you meant 'rt_modules' instead of 'rt_module'.",
    });
    const hinted = await rt.db.from('rt_courses').select('id, rt_schools!nope(name)');
    expect(hinted.error).toMatchObject({
      code: 'PGRST200',
      details: "Searched for a foreign key relationship between 'rt_courses' and 'rt_schools' using the hint 'nope' in the schema 'public', but no matches were found.",
      hint: null,
    });
  });

  it('42703 (400) for an unknown column, PGRST205 (404) with a close table as hint', async () => {
    const col = await rt.db.from('rt_people').select('name, nope');
    expect(col.status).toBe(400);
    expect(col.error).toMatchObject({ code: '42703', message: 'column rt_people.nope does not exist' });
    const table = await rt.db.from('rt_schoolz').select();
    expect(table.status).toBe(404);
    expect(table.error).toEqual({
      code: 'PGRST205',
      message: "Could not find the table 'public.rt_schoolz' in the schema cache",
      details: null,
      hint: "Perhaps you meant the table 'public.rt_schools'",
    });
  });

  it('PGRST201 (300) lists each relationship with its columns', async () => {
    const r = await rest(rt.backend, '/rt_messages?select=body,rt_people(name)');
    expect(r.status).toBe(300);
    expect(await r.json()).toEqual({
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'rt_messages' and 'rt_people'",
      details: [
        { cardinality: 'many-to-one', embedding: 'rt_messages with rt_people', relationship: 'rt_messages_receiver_id_fkey using rt_messages(receiver_id) and rt_people(id)' },
        { cardinality: 'many-to-one', embedding: 'rt_messages with rt_people', relationship: 'rt_messages_sender_id_fkey using rt_messages(sender_id) and rt_people(id)' },
      ],
      hint: "Try changing 'rt_people' to one of the following: 'rt_people!rt_messages_receiver_id_fkey', 'rt_people!rt_messages_sender_id_fkey'. Find the desired relationship in the 'details' key.",
    });
  });
});

describe('schemas (Accept-Profile / Content-Profile)', () => {
  it('answers PGRST106 (406) with the exposed schemas of supabase/config.toml', async () => {
    for (const [method, header] of [['GET', 'Accept-Profile'], ['POST', 'Content-Profile']] as const) {
      const res = await rest(rt.backend, '/rt_tags', {
        method,
        headers: { [header]: 'private', 'Content-Type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ id: 90, label: 'x' }) } : {}),
      });
      expect(res.status).toBe(406);
      expect(await res.json()).toEqual({
        code: 'PGRST106',
        message: 'Invalid schema: private',
        details: null,
        hint: 'Only the following schemas are exposed: public, graphql_public',
      });
    }
    // Nothing was inserted by the refused POST.
    expect((await rt.db.from('rt_tags').select('id').eq('id', 90)).data).toEqual([]);
  });

  it('serves public when it is named, and names the schema in Content-Profile', async () => {
    const res = await rest(rt.backend, '/rt_tags?select=label&order=id', { headers: { 'Accept-Profile': 'public' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-profile')).toBe('public');
    expect(await res.json()).toEqual([{ label: 'novo' }, { label: 'popular' }]);
    const write = await rest(rt.backend, '/rt_tags', {
      method: 'POST',
      headers: { 'Content-Profile': 'public', 'Content-Type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify({ id: 91, label: 'perfil' }),
    });
    expect(write.status).toBe(201);
    expect(await write.json()).toEqual([{ id: 91, label: 'perfil' }]);
    // Accept-Profile does not choose the schema of a write (Content-Profile does).
    const ignored = await rest(rt.backend, '/rt_tags?id=eq.91', { method: 'DELETE', headers: { 'Accept-Profile': 'private' } });
    expect(ignored.status).toBe(204);
  });

  it('an exposed schema without this table answers PGRST205 naming that schema', async () => {
    const res = await rest(rt.backend, '/rt_tags', { headers: { 'Accept-Profile': 'graphql_public' } });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe("Could not find the table 'graphql_public.rt_tags' in the schema cache");
  });
});

describe('Accept: text/csv', () => {
  it('answers a header row and rows quoted as PostgREST does', async () => {
    const res = await rest(rt.backend, '/rt_schools?select=id,name,slug&order=id', { headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-range')).toBe('0-2/*');
    expect(await res.text()).toBe('id,name,slug\n1,"Escola Azul",azul\n2,"Escola Verde",verde\n3,"Escola Vazia",');
    const quoted = await rest(rt.backend, '/rt_courses?select=id,title,meta,tags&id=in.(2,4)&order=id', { headers: { Accept: 'text/csv' } });
    expect(await quoted.text()).toBe('id,title,meta,tags\n2,Geometria,"{""hours"": 4}",{math}\n4,"Gramática 100%","{""hours"": 2}",{}');
  });

  it('an empty result is the header line only', async () => {
    const res = await rest(rt.backend, '/rt_schools?select=id,name&id=eq.99', { headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('\n');
  });
});

describe('computed fields and computed relationships', () => {
  it('selects, filters and orders by a function of the row, which * leaves out', async () => {
    const { data, error } = await rt.db.from('rt_people').select('id, full:rt_full_name').eq('rt_full_name', 'Bruno #2');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2, full: 'Bruno #2' }]);
    const ordered = await rt.db.from('rt_people').select('rt_full_name').order('rt_full_name', { ascending: false });
    expect(ordered.data).toEqual([{ rt_full_name: 'Carla #3' }, { rt_full_name: 'Bruno #2' }, { rt_full_name: 'Ana #1' }]);
    const star = await rt.db.from('rt_people').select('*').eq('id', 1);
    expect(star.data).toEqual([{ id: 1, name: 'Ana', mentor_id: null }]);
  });

  it('embeds a function returning rows of another table as a relationship', async () => {
    const { data, error } = await rt.db.from('rt_people').select('name, rt_mentees(name)').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ana', rt_mentees: [{ name: 'Bruno' }, { name: 'Carla' }] },
      { name: 'Bruno', rt_mentees: [] },
      { name: 'Carla', rt_mentees: [] },
    ]);
    const one = await rt.db.from('rt_people').select('name, mentor:rt_mentor_of(name)').eq('id', 3).single();
    expect(one.data).toEqual({ name: 'Carla', mentor: { name: 'Ana' } });
    const inner = await rt.db.from('rt_people').select('name, rt_mentees!inner(id)').eq('rt_mentees.name', 'Carla');
    expect(inner.data).toEqual([{ name: 'Ana', rt_mentees: [{ id: 3 }] }]);
  });
});

describe('embedding by foreign key constraint name', () => {
  it('uses the constraint as a hint or as the embedded name', async () => {
    const { data, error } = await rt.db
      .from('rt_messages')
      .select('body, from:rt_people!rt_messages_sender_id_fkey(name), to:rt_people!rt_messages_receiver_id_fkey(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { body: 'oi', from: { name: 'Ana' }, to: { name: 'Bruno' } },
      { body: 'olá', from: { name: 'Bruno' }, to: { name: 'Ana' } },
    ]);
    const byName = await rt.db.from('rt_messages').select('body, rt_messages_sender_id_fkey(name)').order('id').limit(1);
    expect(byName.data).toEqual([{ body: 'oi', rt_messages_sender_id_fkey: { name: 'Ana' } }]);
    // A self-referencing key is not hinted by its constraint name (PostgREST's findRel): PGRST200.
    const self = await rest(rt.backend, '/rt_people?select=name,mentor:rt_people!rt_people_mentor_id_fkey(name)&id=eq.2');
    expect(self.status).toBe(400);
    expect((await self.json()).code).toBe('PGRST200');
  });
});

describe('aggregate functions', () => {
  it('are refused with PGRST123 while db-aggregates-enabled is off (the platform default)', async () => {
    for (const select of ['count()', 'price.sum()', 'school_id,price.avg()::int']) {
      const res = await rest(rt.backend, `/rt_courses?select=${select}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 'PGRST123', message: 'Use of aggregate functions is not allowed', details: null, hint: null });
    }
  });

  it('count(), sum(), avg(), min(), max() with aliases, casts and implicit GROUP BY when enabled', async () => {
    const settings = restSettings(rt.backend.server.ctx);
    settings.aggregatesEnabled = true;
    try {
      const all = await rt.db.from('rt_courses').select('count(), total:price.sum(), price.min(), price.max()');
      expect(all.error).toBeNull();
      expect(all.data).toEqual([{ count: 4, total: 230.5, min: 50, max: 100.5 }]);
      const grouped = await rt.db.from('rt_courses').select('school_id, n:count(), price.avg()::int, hours:meta->>hours::int.sum()').order('school_id');
      expect(grouped.error).toBeNull();
      expect(grouped.data).toEqual([
        { school_id: 1, n: 2, avg: 101, hours: 14 },
        { school_id: 2, n: 2, avg: 65, hours: 2 },
      ]);
      const filtered = await rt.db.from('rt_courses').select('published, count()').eq('published', true);
      expect(filtered.data).toEqual([{ published: true, count: 3 }]);
      // Inside an embedded resource the aggregate groups that resource's rows per parent.
      const nested = await rt.db
        .from('rt_schools')
        .select('name, rt_courses(published, count())')
        .order('id')
        .order('published', { referencedTable: 'rt_courses' })
        .limit(2);
      expect(nested.data).toEqual([
        { name: 'Escola Azul', rt_courses: [{ published: false, count: 1 }, { published: true, count: 1 }] },
        { name: 'Escola Verde', rt_courses: [{ published: true, count: 2 }] },
      ]);
      // An embedded resource next to aggregates is a grouping column.
      const beside = await rt.db.from('rt_courses').select('price.sum(), rt_schools(name)');
      expect(beside.error).toBeNull();
      expect(beside.data).toHaveLength(2);
      expect(beside.data).toEqual(expect.arrayContaining([
        { sum: 100.5, rt_schools: { name: 'Escola Azul' } },
        { sum: 130, rt_schools: { name: 'Escola Verde' } },
      ]));
      const byModules = await rt.db.from('rt_courses').select('count(), rt_modules(title)').eq('published', true).order('id');
      expect(byModules.error?.code).toBe('42803'); // ordering by a column that is not grouped, as PostgreSQL says
      const byEmbed = await rt.db.from('rt_courses').select('count(), rt_modules(title)').eq('published', true);
      expect(byEmbed.data).toEqual(expect.arrayContaining([
        { count: 1, rt_modules: [{ title: 'Introdução' }, { title: 'Equações' }] },
        { count: 1, rt_modules: [{ title: 'Texto' }] },
        { count: 1, rt_modules: [] },
      ]));
      expect(byEmbed.data).toHaveLength(3);
      // A to-one spread next to aggregates: its columns group the parent's rows.
      const spread = await rt.db.from('rt_courses').select('price.sum(),...rt_schools(name)');
      expect(spread.error).toBeNull();
      expect(spread.data).toHaveLength(2);
      expect(spread.data).toEqual(expect.arrayContaining([
        { sum: 100.5, name: 'Escola Azul' },
        { sum: 130, name: 'Escola Verde' },
      ]));
      const bad = await rest(rt.backend, '/rt_courses?select=price.median()');
      expect(bad.status).toBe(400);
      expect((await bad.json()).code).toBe('PGRST100');
    } finally {
      settings.aggregatesEnabled = false;
    }
  });
});

describe('embedding through views', () => {
  it('a view gets the relationships of the table columns it shows, both ways', async () => {
    const cards = await rt.db.from('rt_course_cards').select('heading, rt_schools(name)').order('id');
    expect(cards.error).toBeNull();
    expect(cards.data).toEqual([
      { heading: 'Álgebra', rt_schools: { name: 'Escola Azul' } },
      { heading: 'Redação', rt_schools: { name: 'Escola Verde' } },
      { heading: 'Gramática 100%', rt_schools: { name: 'Escola Verde' } },
    ]);
    const schools = await rt.db.from('rt_schools').select('name, rt_course_cards(heading)').eq('id', 2);
    expect(schools.data).toEqual([{ name: 'Escola Verde', rt_course_cards: [{ heading: 'Redação' }, { heading: 'Gramática 100%' }] }]);
    // View to view: the key columns are renamed in rt_school_names.
    const both = await rt.db.from('rt_course_cards').select('heading, rt_school_names(name)').eq('id', 1);
    expect(both.data).toEqual([{ heading: 'Álgebra', rt_school_names: { name: 'Escola Azul' } }]);
    const hinted = await rt.db.from('rt_school_names').select('name, rt_course_cards!rt_courses_school_id_fkey(id)').eq('school', 1);
    expect(hinted.data).toEqual([{ name: 'Escola Azul', rt_course_cards: [{ id: 1 }] }]);
  });

  it('a view without the key columns has no relationship (PGRST200)', async () => {
    const r = await rt.db.from('rt_school_names').select('name, rt_modules(title)');
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('PGRST200');
  });
});
