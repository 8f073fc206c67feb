-- Issue 37, found by an outside tester after the batch: profiles.avatar_url took any URL. It is copied to
-- each of the account's comments (lesson_comments.author_avatar_url) and shown in the ranking and to staff,
-- so every reader's browser loaded it: a student's "photo" on a host of theirs was a tracking pixel that
-- learned the address, time and browser of everyone who opened the lesson.
-- Through the API a photo is now null or what the SPA's upload writes (src/features/profile/api/queries.ts):
-- the public URL of an object of the avatars bucket in the account's own folder,
-- <API URL>/storage/v1/object/public/avatars/<profile id>/<file>[?v=<n>]. The database cannot know the API's
-- public address (local, hosted, a custom domain), so the host is any plain host name or address; the SPA
-- shows a photo only when it is an object of its own API (src/lib/image.ts, ownAvatarUrl). The service role,
-- the seed and migrations are not checked (they carry no API role), as for profiles_guard.
set local lock_timeout = '5s';

-- Whether p_url is the public URL of a file in p_user_id's own folder of the avatars bucket: one file name
-- (no further folders, no dot first, so no "..") and the SPA's cache-busting query at most.
create function private.is_own_avatar_url(p_url text, p_user_id uuid) returns boolean
language sql immutable set search_path = '' as $$
  select p_url ~ ('^https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?/storage/v1/object/public/avatars/'
                  || p_user_id::text || '/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}(\?[A-Za-z0-9=&._-]{0,100})?$')
$$;
revoke all on function private.is_own_avatar_url(text, uuid) from public, anon, authenticated;
-- The trigger below runs as the caller (current_user tells an API write), as profiles_guard does.
grant execute on function private.is_own_avatar_url(text, uuid) to authenticated, service_role;

-- Named to fire after profiles_normalize (triggers fire in name order), which turns '' into null.
create function private.profiles_photo_in_own_folder() returns trigger
language plpgsql set search_path = '' as $$
begin
  if current_user in ('authenticated', 'anon') and new.avatar_url is not null
     and not private.is_own_avatar_url(new.avatar_url, new.id) then
    raise exception 'A foto do perfil precisa ser uma imagem enviada para a sua conta.' using errcode = '22023';
  end if;
  return new;
end $$;
revoke all on function private.profiles_photo_in_own_folder() from public, anon, authenticated;
create trigger profiles_photo_in_own_folder before insert or update of avatar_url on public.profiles
  for each row execute function private.profiles_photo_in_own_folder();

-- Photos set before: one that is not the account's own upload goes (the initials show instead);
-- profiles_sync_comment_authors clears the copies on the comments with it.
update public.profiles set avatar_url = null
 where avatar_url is not null and not private.is_own_avatar_url(avatar_url, id);
