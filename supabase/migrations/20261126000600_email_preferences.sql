-- Issue 22: who decides which e-mails go out.
-- - The school (Settings → E-mails): which of the optional kinds it sends, and the sender's name and
--   reply-to. Access and payment e-mails always go.
-- - The student: each optional kind can be stopped with one click from the e-mail itself (a signed
--   token, no sign-in) or on the profile page ('Preferências de e-mail').
-- enqueue_email writes nothing for a kind the school turned off or the student stopped.
set local lock_timeout = '5s';

create function private.is_optional_email_kind(p_kind text) returns boolean
language sql immutable set search_path = '' as $$
  select p_kind in ('new_enrollment', 'content_released', 'we_miss_you', 'certificate_available');
$$;

create table public.school_email_settings (
  school_id uuid primary key references public.schools (id) on delete cascade,
  disabled_kinds text[] not null default '{}'
    constraint school_email_settings_disabled_kinds_check check (
      disabled_kinds <@ array['new_enrollment', 'content_released', 'we_miss_you', 'certificate_available']),
  sender_name text constraint school_email_settings_sender_name_check check (length(btrim(sender_name)) between 1 and 100),
  reply_to text constraint school_email_settings_reply_to_check check (length(reply_to) <= 320 and reply_to ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  updated_at timestamptz not null default now()
);
alter table public.school_email_settings enable row level security;
revoke all on public.school_email_settings from public, anon, authenticated;
grant select, insert, update on public.school_email_settings to authenticated;
grant all on public.school_email_settings to service_role;
create policy school_email_settings_select on public.school_email_settings for select to authenticated
  using ((select private.is_school_staff(school_id)));
create policy school_email_settings_insert on public.school_email_settings for insert to authenticated
  with check ((select private.is_school_staff(school_id)));
create policy school_email_settings_update on public.school_email_settings for update to authenticated
  using ((select private.is_school_staff(school_id))) with check ((select private.is_school_staff(school_id)));
create policy school_email_settings_password_change on public.school_email_settings as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create trigger school_email_settings_touch before update on public.school_email_settings
  for each row execute function private.touch_timestamps();

create table public.email_unsubscribes (
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null constraint email_unsubscribes_kind_check check (private.is_optional_email_kind(kind)),
  created_at timestamptz not null default now(),
  primary key (user_id, kind)
);
alter table public.email_unsubscribes enable row level security;
revoke all on public.email_unsubscribes from public, anon, authenticated;
grant select, insert, delete on public.email_unsubscribes to authenticated;
grant all on public.email_unsubscribes to service_role;
-- A student's own switches only.
create policy email_unsubscribes_own on public.email_unsubscribes for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy email_unsubscribes_password_change on public.email_unsubscribes as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── enqueue_email, now asking both ──────────────────────────────────────────────────────────
create or replace function private.enqueue_email(
  p_school_id uuid, p_user_id uuid, p_to text, p_kind text, p_key text, p_payload jsonb default '{}'
) returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_id uuid;
begin
  if private.is_optional_email_kind(p_kind) and (
       exists (select 1 from public.school_email_settings s where s.school_id = p_school_id and p_kind = any (s.disabled_kinds))
    or exists (select 1 from public.email_unsubscribes u where u.user_id = p_user_id and u.kind = p_kind)) then
    return null;
  end if;
  insert into public.email_outbox (school_id, user_id, to_email, kind, idempotency_key, payload)
  values (p_school_id, p_user_id, lower(btrim(p_to)), p_kind, p_key, coalesce(p_payload, '{}'))
  on conflict on constraint email_outbox_idempotency do nothing
  returning id into v_id;
  return v_id;
end $$;

-- ── The one-click link: a token signed with a secret only the database knows ────────────────
create table private.email_secrets (
  name text primary key,
  secret bytea not null
);
alter table private.email_secrets enable row level security;
revoke all on private.email_secrets from public, anon, authenticated;
insert into private.email_secrets (name, secret) values ('unsubscribe', extensions.gen_random_bytes(32)) on conflict do nothing;

-- '<user id>.<kind>.<hex HMAC-SHA256>' for the sender (service role).
create function public.email_unsubscribe_token(p_user_id uuid, p_kind text) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if not private.is_optional_email_kind(p_kind) then
    raise exception 'e-mails of this kind cannot be stopped' using errcode = '22023';
  end if;
  return p_user_id || '.' || p_kind || '.' || encode(extensions.hmac(convert_to(p_user_id || '.' || p_kind, 'UTF8'),
    (select secret from private.email_secrets where name = 'unsubscribe'), 'sha256'), 'hex');
end $$;
revoke all on function public.email_unsubscribe_token(uuid, text) from public, anon, authenticated;
grant execute on function public.email_unsubscribe_token(uuid, text) to service_role;

-- Whoever holds the token (the e-mail's link, no sign-in) stops that kind for that account, through
-- the email-unsubscribe function: the API roles get no door of their own (anon runs no definer RPC but
-- verify_certificate). Returns the kind stopped, or raises 'Link inválido'.
create function public.unsubscribe_email(p_token text) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_parts text[] := string_to_array(coalesce(p_token, ''), '.');
  v_user uuid;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  -- Anything unexpected (a missing part is null) is simply not valid.
  if not coalesce(array_length(v_parts, 1) = 3 and v_parts[1] ~ '^[0-9a-f-]{36}$' and private.is_optional_email_kind(v_parts[2])
     and v_parts[3] ~ '^[0-9a-f]{64}$'
     and v_parts[3] = encode(extensions.hmac(convert_to(v_parts[1] || '.' || v_parts[2], 'UTF8'),
          (select secret from private.email_secrets where name = 'unsubscribe'), 'sha256'), 'hex'), false) then
    raise exception 'Link inválido' using errcode = '22023';
  end if;
  v_user := v_parts[1]::uuid;
  if exists (select 1 from auth.users where id = v_user) then
    insert into public.email_unsubscribes (user_id, kind) values (v_user, v_parts[2]) on conflict do nothing;
  end if;
  return v_parts[2];
end $$;
revoke all on function public.unsubscribe_email(text) from public, anon, authenticated;
grant execute on function public.unsubscribe_email(text) to service_role;
