// Horizontal filters of /rest/v1 through supabase-js: every operator, negation and logic trees.
import { describe, expect, it } from 'vitest';
import { rest, useRestBackend } from '../rest-fixtures.ts';

const rt = useRestBackend(`
    create table public.rt_docs (id int primary key, body text not null, tsv tsvector generated always as (to_tsvector('portuguese', body)) stored, period int4range);
    insert into public.rt_docs (id, body, period) values
      (1, 'O gato subiu no telhado', '[1,10)'), (2, 'Cachorros correm no parque', '[10,20)'), (3, 'Gatos e cachorros', null);
  `);

const ids = (r: { data: { id: number }[] | null; error: unknown }) => {
  expect(r.error).toBeNull();
  return r.data!.map((x) => x.id);
};

describe('comparison operators', () => {
  it('eq neq gt gte lt lte', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').eq('school_id', 2).order('id'))).toEqual([3, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').neq('school_id', 2).order('id'))).toEqual([1, 2]);
    expect(ids(await rt.db.from('rt_courses').select('id').gt('price', 80).order('id'))).toEqual([1]);
    expect(ids(await rt.db.from('rt_courses').select('id').gte('price', 80).order('id'))).toEqual([1, 3]);
    expect(ids(await rt.db.from('rt_courses').select('id').lt('price', 80).order('id'))).toEqual([4]);
    expect(ids(await rt.db.from('rt_courses').select('id').lte('price', 80).order('id'))).toEqual([3, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').eq('created_at', '2024-01-02T03:04:05Z').order('id'))).toEqual([1, 2, 3, 4]);
  });

  it('like / ilike with * wildcards, and quantified likeAnyOf / likeAllOf', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').like('title', '*metria'))).toEqual([2]);
    expect(ids(await rt.db.from('rt_courses').select('id').like('title', '%metria'))).toEqual([2]);
    expect(ids(await rt.db.from('rt_courses').select('id').ilike('title', 'á*'))).toEqual([1]);
    expect(ids(await rt.db.from('rt_courses').select('id').ilike('title', '*100%*'))).toEqual([4]);
    expect(ids(await rt.db.from('rt_courses').select('id').likeAnyOf('title', ['Geo*', 'Red*']).order('id'))).toEqual([2, 3]);
    expect(ids(await rt.db.from('rt_courses').select('id').ilikeAllOf('title', ['*a*', '*e*']).order('id'))).toEqual([1, 2, 3]);
  });

  it('is null / true / false and not.is', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').is('price', null))).toEqual([2]);
    expect(ids(await rt.db.from('rt_courses').select('id').not('price', 'is', null).order('id'))).toEqual([1, 3, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').is('published', false))).toEqual([2]);
    expect(ids(await rt.db.from('rt_courses').select('id').is('published', true).order('id'))).toEqual([1, 3, 4]);
  });

  it('in, with quoted values containing commas and parentheses', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').in('id', [4, 1, 9]).order('id'))).toEqual([1, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').in('title', ['Redação', 'a,b', 'x(y)']))).toEqual([3]);
    expect(ids(await rt.db.from('rt_courses').select('id').in('id', []))).toEqual([]);
    expect(ids(await rt.db.from('rt_courses').select('id').not('id', 'in', '(1,2)').order('id'))).toEqual([3, 4]);
  });

  it('cs cd ov on arrays and jsonb; range operators', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').contains('tags', ['math']).order('id'))).toEqual([1, 2]);
    expect(ids(await rt.db.from('rt_courses').select('id').containedBy('tags', ['math', 'letras']).order('id'))).toEqual([2, 3, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').overlaps('tags', ['exatas', 'letras']).order('id'))).toEqual([1, 3]);
    expect(ids(await rt.db.from('rt_courses').select('id').contains('meta', { author: { name: 'Ana' } }))).toEqual([1]);
    expect(ids(await rt.db.from('rt_docs').select('id').overlaps('period', '[5,12)').order('id'))).toEqual([1, 2]);
    expect(ids(await rt.db.from('rt_docs').select('id').rangeLt('period', '[10,20)'))).toEqual([1]);
    expect(ids(await rt.db.from('rt_docs').select('id').rangeAdjacent('period', '[20,30)'))).toEqual([2]);
  });

  it('JSON path filters', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').eq('meta->>hours', '4'))).toEqual([2]);
    expect(ids(await rt.db.from('rt_courses').select('id').eq('meta->author->>name', 'Ana'))).toEqual([1]);
    expect(ids(await rt.db.from('rt_courses').select('id').gt('meta->hours', 3).order('id'))).toEqual([1, 2]);
  });

  it('full-text search on a tsvector and on a text column', async () => {
    expect(ids(await rt.db.from('rt_docs').select('id').textSearch('tsv', 'gato', { config: 'portuguese' }).order('id'))).toEqual([1, 3]);
    expect(ids(await rt.db.from('rt_docs').select('id').textSearch('body', 'cachorros & parque', { config: 'portuguese' }))).toEqual([2]);
    expect(ids(await rt.db.from('rt_docs').select('id').textSearch('tsv', 'gatos cachorros', { type: 'plain', config: 'portuguese' }))).toEqual([3]);
    expect(ids(await rt.db.from('rt_docs').select('id').textSearch('tsv', '"gato subiu"', { type: 'websearch', config: 'portuguese' }))).toEqual([1]);
  });

  it('match / imatch regular expressions and isdistinct', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').match({ school_id: 1, published: true }))).toEqual([1]);
    expect(ids(await rt.db.from('rt_courses').select('id').filter('title', 'match', '^G').order('id'))).toEqual([2, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').filter('title', 'imatch', '^g').order('id'))).toEqual([2, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').filter('level', 'isdistinct', 'basic').order('id'))).toEqual([2, 3]);
  });
});

describe('logic trees', () => {
  it('or, nested and, not.or', async () => {
    expect(ids(await rt.db.from('rt_courses').select('id').or('id.eq.1,and(price.gt.60,price.lt.90)').order('id'))).toEqual([1, 3]);
    expect(ids(await rt.db.from('rt_courses').select('id').or('title.eq."Gramática 100%",level.is.null').order('id'))).toEqual([3, 4]);
    expect(ids(await rt.db.from('rt_courses').select('id').or('id.in.(1,2),tags.cs.{letras}').order('id'))).toEqual([1, 2, 3]);
    expect(ids(await rt.db.from('rt_courses').select('id').or('not.and(published.is.true,school_id.eq.2)').order('id'))).toEqual([1, 2]);
    const negated = await rest(rt.backend, '/rt_courses?select=id&not.or=(id.eq.1,id.eq.2)&order=id');
    expect(await negated.json()).toEqual([{ id: 3 }, { id: 4 }]);
    const and = await rest(rt.backend, '/rt_courses?select=id&and=(published.is.true,or(school_id.eq.1,price.lt.60))&order=id');
    expect(await and.json()).toEqual([{ id: 1 }, { id: 4 }]);
  });

  it('or on an embedded resource filters the embed', async () => {
    const { data } = await rt.db
      .from('rt_modules')
      .select('id, rt_lessons(id)')
      .eq('id', 1)
      .or('position.eq.2,duration.lt.6', { referencedTable: 'rt_lessons' });
    expect(data).toEqual([{ id: 1, rt_lessons: [{ id: 1 }, { id: 2 }] }]);
    const { data: d2 } = await rt.db.from('rt_modules').select('id, rt_lessons(id)').eq('id', 1).or('duration.gt.10', { referencedTable: 'rt_lessons' });
    expect(d2).toEqual([{ id: 1, rt_lessons: [{ id: 2 }] }]);
  });

  it('filters on nested embeds', async () => {
    const { data, error } = await rt.db
      .from('rt_courses')
      .select('id, rt_modules!inner(id, rt_lessons!inner(title))')
      .eq('rt_modules.rt_lessons.title', 'Dissertação');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 3, rt_modules: [{ id: 3, rt_lessons: [{ title: 'Dissertação' }] }] }]);
  });
});
