// Fixture tables (prefixed rt_) for the /rest/v1 tests, created through the superuser engine so the
// tests do not depend on the product schema; users with self-minted JWTs come from backend.jwtUser().
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend, type Backend } from './harness.ts';

export const REST_FIXTURE_SQL = `
create table public.rt_schools (id int primary key, name text not null, slug text unique);
create table public.rt_courses (
  id int primary key,
  school_id int not null references public.rt_schools (id) on delete cascade,
  title text not null,
  price numeric(10, 2),
  tags text[] not null default '{}',
  meta jsonb not null default '{}',
  published boolean not null default false,
  level text check (level in ('basic', 'advanced')),
  created_at timestamptz not null default '2024-01-02T03:04:05Z'
);
create table public.rt_modules (
  id int primary key,
  course_id int not null references public.rt_courses (id) on delete cascade,
  title text not null,
  position int not null
);
create table public.rt_lessons (
  id int primary key,
  module_id int not null references public.rt_modules (id) on delete cascade,
  title text not null,
  position int not null,
  duration int
);
create table public.rt_people (id int primary key, name text not null, mentor_id int references public.rt_people (id));
create table public.rt_profiles (person_id int primary key references public.rt_people (id), bio text);
create table public.rt_messages (
  id serial primary key,
  sender_id int not null references public.rt_people (id),
  receiver_id int not null references public.rt_people (id),
  body text not null
);
create table public.rt_tags (id int primary key, label text not null);
create table public.rt_course_tags (
  course_id int references public.rt_courses (id) on delete cascade,
  tag_id int references public.rt_tags (id) on delete cascade,
  primary key (course_id, tag_id)
);
create table public.rt_counters (slug text primary key, hits int not null default 0, note text default 'fresh');

insert into public.rt_schools values (1, 'Escola Azul', 'azul'), (2, 'Escola Verde', 'verde'), (3, 'Escola Vazia', null);
insert into public.rt_courses (id, school_id, title, price, tags, meta, published, level) values
  (1, 1, 'Álgebra', 100.50, '{math,exatas}', '{"hours": 10, "author": {"name": "Ana"}}', true, 'basic'),
  (2, 1, 'Geometria', null, '{math}', '{"hours": 4}', false, 'advanced'),
  (3, 2, 'Redação', 80, '{letras}', '{}', true, null),
  (4, 2, 'Gramática 100%', 50, '{}', '{"hours": 2}', true, 'basic');
insert into public.rt_modules values (1, 1, 'Introdução', 1), (2, 1, 'Equações', 2), (3, 3, 'Texto', 1);
insert into public.rt_lessons values
  (1, 1, 'Boas-vindas', 1, 5), (2, 1, 'Números', 2, 12), (3, 2, 'Lineares', 1, null), (4, 3, 'Dissertação', 1, 30);
insert into public.rt_people values (1, 'Ana', null), (2, 'Bruno', 1), (3, 'Carla', 1);
insert into public.rt_profiles values (1, 'Professora');
insert into public.rt_messages (sender_id, receiver_id, body) values (1, 2, 'oi'), (2, 1, 'olá');
insert into public.rt_tags values (1, 'novo'), (2, 'popular');
insert into public.rt_course_tags values (1, 1), (1, 2), (3, 2);

create table public.rt_notes (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid(),
  body text not null,
  is_public boolean not null default false
);
alter table public.rt_notes enable row level security;
create policy rt_notes_read on public.rt_notes for select using (is_public or owner_id = (select auth.uid()));
create policy rt_notes_insert on public.rt_notes for insert to authenticated with check (owner_id = (select auth.uid()));
create policy rt_notes_update on public.rt_notes for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy rt_notes_delete on public.rt_notes for delete to authenticated using (owner_id = (select auth.uid()));

create table public.rt_secrets (id int primary key, value text);
revoke all on public.rt_secrets from anon, authenticated;
insert into public.rt_secrets values (1, 'top secret');

create function public.rt_add(a int, b int) returns int language sql immutable as 'select a + b';
create function public.rt_hello(name text default 'mundo') returns text language sql immutable as $$ select 'olá, ' || name $$;
create function public.rt_courses_of(school int) returns setof public.rt_courses language sql stable
  as 'select * from public.rt_courses where school_id = school order by id';
create function public.rt_first_course() returns public.rt_courses language sql stable
  as 'select * from public.rt_courses order by id limit 1';
create function public.rt_stats() returns table (total bigint, published bigint) language sql stable
  as 'select count(*), count(*) filter (where published) from public.rt_courses';
create function public.rt_ids(n int) returns setof int language sql immutable as 'select generate_series(1, n)';
create function public.rt_sum(vals int[]) returns int language sql immutable as 'select coalesce(sum(v), 0)::int from unnest(vals) v';
create function public.rt_echo(payload jsonb) returns jsonb language sql immutable as 'select payload';
create function public.rt_noop() returns void language sql as 'select null';
create function public.rt_bump(slug_in text) returns int language sql as
  'insert into public.rt_counters (slug, hits) values (slug_in, 1)
   on conflict (slug) do update set hits = public.rt_counters.hits + 1 returning hits';
create function public.rt_fail(msg text) returns void language plpgsql as $$
begin
  raise exception '%', msg using hint = 'try again', detail = 'it failed';
end $$;
create function public.rt_me() returns json language sql stable as $$ select json_build_object('uid', auth.uid(), 'role', auth.role()) $$;
create function public.rt_pick(a int) returns text language sql immutable as $$ select 'int' $$;
create function public.rt_pick(a text, b text) returns text language sql immutable as $$ select 'text-text' $$;
-- Two overloads a call with only a fits: PostgREST cannot choose (PGRST203).
create function public.rt_greet(a int) returns text language sql immutable as $$ select 'one' $$;
create function public.rt_greet(a int, b int default 2) returns text language sql immutable as $$ select 'two' $$;
-- A computed field and computed relationships of rt_people (functions of the row).
create function public.rt_full_name(p public.rt_people) returns text language sql stable as $$ select p.name || ' #' || p.id $$;
create function public.rt_mentees(p public.rt_people) returns setof public.rt_people language sql stable
  as $$ select * from public.rt_people where mentor_id = p.id order by id $$;
create function public.rt_mentor_of(p public.rt_people) returns public.rt_people language sql stable
  as $$ select * from public.rt_people where id = p.mentor_id $$;
-- Views over tables with foreign keys: they take the relationships of the columns they show.
create view public.rt_course_cards as select c.id, c.title as heading, c.school_id from public.rt_courses c where c.published;
create view public.rt_school_names as select s.id as school, s.name from public.rt_schools s;
`;

/**
 * The backend of every rest-*.test.ts file: useBackend with the fixtures (and `extraSql`, run after
 * them). `db` is one anon supabase-js client for the file's tests.
 */
export function useRestBackend(extraSql?: string): { readonly backend: Backend; readonly db: SupabaseClient } {
  const backend = useBackend({ sql: [REST_FIXTURE_SQL, ...(extraSql ? [extraSql] : [])] });
  let db: SupabaseClient | undefined;
  return {
    backend,
    get db() {
      return (db ??= backend.anon());
    },
  };
}

/** A raw request to /rest/v1 (for headers supabase-js does not expose). */
export async function rest(backend: Backend, path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('apikey')) headers.set('apikey', init.key ?? ANON_KEY);
  return fetch(`${backend.url}/rest/v1${path}`, { ...init, headers });
}
