-- Issue 46, item 10: the home's ranking showed ten classmates' full names, and no student was told they
-- appear in it. Now:
-- - school_ranking() names each ranked student by first name and the initial of the last ("Mariana S."),
--   reduced here, so a student never receives a classmate's full name over the API (nor staff through
--   this function: they have the Alunos screen).
-- - A student learns once that they appear (in the top 10 classmates see) and where to turn it off:
--   school_ranking()'s `me.notice` is true until they dismiss it, which writes their ranking_notices row
--   (their own only, through RLS, as ranking_opt_outs). Nothing is written while reading the home.
-- Who is ranked does not change: a student of the school with points this month (something done this
-- month: a lesson completed, a quiz first passed, an answer marked), not opted out.
set local lock_timeout = '5s';

-- "Mariana Souza Lima" → "Mariana L."; one word stays whole; blank → "Estudante".
create function private.ranking_display_name(p_name text) returns text
language sql immutable set search_path = '' as $$
  select case
    when coalesce(btrim(p_name), '') = '' then 'Estudante'
    when cardinality(w) = 1 then w[1]
    else w[1] || ' ' || upper(left(w[cardinality(w)], 1)) || '.'
  end
  from (select regexp_split_to_array(btrim(p_name), '\s+') as w) s
$$;
revoke all on function private.ranking_display_name(text) from public, anon, authenticated;

-- A row: the student was told they appear in the ranking (and how to leave it). Only the student writes it.
create table public.ranking_notices (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  seen_at timestamptz not null default now()
);
alter table public.ranking_notices enable row level security;
revoke all on public.ranking_notices from public, anon, authenticated;
grant select, insert on public.ranking_notices to authenticated;
grant all on public.ranking_notices to service_role;
create policy ranking_notices_own on public.ranking_notices for all to authenticated
  using (user_id = (select auth.uid()) and (select private.is_active()))
  with check (user_id = (select auth.uid()) and (select private.is_active()));
create policy ranking_notices_password_change on public.ranking_notices as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- As in 20261126001400_discussions.sql, with `name` reduced and `me.notice`. Ties are still broken by
-- the full name (a stable order), which is not returned.
create or replace function public.school_ranking(p_school_id uuid default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_month date := private.sp_month(now());
  v_enabled boolean;
  v_opted_out boolean;
  v_is_student boolean;
  v_told boolean;
  v_result jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not (v_school is not distinct from private.my_school_id() or private.is_school_staff(v_school)) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select s.ranking_enabled into v_enabled from public.school_discussion_settings s where s.school_id = v_school;
  select exists (select 1 from public.ranking_opt_outs o where o.user_id = p.id),
         p.school_id = v_school and not private.has_any_role(p.id),
         exists (select 1 from public.ranking_notices n where n.user_id = p.id)
    into v_opted_out, v_is_student, v_told
    from public.profiles p where p.id = auth.uid();
  v_result := jsonb_build_object(
    'enabled', coalesce(v_enabled, false), 'month', v_month, 'opted_out', coalesce(v_opted_out, false),
    'weights', jsonb_build_object('lesson', 10, 'quiz', 30, 'answer', 20));
  if not coalesce(v_enabled, false) then
    return v_result || jsonb_build_object('top', '[]'::jsonb, 'me', null);
  end if;
  with ranked as (
    select rm.user_id, p.name, p.avatar_url, rm.lessons, rm.quizzes, rm.answers, rm.points,
           rank() over (order by rm.points desc) as pos,
           row_number() over (order by rm.points desc, p.name, rm.user_id) as rn
      from private.ranking_months rm
      join public.profiles p on p.id = rm.user_id
     where rm.school_id = v_school and rm.month = v_month and rm.points > 0
       and p.school_id = v_school and p.is_active
       and not exists (select 1 from public.ranking_opt_outs o where o.user_id = rm.user_id)
       and not exists (select 1 from public.user_roles r where r.user_id = rm.user_id)
  )
  select v_result || jsonb_build_object(
           'top', coalesce((select jsonb_agg(jsonb_build_object('position', t.pos, 'user_id', t.user_id,
                                                                'name', private.ranking_display_name(t.name),
                                                                'avatar_url', t.avatar_url, 'points', t.points, 'lessons', t.lessons,
                                                                'quizzes', t.quizzes, 'answers', t.answers) order by t.rn)
                              from ranked t where t.rn <= 10), '[]'::jsonb),
           'me', case when v_is_student and not v_opted_out then
                   coalesce((select jsonb_build_object('position', m.pos, 'points', m.points, 'lessons', m.lessons,
                                                       'quizzes', m.quizzes, 'answers', m.answers,
                                                       'notice', m.rn <= 10 and not v_told)
                               from ranked m where m.user_id = auth.uid()),
                            jsonb_build_object('position', null, 'points', 0, 'lessons', 0, 'quizzes', 0, 'answers', 0, 'notice', false))
                 end)
    into v_result;
  return v_result;
end $$;
