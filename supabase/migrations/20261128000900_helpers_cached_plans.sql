-- Issue 38: the access helpers keep their plans. Every policy calls security-definer helpers
-- (private.my_school_id(), staff_school_ids(), accessible_lesson_ids(), has_lesson_access(...), ...),
-- which PostgreSQL never inlines. As LANGUAGE sql, each call parses and plans its body again, on every
-- statement of every request: on the bench school (scripts/bench/large-school.ts) that planning was
-- about 40% of the database's time on the student pages (pg_stat_statements with track_planning on a
-- throwaway cluster: the lesson page planned for 12 ms of its 32). As plpgsql, each body is planned
-- once per database connection and the plan is reused (PgBouncer/PostgREST keep connections, and so
-- does local-supabase). The bodies are the same queries, word for word, so every rule stays as it is
-- (20261128000100's second factor included); only the language changes. Grants are kept by
-- create or replace.
--
-- private.module_release_at has no table to guard and no power: without `set search_path` (it names
-- only built-ins, which pg_catalog resolves first) it is a plain expression the planner inlines, so
-- accessible_lesson_ids no longer calls it once per lesson (436 calls on one lesson page).

-- ── Who the caller is ───────────────────────────────────────────────────────────────────────────
create or replace function private.my_school_id() returns uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select p.school_id from public.profiles p where p.id = auth.uid() and p.is_active);
end $$;

create or replace function private.is_active() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (select 1 from public.profiles p where p.id = auth.uid() and p.is_active);
end $$;

create or replace function private.password_change_pending() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce((select p.must_change_password from public.profiles p where p.id = auth.uid()), false);
end $$;

create or replace function private.has_verified_factor() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (select 1 from auth.mfa_factors f where f.user_id = auth.uid() and f.status = 'verified');
end $$;

create or replace function private.second_factor_ok(p_school_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return case
    when coalesce(auth.jwt() ->> 'aal', '') = 'aal2' then true
    else not private.has_verified_factor()
         and not coalesce((select s.require_staff_mfa from public.schools s where s.id = p_school_id), false)
  end;
end $$;

create or replace function private.is_super_admin() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.user_id = auth.uid() and p.is_active and r.role = 'SUPER_ADMIN'
  ) and private.second_factor_ok(null);
end $$;

create or replace function private.staff_school_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  with me as (
    select coalesce(auth.jwt() ->> 'aal', '') = 'aal2' as aal2, private.has_verified_factor() as has_factor
  )
  select distinct r.school_id
  from public.user_roles r
  join public.profiles p on p.id = r.user_id
  join public.schools s on s.id = r.school_id
  cross join me
  where r.user_id = auth.uid() and p.is_active
    and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')
    and (me.aal2 or not (me.has_factor or s.require_staff_mfa));
end $$;

create or replace function private.is_school_staff(p_school_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.user_id = auth.uid() and p.is_active
      and (r.role = 'SUPER_ADMIN' or (r.school_id = p_school_id and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')))
      and private.second_factor_ok(case when r.role = 'SUPER_ADMIN' then null else p_school_id end)
  );
end $$;

create or replace function private.staff_role_at(p_user_id uuid, p_school_id uuid) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  return (
    select case
             when bool_or(r.role = 'SCHOOL_ADMIN' and r.school_id = p_school_id) then 'SCHOOL_ADMIN'
             when bool_or(r.role = 'INSTRUCTOR' and r.school_id = p_school_id) then 'INSTRUCTOR'
             when bool_or(r.role = 'STAFF' and r.school_id = p_school_id) then 'STAFF'
             when bool_or(r.role = 'SUPER_ADMIN') then 'SUPER_ADMIN'
           end
      from public.user_roles r
     where r.user_id = p_user_id
       and (coalesce(auth.role(), '') <> 'authenticated'
            or (r.user_id = auth.uid()
                and private.second_factor_ok(case when r.role = 'SUPER_ADMIN' then null else r.school_id end))));
end $$;

-- ── One course, module or lesson (writes: a row's own check) ────────────────────────────────────
create or replace function private.is_course_staff(p_course_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.courses c where c.id = p_course_id and private.is_school_staff(c.school_id)
  );
end $$;

create or replace function private.can_view_course(p_course_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (private.is_school_staff(c.school_id)
           or (c.status = 'PUBLISHED' and c.school_id = private.my_school_id()))
  );
end $$;

create or replace function private.has_course_access(p_course_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (private.is_school_staff(c.school_id)
           or (c.status = 'PUBLISHED' and c.school_id = private.my_school_id()
               and exists (
                 select 1 from public.enrollments e
                 where e.course_id = c.id and e.user_id = auth.uid() and e.status = 'ACTIVE'
                   and (e.expires_at is null or e.expires_at > now()))))
  );
end $$;

create or replace function private.module_release_at(p_mode text, p_days integer, p_on date, p_enrolled_at timestamptz)
returns timestamptz language sql stable as $$
  select case p_mode
    when 'AFTER_ENROLLMENT' then p_enrolled_at + p_days * interval '24 hours'
    when 'ON_DATE' then p_on::timestamp at time zone 'America/Sao_Paulo'
    else '-infinity'::timestamptz
  end
$$;
alter function private.module_release_at(text, integer, date, timestamptz) reset search_path;

create or replace function private.is_module_released(p_module_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.modules m
    left join public.enrollments e on e.course_id = m.course_id and e.user_id = auth.uid()
    where m.id = p_module_id
      and private.module_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at) <= now()
  );
end $$;

create or replace function private.has_lesson_access(p_lesson_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.lessons l
    where l.id = p_lesson_id
      and (private.is_course_staff(l.course_id)
           or (l.is_preview and private.can_view_course(l.course_id))
           or (private.has_course_access(l.course_id) and private.is_module_released(l.module_id)))
  );
end $$;

-- ── Sets (reads: computed once per statement) ───────────────────────────────────────────────────
create or replace function private.viewable_course_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  select c.id from public.courses c
  where (c.status = 'PUBLISHED' and c.school_id = (select private.my_school_id()))
     or c.school_id in (select private.staff_school_ids());
end $$;

create or replace function private.staff_course_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  select c.id from public.courses c where c.school_id in (select private.staff_school_ids());
end $$;

create or replace function private.accessible_course_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  select id from private.staff_course_ids() as s(id)
  union
  select e.course_id
  from public.enrollments e join public.courses c on c.id = e.course_id
  where e.user_id = (select auth.uid()) and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())
    and c.status = 'PUBLISHED' and c.school_id = (select private.my_school_id());
end $$;

create or replace function private.preview_lesson_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  select l.id from public.lessons l
  where l.is_preview and l.course_id in (select private.viewable_course_ids());
end $$;

create or replace function private.accessible_lesson_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  select l.id from public.lessons l where l.course_id in (select private.staff_course_ids())
  union
  select l.id
  from public.lessons l
  join public.modules m on m.id = l.module_id
  join public.enrollments e on e.course_id = l.course_id and e.user_id = (select auth.uid())
  where l.course_id in (select private.accessible_course_ids())
    and private.module_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at) <= now()
  union
  select id from private.preview_lesson_ids() as p(id);
end $$;

create or replace function private.withheld_comment_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  select c.id from public.lesson_comments c
   where (c.hidden_at is not null or c.status = 'pending')
     and c.course_id in (select private.viewable_course_ids());
end $$;

-- ── Written on every progress write (a trigger's call) ──────────────────────────────────────────
create or replace function private.record_activity(p_user_id uuid, p_at timestamptz) returns void
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.student_activity (school_id, day, user_id)
  select p.school_id, (p_at at time zone 'America/Sao_Paulo')::date, p.id
    from public.profiles p where p.id = p_user_id and p.school_id is not null and p_at is not null
  on conflict do nothing;
end $$;
