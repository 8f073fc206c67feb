-- Students screen (SPEC §2 "Students", issue 10): the e-mail on the profile so staff can search by it,
-- and one paginated, searchable list of a school's students (accounts without any role).

-- ── profiles.email: copied from auth.users, never written through the API ──────────────────────
alter table public.profiles
  add column email text constraint profiles_email_length check (length(email) <= 320);
update public.profiles p set email = lower(u.email) from auth.users u where u.id = p.id;
create index profiles_school_id_email_idx on public.profiles (school_id, email);

-- Same as before, plus the e-mail (a new version of the function of 20261122000200).
create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
begin
  insert into public.profiles (id, school_id, name, must_change_password, email)
  values (
    new.id,
    (select s.id from public.schools s where s.id = private.uuid_or_null(meta ->> 'school_id')),
    left(coalesce(nullif(btrim(meta ->> 'name'), ''), split_part(coalesce(new.email, ''), '@', 1)), 200),
    coalesce(meta ->> 'must_change_password' = 'true', false),
    lower(new.email)
  )
  on conflict (id) do nothing;
  return new;
end $$;

create or replace function private.handle_user_email_update() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email = lower(new.email) where id = new.id;
  return new;
end $$;
create trigger on_auth_user_email_updated after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.handle_user_email_update();

-- The API may never set it (the grants of 20261122000400 are per column and do not include email);
-- this keeps it so even if a later grant widens.
create or replace function private.profiles_keep_email() returns trigger
language plpgsql set search_path = '' as $$
begin
  if current_user in ('authenticated', 'anon') then
    new.email := old.email;
  end if;
  return new;
end $$;
create trigger profiles_keep_email before update of email on public.profiles
  for each row execute function private.profiles_keep_email();

-- ── The list ─────────────────────────────────────────────────────────────────────────────────
-- Security invoker: row-level security decides what the caller sees (staff: their school; super
-- admin: any), so this only shapes the query: no role, optional search by name, e-mail or CPF
-- (digits or formatted), newest first, one page plus the total.
create or replace function public.admin_list_students(
  p_school_id uuid, p_search text default null, p_limit integer default 24, p_offset integer default 0
) returns table (
  id uuid, name text, email text, cpf text, phone text, address text, avatar_url text,
  is_active boolean, must_change_password boolean, created_at timestamptz, total_count bigint
)
language sql stable security invoker set search_path = '' as $$
  with q as (select nullif(btrim(coalesce(p_search, '')), '') as term),
  matches as (
    select p.* from public.profiles p, q
    where p.school_id = p_school_id
      -- A definer helper: the caller may not see every role row (a super admin's has no school).
      and not private.has_any_role(p.id)
      and (q.term is null
           or p.name ilike '%' || q.term || '%'
           or p.email ilike '%' || q.term || '%'
           or (length(regexp_replace(q.term, '\D', '', 'g')) >= 3
               and regexp_replace(coalesce(p.cpf, ''), '\D', '', 'g') like '%' || regexp_replace(q.term, '\D', '', 'g') || '%'))
  )
  select m.id, m.name, m.email, m.cpf, m.phone, m.address, m.avatar_url, m.is_active, m.must_change_password, m.created_at,
         count(*) over () as total_count
  from matches m
  order by m.created_at desc, m.id
  limit least(greatest(coalesce(p_limit, 24), 1), 100) offset greatest(coalesce(p_offset, 0), 0)
$$;
revoke all on function public.admin_list_students(uuid, text, integer, integer) from public, anon;
grant execute on function public.admin_list_students(uuid, text, integer, integer) to authenticated, service_role;

-- Functions are executable by PUBLIC by default: the trigger functions are for triggers only.
revoke all on function private.handle_user_email_update() from public, anon, authenticated;
revoke all on function private.profiles_keep_email() from public, anon, authenticated;
