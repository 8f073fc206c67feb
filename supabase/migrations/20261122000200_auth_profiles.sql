-- Profiles follow auth.users, and the fields a user must not change on their own profile are guarded.

create or replace function private.uuid_or_null(p text) returns uuid
language sql immutable set search_path = '' as $$
  select case when p ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then p::uuid end
$$;

-- Sign-up (or the admin API) creates the profile from the user metadata: name, school_id,
-- must_change_password. Only on insert: metadata is writable by the user later (auth.updateUser),
-- so it must never move anyone to another school or rename them behind the profile's guard.
create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
begin
  insert into public.profiles (id, school_id, name, must_change_password)
  values (
    new.id,
    (select s.id from public.schools s where s.id = private.uuid_or_null(meta ->> 'school_id')),
    left(coalesce(nullif(btrim(meta ->> 'name'), ''), split_part(coalesce(new.email, ''), '@', 1)), 200),
    coalesce(meta ->> 'must_change_password' = 'true', false)
  )
  on conflict (id) do nothing;
  return new;
end $$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_user();

-- The forced password change: the SPA calls auth.updateUser({ password, data: { must_change_password:
-- false } }). Clearing the flag in the metadata clears it on the profile too (never the other way
-- round: a user must not be able to set flags on their profile through their own metadata).
create or replace function private.handle_user_metadata_update() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.raw_user_meta_data ->> 'must_change_password' = 'false' then
    update public.profiles set must_change_password = false
     where id = new.id and must_change_password;
  end if;
  return new;
end $$;
create trigger on_auth_user_metadata_updated after update of raw_user_meta_data on auth.users
  for each row execute function private.handle_user_metadata_update();

-- And the profile flag is mirrored into the metadata (staff forcing a change, the user clearing it),
-- so the SPA reads the same answer from either place.
create or replace function private.profiles_sync_user_metadata() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update auth.users
     set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb)
                              || jsonb_build_object('must_change_password', new.must_change_password)
   where id = new.id
     and (raw_user_meta_data ->> 'must_change_password') is distinct from new.must_change_password::text;
  return null;
end $$;
create trigger profiles_sync_user_metadata after update of must_change_password on public.profiles
  for each row when (old.must_change_password is distinct from new.must_change_password)
  execute function private.profiles_sync_user_metadata();
