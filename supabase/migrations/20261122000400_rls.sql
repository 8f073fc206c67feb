-- Grants and row-level security for every table in public. docs/security.md has the matrix.
-- Rules of thumb: anon reads only the login-page columns of schools; every other policy is
-- `to authenticated` and starts from an active profile; staff = a staff role at the row's school
-- (or super admin); no write policy is `using (true)`.

-- ── Grants: start from nothing, give back exactly what the policies are written for ──────────
-- Supabase's default privileges grant everything on public to anon and authenticated.
revoke all on all tables in schema public from anon, authenticated;

-- anon: the login page of a school (SPEC §2): name, member-area name, logo, login banner and its
-- position, colours, support WhatsApp; id for sign-up metadata, slug for the lookup. A column grant,
-- so `select *` as anon is refused: select these columns by name.
grant select (id, slug, name, member_area_name, logo_url, login_banner_url, login_banner_position,
              primary_color, secondary_color, support_whatsapp)
  on public.schools to anon;

grant select, insert, delete on public.schools to authenticated;
grant update (slug, name, description, member_area_name, logo_url, login_banner_url, login_banner_position,
              banner_url, banner_position, primary_color, secondary_color, support_whatsapp)
  on public.schools to authenticated;

-- profiles are created by the auth.users trigger; only these columns are ever updatable through the
-- API, and the guard trigger below decides who may touch the last three.
grant select on public.profiles to authenticated;
grant update (name, phone, cpf, address, avatar_url, is_active, must_change_password, school_id)
  on public.profiles to authenticated;

grant select, insert, delete on public.user_roles to authenticated;
grant update (role, school_id) on public.user_roles to authenticated;

grant select, insert, delete on public.courses to authenticated;
grant update (instructor_id, title, description, slug, thumbnail_url, thumbnail_position, banner_url,
              banner_position, purchase_url, price, max_installments, status, total_lessons)
  on public.courses to authenticated;

grant select, insert, delete on public.modules to authenticated;
grant update (title, description, thumbnail_url, order_index) on public.modules to authenticated;

grant select, insert, delete on public.lessons to authenticated;
grant update (module_id, title, video_type, duration_sec, order_index, is_preview) on public.lessons to authenticated;

grant select, insert, delete on public.lesson_contents to authenticated;
-- Upserts (PostgREST sets every column of the payload, the conflict key included) need update on
-- the key columns too; RLS WITH CHECK and the course_id triggers keep the rows where they belong.
grant update (lesson_id, content, video_url) on public.lesson_contents to authenticated;

grant select, insert, delete on public.materials to authenticated;
grant update (course_id, lesson_id, title, type, url, file_path) on public.materials to authenticated;

grant select, insert, delete on public.enrollments to authenticated;
grant update (status, expires_at, cohort_id) on public.enrollments to authenticated;

-- No delete: completion is final.
grant select, insert on public.progress to authenticated;
grant update (user_id, course_id, lesson_id, completed_at, last_position_sec) on public.progress to authenticated;

grant select, insert, delete on public.lesson_comments to authenticated;
grant update (comment) on public.lesson_comments to authenticated;

grant select, insert, delete on public.lesson_ratings to authenticated;
grant update (user_id, course_id, lesson_id, rating) on public.lesson_ratings to authenticated;

grant select, insert, delete on public.announcements to authenticated;
grant update (course_id, title, body, image_url, video_url, video_type, is_active, priority)
  on public.announcements to authenticated;

-- Created only through public.create_integration (the key goes to private.integration_secrets).
grant select, delete on public.integration_settings to authenticated;
grant update (is_active) on public.integration_settings to authenticated;

-- Written only through public.set_system_config (super admin).
grant select, delete on public.system_config to authenticated;

-- Secrets: never anon/authenticated. Edge functions read them with the service role through the
-- RPCs at the end of this file (PostgREST does not expose `private`), or directly in SQL.
revoke all on private.integration_secrets, private.system_secrets from public, anon, authenticated;
grant select, insert, update, delete on private.integration_secrets, private.system_secrets to service_role;

-- ── schools ──────────────────────────────────────────────────────────────────────────────────
-- Public login-page data (restricted to the granted columns above).
create policy schools_select_anon on public.schools for select to anon
  using (true);
create policy schools_select on public.schools for select to authenticated
  using (id = (select private.my_school_id())
         or id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy schools_insert on public.schools for insert to authenticated
  with check ((select private.is_super_admin()));
create policy schools_update on public.schools for update to authenticated
  using (id in (select private.staff_school_ids()) or (select private.is_super_admin()))
  with check (id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy schools_delete on public.schools for delete to authenticated
  using ((select private.is_super_admin()));

-- ── profiles ─────────────────────────────────────────────────────────────────────────────────
-- Own profile: readable even when inactive (the login screen must tell "Sua conta está inativa"
-- from a missing profile); that is the one thing an inactive account can read.
create policy profiles_select on public.profiles for select to authenticated
  using (id = (select auth.uid())
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
-- Own profile (when active); staff on the students (accounts without a role) of their school; super
-- admin on anyone. The guard trigger limits which columns each of them may change.
create policy profiles_update on public.profiles for update to authenticated
  using ((id = (select auth.uid()) and (select private.is_active()))
         or (school_id in (select private.staff_school_ids()) and not private.has_any_role(id))
         or (select private.is_super_admin()))
  with check ((id = (select auth.uid()) and (select private.is_active()))
              or (school_id in (select private.staff_school_ids()) and not private.has_any_role(id))
              or (select private.is_super_admin()));

-- Column rules RLS cannot express. Only checked for API roles: the auth trigger, edge functions
-- (service_role) and the seed run as other roles.
create or replace function private.profiles_guard() returns trigger
language plpgsql set search_path = '' as $$
declare
  is_self boolean := new.id = auth.uid();
  is_manager boolean;
begin
  if current_user not in ('authenticated', 'anon') then
    return new;
  end if;
  is_manager := private.is_super_admin() or (not is_self and private.is_school_staff(old.school_id));
  if new.id is distinct from old.id then
    raise exception 'profile id cannot change' using errcode = '42501';
  end if;
  if new.school_id is distinct from old.school_id and not private.is_super_admin() then
    raise exception 'only a super admin moves an account to another school' using errcode = '42501';
  end if;
  -- Nobody (not even a super admin) toggles their own is_active: no self re-activation, no lock-out.
  if new.is_active is distinct from old.is_active and (is_self or not is_manager) then
    raise exception 'is_active can only be changed by an administrator of the school' using errcode = '42501';
  end if;
  -- A user may only clear their own flag (after changing the password), never set it.
  if new.must_change_password is distinct from old.must_change_password
     and not is_manager
     and not (is_self and old.must_change_password and not new.must_change_password) then
    raise exception 'must_change_password can only be cleared by its owner' using errcode = '42501';
  end if;
  return new;
end $$;
revoke all on function private.profiles_guard() from public, anon, authenticated;
create trigger profiles_guard before update on public.profiles
  for each row execute function private.profiles_guard();

-- ── user_roles ───────────────────────────────────────────────────────────────────────────────
create policy user_roles_select on public.user_roles for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
-- Roles are granted by the super admin only, never to themselves.
create policy user_roles_insert on public.user_roles for insert to authenticated
  with check ((select private.is_super_admin()) and user_id <> (select auth.uid()));
create policy user_roles_update on public.user_roles for update to authenticated
  using ((select private.is_super_admin()) and user_id <> (select auth.uid()))
  with check ((select private.is_super_admin()) and user_id <> (select auth.uid()));
create policy user_roles_delete on public.user_roles for delete to authenticated
  using ((select private.is_super_admin()) and user_id <> (select auth.uid()));

-- ── courses ──────────────────────────────────────────────────────────────────────────────────
create policy courses_select on public.courses for select to authenticated
  using ((status = 'PUBLISHED' and school_id = (select private.my_school_id()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy courses_insert on public.courses for insert to authenticated
  with check (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy courses_update on public.courses for update to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()))
  with check (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy courses_delete on public.courses for delete to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));

-- ── modules and lessons (the outline) ────────────────────────────────────────────────────────
create policy modules_select on public.modules for select to authenticated
  using ((select private.can_view_course(course_id)));
create policy modules_insert on public.modules for insert to authenticated
  with check ((select private.is_course_staff(course_id)));
create policy modules_update on public.modules for update to authenticated
  using ((select private.is_course_staff(course_id)))
  with check ((select private.is_course_staff(course_id)));
create policy modules_delete on public.modules for delete to authenticated
  using ((select private.is_course_staff(course_id)));

create policy lessons_select on public.lessons for select to authenticated
  using ((select private.can_view_course(course_id)));
create policy lessons_insert on public.lessons for insert to authenticated
  with check ((select private.is_course_staff(course_id)));
create policy lessons_update on public.lessons for update to authenticated
  using ((select private.is_course_staff(course_id)))
  with check ((select private.is_course_staff(course_id)));
create policy lessons_delete on public.lessons for delete to authenticated
  using ((select private.is_course_staff(course_id)));

-- ── lesson_contents and materials: only with access to the lesson ────────────────────────────
create policy lesson_contents_select on public.lesson_contents for select to authenticated
  using ((select private.has_lesson_access(lesson_id)));
create policy lesson_contents_insert on public.lesson_contents for insert to authenticated
  with check ((select private.is_course_staff((select l.course_id from public.lessons l where l.id = lesson_id))));
create policy lesson_contents_update on public.lesson_contents for update to authenticated
  using ((select private.is_course_staff((select l.course_id from public.lessons l where l.id = lesson_id))))
  with check ((select private.is_course_staff((select l.course_id from public.lessons l where l.id = lesson_id))));
create policy lesson_contents_delete on public.lesson_contents for delete to authenticated
  using ((select private.is_course_staff((select l.course_id from public.lessons l where l.id = lesson_id))));

create policy materials_select on public.materials for select to authenticated
  using (case when lesson_id is null then (select private.has_course_access(course_id))
              else (select private.has_lesson_access(lesson_id)) end);
create policy materials_insert on public.materials for insert to authenticated
  with check ((select private.is_course_staff(course_id)));
create policy materials_update on public.materials for update to authenticated
  using ((select private.is_course_staff(course_id)))
  with check ((select private.is_course_staff(course_id)));
create policy materials_delete on public.materials for delete to authenticated
  using ((select private.is_course_staff(course_id)));

-- ── enrollments: students read their own; staff manage their school's ────────────────────────
create policy enrollments_select on public.enrollments for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or (select private.is_course_staff(course_id)));
create policy enrollments_insert on public.enrollments for insert to authenticated
  with check ((select private.is_course_staff(course_id)));
create policy enrollments_update on public.enrollments for update to authenticated
  using ((select private.is_course_staff(course_id)))
  with check ((select private.is_course_staff(course_id)));
create policy enrollments_delete on public.enrollments for delete to authenticated
  using ((select private.is_course_staff(course_id)));

-- ── progress, ratings, comments: own rows on accessible lessons; staff read their school's ───
create policy progress_select on public.progress for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or (select private.is_course_staff(course_id)));
create policy progress_insert on public.progress for insert to authenticated
  with check (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)));
create policy progress_update on public.progress for update to authenticated
  using (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)))
  with check (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)));

create policy lesson_ratings_select on public.lesson_ratings for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or (select private.is_course_staff(course_id)));
create policy lesson_ratings_insert on public.lesson_ratings for insert to authenticated
  with check (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)));
create policy lesson_ratings_update on public.lesson_ratings for update to authenticated
  using (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)))
  with check (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)));
create policy lesson_ratings_delete on public.lesson_ratings for delete to authenticated
  using (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)));

-- Everyone who can open the lesson reads its comments (author name/avatar are copied on the row).
create policy lesson_comments_select on public.lesson_comments for select to authenticated
  using ((select private.has_lesson_access(lesson_id)));
create policy lesson_comments_insert on public.lesson_comments for insert to authenticated
  with check (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)));
create policy lesson_comments_update on public.lesson_comments for update to authenticated
  using (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)))
  with check (user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)));
-- Authors delete their own; staff moderate their school's.
create policy lesson_comments_delete on public.lesson_comments for delete to authenticated
  using ((user_id = (select auth.uid()) and (select private.has_lesson_access(lesson_id)))
         or (select private.is_course_staff(course_id)));

-- ── announcements ────────────────────────────────────────────────────────────────────────────
create policy announcements_select on public.announcements for select to authenticated
  using ((is_active and school_id = (select private.my_school_id()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy announcements_insert on public.announcements for insert to authenticated
  with check (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy announcements_update on public.announcements for update to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()))
  with check (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy announcements_delete on public.announcements for delete to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));

-- ── integration_settings (no insert policy: create_integration below) ────────────────────────
create policy integration_settings_select on public.integration_settings for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy integration_settings_update on public.integration_settings for update to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()))
  with check (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy integration_settings_delete on public.integration_settings for delete to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));

-- ── system_config: super admin only (writes through set_system_config) ───────────────────────
create policy system_config_select on public.system_config for select to authenticated
  using ((select private.is_super_admin()));
create policy system_config_delete on public.system_config for delete to authenticated
  using ((select private.is_super_admin()));

-- ── RPCs for the secrets ─────────────────────────────────────────────────────────────────────

-- Settings screen: add an integration. Staff of the school (default: the caller's own school).
-- Stores the key in private.integration_secrets; returns the public row (last 4 characters only).
create or replace function public.create_integration(
  p_provider text, p_environment text, p_api_key text, p_school_id uuid default null
) returns public.integration_settings
language plpgsql security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_key text := btrim(coalesce(p_api_key, ''));
  v_row public.integration_settings;
begin
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if v_key = '' then
    raise exception 'Preencha a chave API' using errcode = '22023';
  end if;
  insert into public.integration_settings (school_id, provider, environment, api_key_last4)
  values (v_school, p_provider, coalesce(p_environment, 'sandbox'), right(v_key, 4))
  returning * into v_row;
  insert into private.integration_secrets (integration_id, api_key) values (v_row.id, v_key);
  return v_row;
end $$;

-- Settings screen: set (insert or replace) a system secret such as ASAAS_API_KEY. Super admin only.
create or replace function public.set_system_config(p_key text, p_value text, p_description text default null)
returns public.system_config
language plpgsql security definer set search_path = '' as $$
declare
  v_value text := btrim(coalesce(p_value, ''));
  v_row public.system_config;
begin
  if not private.is_super_admin() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if v_value = '' then
    raise exception 'A chave não pode estar vazia' using errcode = '22023';
  end if;
  insert into public.system_config (key, value_last4, description, created_by)
  values (p_key, right(v_value, 4), p_description, auth.uid())
  on conflict (key) do update
    set value_last4 = excluded.value_last4,
        description = coalesce(excluded.description, public.system_config.description)
  returning * into v_row;
  insert into private.system_secrets (config_id, value) values (v_row.id, v_value)
  on conflict (config_id) do update set value = excluded.value;
  return v_row;
end $$;

-- For edge functions (service role only): the active key of a school's provider, newest first
-- (production before sandbox when both are active).
create or replace function public.get_integration_secret(p_school_id uuid, p_provider text)
returns table (integration_id uuid, environment text, api_key text)
language plpgsql stable security definer set search_path = '' as $$
begin
  -- Besides the grant: refuse any API caller but the service role, should grants ever widen.
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
    select i.id, i.environment, s.api_key
    from public.integration_settings i join private.integration_secrets s on s.integration_id = i.id
    where i.school_id = p_school_id and i.provider = p_provider and i.is_active
    order by (i.environment = 'production') desc, i.created_at desc
    limit 1;
end $$;

-- For edge functions (service role only): a system secret by key.
create or replace function public.get_system_secret(p_key text) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return (select s.value from public.system_config c join private.system_secrets s on s.config_id = c.id
          where c.key = p_key);
end $$;

revoke all on function public.create_integration(text, text, text, uuid) from public, anon;
revoke all on function public.set_system_config(text, text, text) from public, anon;
grant execute on function public.create_integration(text, text, text, uuid) to authenticated, service_role;
grant execute on function public.set_system_config(text, text, text) to authenticated, service_role;
revoke all on function public.get_integration_secret(uuid, text) from public, anon, authenticated;
revoke all on function public.get_system_secret(text) from public, anon, authenticated;
grant execute on function public.get_integration_secret(uuid, text) to service_role;
grant execute on function public.get_system_secret(text) to service_role;
