-- Issue 19: account squatting, and the forced password change only the server clears.
--
-- 1. Squatting. Anyone can sign up `vitima@…` with their own password before the real owner buys a
--    course. Whatever path later finds that account by e-mail (student-webhook, admin-create-student and
--    the CSV import, the staff's enrollment dialog, a payment), the database now refuses to hand it
--    anything until the address is confirmed:
--    - an enrollment of an account whose e-mail is unconfirmed is PENDING ("Aguardando confirmação"),
--      whatever the caller asked (the service role included); PENDING grants nothing (every access
--      rule requires ACTIVE);
--    - a role is never granted to an unconfirmed account;
--    - when the address is confirmed (the owner opened the link in their mailbox), an account that was
--      granted something meanwhile loses the password chosen before the confirmation (an empty hash
--      never signs in), must choose a new one, and its PENDING enrollments become ACTIVE.
-- 2. must_change_password. Only the server clears it, when the password really changes (a trigger on
--    auth.users); the owner's metadata (`auth.updateUser({ data })`) and the API no longer can. While
--    it is set the account reads nothing but its own profile, school and roles (restrictive policies
--    on every table and on storage, and a check in every security definer RPC an account can call).
set local lock_timeout = '5s';

-- ── Whose e-mail is confirmed ────────────────────────────────────────────────────────────────
-- For triggers and the service role: true only for an auth user whose address was confirmed.
create or replace function private.email_confirmed(p_user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select u.email_confirmed_at is not null from auth.users u where u.id = p_user_id), false)
$$;

-- Granted by someone else while unconfirmed: a PENDING enrollment or a role (roles are refused to
-- such accounts from now on; older rows still count).
create or replace function private.granted_while_unconfirmed(p_user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.enrollments e where e.user_id = p_user_id and e.status = 'PENDING')
      or exists (select 1 from public.user_roles r where r.user_id = p_user_id)
$$;

-- ── enrollments: PENDING until the student's address is confirmed ────────────────────────────
alter table public.enrollments drop constraint enrollments_status_check;
alter table public.enrollments add constraint enrollments_status_check check (status in ('ACTIVE', 'PAUSED', 'PENDING'));

create or replace function private.enrollments_pending_until_confirmed() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_confirmed boolean;
begin
  -- FOR SHARE waits for a confirmation being committed at this moment and then reads it, so an
  -- enrollment written during the confirmation is never left PENDING on a confirmed account.
  select u.email_confirmed_at is not null into v_confirmed from auth.users u where u.id = new.user_id for share;
  if not coalesce(v_confirmed, false) then
    new.status := 'PENDING';
  elsif new.status = 'PENDING' then
    raise exception 'PENDING é definido pelo banco de dados enquanto o e-mail do aluno não é confirmado' using errcode = '23514';
  end if;
  return new;
end $$;
create trigger enrollments_pending_until_confirmed before insert or update on public.enrollments
  for each row execute function private.enrollments_pending_until_confirmed();

-- Enrollments that exist already for accounts never confirmed (a squat before this migration).
update public.enrollments e set status = 'PENDING'
 where e.status <> 'PENDING' and not private.email_confirmed(e.user_id);

-- ── user_roles: never to an unconfirmed account ──────────────────────────────────────────────
create or replace function private.user_roles_require_confirmed() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not private.email_confirmed(new.user_id) then
    raise exception 'Esta conta ainda não confirmou o e-mail: um papel só pode ser atribuído depois da confirmação'
      using errcode = '23514';
  end if;
  return new;
end $$;
create trigger user_roles_require_confirmed before insert or update of user_id on public.user_roles
  for each row execute function private.user_roles_require_confirmed();

-- ── auth.users: confirmation and password changes ────────────────────────────────────────────
-- Before the confirmation is written: an account granted something while unconfirmed keeps no
-- password set before it (whoever chose it may not own the address). GoTrue refuses an empty hash.
create or replace function private.auth_user_confirming() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if private.granted_while_unconfirmed(new.id) then
    new.encrypted_password := '';
  end if;
  return new;
end $$;
create trigger on_auth_user_confirming before update on auth.users
  for each row when (old.email_confirmed_at is null and new.email_confirmed_at is not null)
  execute function private.auth_user_confirming();

-- After the update (profiles' own triggers write back to auth.users, which a BEFORE trigger may not):
-- - confirmed with grants: the owner must choose a password, and the grants become real;
-- - a new, non-empty password: the forced change is done (the one place the flag is cleared). An admin
--   reset sets it again afterwards (admin-reset-password), an empty hash (above) never clears it.
create or replace function private.auth_user_updated() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.email_confirmed_at is null and new.email_confirmed_at is not null
     and private.granted_while_unconfirmed(new.id) then
    update public.profiles set must_change_password = true where id = new.id and not must_change_password;
    update public.enrollments set status = 'ACTIVE' where user_id = new.id and status = 'PENDING';
  elsif new.encrypted_password is distinct from old.encrypted_password and coalesce(new.encrypted_password, '') <> '' then
    update public.profiles set must_change_password = false where id = new.id and must_change_password;
  end if;
  return null;
end $$;
create trigger on_auth_user_updated after update on auth.users
  for each row when (old.encrypted_password is distinct from new.encrypted_password
                     or (old.email_confirmed_at is null and new.email_confirmed_at is not null))
  execute function private.auth_user_updated();

-- The metadata no longer clears anything (`auth.updateUser({ data: { must_change_password: false } })`
-- is the user's own, unchecked input). The trigger stays (only the table's owner may drop it on the
-- platform); its function now does nothing. The profile → metadata mirror stays as it was.
create or replace function private.handle_user_metadata_update() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  return new;
end $$;

-- ── profiles.must_change_password through the API: set by a manager, cleared by nobody ───────
-- Same rules as before (20261122000400) but the last: the owner no longer clears their own flag (the
-- trigger above does, when the password changes), and a manager may only set it (staff force a change,
-- never waive one). The column grant stays for the managers; writing the value it already has is no
-- change (the SPA's forced-change dialog wrote false after the new password, which had cleared it).
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
  if new.must_change_password is distinct from old.must_change_password
     and (is_self or not is_manager or not new.must_change_password) then
    raise exception 'must_change_password is cleared only by changing the password' using errcode = '42501';
  end if;
  return new;
end $$;

-- ── While the password must change, the account reads nothing but its own profile ───────────
-- The caller's own flag (false for anon and for an account without a profile).
create or replace function private.password_change_pending() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select p.must_change_password from public.profiles p where p.id = auth.uid()), false)
$$;
revoke all on function private.password_change_pending() from public, anon;
grant execute on function private.password_change_pending() to authenticated, service_role;

-- RESTRICTIVE: ANDed with every permissive policy of the table. The own profile stays readable (the
-- SPA must see the flag), with the own school (the page the dialog sits on) and the own roles; nothing
-- else, in any command. tests/integration/security-accounts.test.ts checks that every table the API
-- can reach has one, so a new table cannot forget it.
create policy profiles_password_change_select on public.profiles as restrictive for select to authenticated
  using (id = (select auth.uid()) or not (select private.password_change_pending()));
create policy profiles_password_change_update on public.profiles as restrictive for update to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy schools_password_change_select on public.schools as restrictive for select to authenticated
  using (id = (select private.my_school_id()) or not (select private.password_change_pending()));
create policy schools_password_change_insert on public.schools as restrictive for insert to authenticated
  with check (not (select private.password_change_pending()));
create policy schools_password_change_update on public.schools as restrictive for update to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy schools_password_change_delete on public.schools as restrictive for delete to authenticated
  using (not (select private.password_change_pending()));
create policy user_roles_password_change_select on public.user_roles as restrictive for select to authenticated
  using (user_id = (select auth.uid()) or not (select private.password_change_pending()));
create policy user_roles_password_change_insert on public.user_roles as restrictive for insert to authenticated
  with check (not (select private.password_change_pending()));
create policy user_roles_password_change_update on public.user_roles as restrictive for update to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy user_roles_password_change_delete on public.user_roles as restrictive for delete to authenticated
  using (not (select private.password_change_pending()));
create policy announcements_password_change on public.announcements as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy certificates_password_change on public.certificates as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy courses_password_change on public.courses as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy enrollments_password_change on public.enrollments as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy integration_settings_password_change on public.integration_settings as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy lesson_comments_password_change on public.lesson_comments as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy lesson_contents_password_change on public.lesson_contents as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy lesson_ratings_password_change on public.lesson_ratings as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy lessons_password_change on public.lessons as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy materials_password_change on public.materials as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy modules_password_change on public.modules as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy payments_password_change on public.payments as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy progress_password_change on public.progress as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy system_config_password_change on public.system_config as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
-- Storage: no object of any bucket through the API (public buckets' URLs need no policy anyway).
create policy objects_password_change on storage.objects as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- Functions are executable by PUBLIC by default: these are for triggers and the definer RPCs only.
revoke all on function private.email_confirmed(uuid), private.granted_while_unconfirmed(uuid),
  private.enrollments_pending_until_confirmed(), private.user_roles_require_confirmed(),
  private.auth_user_confirming(), private.auth_user_updated() from public, anon, authenticated;

-- A lesson file may be read (a signed URL, a download) by whoever passes this check, also outside a
-- storage policy (e.g. an RPC that asks it before signing with the service role): it says no too.
-- The version of 20261122000300, plus the first check.
create or replace function private.can_read_course_object(p_name text) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  parts text[] := storage.foldername(p_name);
  v_course uuid;
  v_lesson uuid;
begin
  if private.password_change_pending() then
    return false;
  end if;
  select c.id into v_course from public.courses c
   where c.id = private.uuid_or_null(parts[2]) and c.school_id = private.uuid_or_null(parts[1]);
  if v_course is null then
    return false;
  end if;
  select l.id into v_lesson from public.lessons l
   where l.id = private.uuid_or_null(parts[3]) and l.course_id = v_course;
  if v_lesson is not null then
    return private.has_lesson_access(v_lesson);
  end if;
  return private.has_course_access(v_course);
end $$;

-- ── …and the security definer RPCs refuse it too (they bypass row-level security) ────────────
-- One line at the top of each: `perform private.refuse_while_password_change_pending();`.
create or replace function private.refuse_while_password_change_pending() returns void
language plpgsql stable security definer set search_path = '' as $$
begin
  if private.password_change_pending() then
    raise exception 'Troque sua senha antes de continuar.' using errcode = '42501';
  end if;
end $$;
revoke all on function private.refuse_while_password_change_pending() from public, anon, authenticated;

-- The functions below are the versions of their last migration (named above each), plus that line.
-- 20261123000200_admin_dashboard.sql
create or replace function public.admin_dashboard_counts(p_school_id uuid default null)
returns table (courses bigint, students bigint, materials bigint, active_enrollments bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query select
    (select count(*) from public.courses c where c.school_id = v_school),
    -- Students: accounts of the school that hold no staff or admin role.
    (select count(*) from public.profiles p
      where p.school_id = v_school
        and not exists (select 1 from public.user_roles r where r.user_id = p.id)),
    (select count(*) from public.materials m join public.courses c on c.id = m.course_id where c.school_id = v_school),
    (select count(*) from public.enrollments e join public.courses c on c.id = e.course_id
      where c.school_id = v_school and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now()));
end $$;

-- 20261123000250_course_content_admin.sql
create or replace function public.reorder_course_content(p_course_id uuid, p_modules jsonb)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_module jsonb;
  v_module_id uuid;
  v_lesson text;
  v_mi integer := 0;
  v_li integer;
  v_listed_modules uuid[] := '{}';
  v_listed_lessons uuid[] := '{}';
begin
  perform private.refuse_while_password_change_pending();
  if not private.is_course_staff(p_course_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if jsonb_typeof(p_modules) is distinct from 'array' then
    raise exception 'p_modules must be an array' using errcode = '22023';
  end if;
  for v_module in select * from jsonb_array_elements(p_modules) loop
    v_module_id := private.uuid_or_null(v_module ->> 'id');
    if v_module_id is null or not exists (select 1 from public.modules m where m.id = v_module_id and m.course_id = p_course_id) then
      raise exception 'module % is not a module of this course', v_module ->> 'id' using errcode = '22023';
    end if;
    v_listed_modules := v_listed_modules || v_module_id;
    update public.modules set order_index = v_mi where id = v_module_id and order_index is distinct from v_mi;
    v_li := 0;
    for v_lesson in select * from jsonb_array_elements_text(coalesce(v_module -> 'lessons', '[]'::jsonb)) loop
      if private.uuid_or_null(v_lesson) is null
         or not exists (select 1 from public.lessons l where l.id = v_lesson::uuid and l.course_id = p_course_id) then
        raise exception 'lesson % is not a lesson of this course', v_lesson using errcode = '22023';
      end if;
      v_listed_lessons := v_listed_lessons || v_lesson::uuid;
      update public.lessons set module_id = v_module_id, order_index = v_li
       where id = v_lesson::uuid and (module_id, order_index) is distinct from (v_module_id, v_li);
      v_li := v_li + 1;
    end loop;
    v_mi := v_mi + 1;
  end loop;
  -- The outline must be complete and without repeats, or the result would be ambiguous.
  if (select count(distinct x) from unnest(v_listed_modules) x) <> cardinality(v_listed_modules)
     or (select count(*) from public.modules m where m.course_id = p_course_id) <> cardinality(v_listed_modules)
     or (select count(distinct x) from unnest(v_listed_lessons) x) <> cardinality(v_listed_lessons)
     or (select count(*) from public.lessons l where l.course_id = p_course_id) <> cardinality(v_listed_lessons) then
    raise exception 'the new order must list every module and lesson of the course exactly once' using errcode = '22023';
  end if;
end $$;

-- 20261123000400_admin_reports.sql
create or replace function public.admin_report_summary(p_school_id uuid default null, p_course_id uuid default null)
returns table (
  total_students bigint, active_last_7_days bigint, average_progress integer, courses_completed bigint,
  average_rating numeric, comments_last_30_days bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  with r as (select * from private.report_students(v_school, p_course_id)),
  courses as (select c.id from public.courses c where c.school_id = v_school and (p_course_id is null or c.id = p_course_id))
  select
    (select count(*) from r),
    (select count(*) from r where r.last_access >= now() - interval '7 days'),
    (select coalesce(round(avg(r.progress))::integer, 0) from r where r.total_lessons > 0),
    (select coalesce(sum(r.completed_courses), 0)::bigint from r),
    (select round(avg(lr.rating), 1) from public.lesson_ratings lr join courses on courses.id = lr.course_id),
    (select count(*) from public.lesson_comments lc join courses on courses.id = lc.course_id
      where lc.created_at >= now() - interval '30 days');
end $$;

-- 20261123000400_admin_reports.sql
create or replace function public.admin_report_students(
  p_school_id uuid default null, p_tab text default 'all', p_course_id uuid default null,
  p_limit integer default 25, p_offset integer default 0
) returns table (
  user_id uuid, name text, email text, enrolled_courses bigint, active_enrollments bigint,
  completed_lessons bigint, total_lessons bigint, progress integer, last_access timestamptz, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_tab not in ('all', 'multi', 'inactive') then
    raise exception 'unknown tab %', p_tab using errcode = '22023';
  end if;
  return query
  select r.user_id, r.name, r.email, r.enrolled_courses, r.active_enrollments, r.completed_lessons, r.total_lessons,
         r.progress, r.last_access, count(*) over ()
  from private.report_students(v_school, p_course_id) r
  where p_tab = 'all'
     or (p_tab = 'multi' and r.active_enrollments > 1)
     or (p_tab = 'inactive' and (r.last_access is null or r.progress < 10))
  order by r.progress desc, r.name, r.user_id
  limit case when p_limit is null then null else least(greatest(p_limit, 1), 500) end
  offset greatest(coalesce(p_offset, 0), 0);
end $$;

-- 20261123000900_certificates.sql
create or replace function public.issue_certificate(p_course_id uuid) returns public.certificates
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_cert public.certificates;
  v_course public.courses;
  v_school_name text;
  v_name text;
  v_lessons bigint;
  v_done bigint;
  v_seconds bigint;
  v_completed_at timestamptz;
begin
  perform private.refuse_while_password_change_pending();
  if v_uid is null or not private.is_active() then
    raise exception 'Entre na sua conta para emitir o certificado.' using errcode = '42501';
  end if;

  select * into v_cert from public.certificates c where c.user_id = v_uid and c.course_id = p_course_id;
  if found then
    return v_cert;
  end if;

  select c.* into v_course from public.courses c
   where c.id = p_course_id and c.status = 'PUBLISHED' and c.school_id = private.my_school_id()
     and exists (select 1 from public.enrollments e
                 where e.course_id = c.id and e.user_id = v_uid and e.status = 'ACTIVE'
                   and (e.expires_at is null or e.expires_at > now()));
  if not found then
    raise exception 'Você não tem acesso a este curso.' using errcode = '42501';
  end if;
  if not v_course.certificate_enabled then
    raise exception 'Este curso não emite certificado.' using errcode = '22023';
  end if;

  -- Every lesson of the course now (the outline the student sees), completed by the caller.
  select count(*), count(p.completed_at), coalesce(sum(l.duration_sec), 0), max(p.completed_at)
    into v_lessons, v_done, v_seconds, v_completed_at
    from public.lessons l
    left join public.progress p on p.lesson_id = l.id and p.user_id = v_uid and p.completed_at is not null
   where l.course_id = v_course.id;
  if v_lessons = 0 or v_done < v_lessons then
    raise exception 'Conclua todas as aulas do curso para emitir o certificado.' using errcode = '22023';
  end if;

  select btrim(p.name) into v_name from public.profiles p where p.id = v_uid;
  if coalesce(v_name, '') = '' then
    raise exception 'Informe seu nome no perfil para emitir o certificado.' using errcode = '22023';
  end if;
  select s.name into v_school_name from public.schools s where s.id = v_course.school_id;

  insert into public.certificates (code, user_id, course_id, school_id, student_name, course_title, school_name,
                                   completed_at, workload_hours)
  values (private.new_certificate_code(), v_uid, v_course.id, v_course.school_id, v_name, v_course.title, v_school_name,
          v_completed_at,
          -- Whole hours, rounded half up (1 h 29 min → 1, 1 h 30 min → 2); a short course still certifies 1 h.
          greatest(1, round(v_seconds / 3600.0)::integer))
  -- A concurrent call (a double click) inserted it first: answer with that row.
  on conflict (user_id, course_id) do nothing
  returning * into v_cert;
  if v_cert.id is null then
    select * into v_cert from public.certificates c where c.user_id = v_uid and c.course_id = v_course.id;
  end if;
  return v_cert;
end $$;

-- 20261123000100_function_contracts.sql
create or replace function public.create_integration(
  p_provider text, p_environment text, p_api_key text, p_school_id uuid default null,
  p_webhook_token text default null
) returns public.integration_settings
language plpgsql security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_key text := btrim(coalesce(p_api_key, ''));
  v_token text := nullif(btrim(coalesce(p_webhook_token, '')), '');
  v_row public.integration_settings;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if v_key = '' then
    raise exception 'Preencha a chave API' using errcode = '22023';
  end if;
  insert into public.integration_settings (school_id, provider, environment, api_key_last4, has_webhook_token)
  values (v_school, p_provider, coalesce(p_environment, 'sandbox'), right(v_key, 4), v_token is not null)
  returning * into v_row;
  insert into private.integration_secrets (integration_id, api_key, webhook_token) values (v_row.id, v_key, v_token);
  return v_row;
end $$;

-- 20261123000100_function_contracts.sql
create or replace function public.set_integration_webhook_token(p_integration_id uuid, p_token text)
returns public.integration_settings
language plpgsql security definer set search_path = '' as $$
declare
  v_token text := nullif(btrim(coalesce(p_token, '')), '');
  v_row public.integration_settings;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_row from public.integration_settings where id = p_integration_id;
  if v_row.id is null or not private.is_school_staff(v_row.school_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update private.integration_secrets set webhook_token = v_token where integration_id = p_integration_id;
  update public.integration_settings set has_webhook_token = v_token is not null
   where id = p_integration_id returning * into v_row;
  return v_row;
end $$;

-- 20261123000500_school_webhook_secrets.sql
create or replace function public.reveal_school_webhook_secret(p_school_id uuid default null) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return (select w.secret from private.school_webhook_secrets w where w.school_id = v_school);
end $$;

-- 20261123000500_school_webhook_secrets.sql
create or replace function public.rotate_school_webhook_secret(p_school_id uuid default null) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_secret text := private.new_webhook_secret();
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  insert into private.school_webhook_secrets (school_id, secret) values (v_school, v_secret)
  on conflict (school_id) do update set secret = excluded.secret;
  return v_secret;
end $$;

-- 20261122000400_rls.sql
create or replace function public.set_system_config(p_key text, p_value text, p_description text default null)
returns public.system_config
language plpgsql security definer set search_path = '' as $$
declare
  v_value text := btrim(coalesce(p_value, ''));
  v_row public.system_config;
begin
  perform private.refuse_while_password_change_pending();
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
