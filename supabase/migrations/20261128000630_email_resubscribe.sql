-- Issue 46, item 4: "Descadastrar" stopped the e-mails as soon as the link was opened, with no question
-- and no way back (and a link scanner opening it did the same). The e-mail's link now opens a page that
-- asks first and, once confirmed, offers "Desfazer": resubscribe_email, the other half of
-- unsubscribe_email (20261126000600_email_preferences.sql), for the same signed token. The token's check is
-- one function both use. RFC 8058's one-click POST of a mail app still stops the kind at once.
set local lock_timeout = '5s';

-- The account and kind a '<user id>.<kind>.<hex HMAC-SHA256>' token names, or 'Link inválido'.
create function private.email_token_subject(p_token text, out user_id uuid, out kind text)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_parts text[] := string_to_array(coalesce(p_token, ''), '.');
begin
  -- Anything unexpected (a missing part is null) is simply not valid.
  if not coalesce(array_length(v_parts, 1) = 3 and v_parts[1] ~ '^[0-9a-f-]{36}$' and private.is_optional_email_kind(v_parts[2])
     and v_parts[3] ~ '^[0-9a-f]{64}$'
     and v_parts[3] = encode(extensions.hmac(convert_to(v_parts[1] || '.' || v_parts[2], 'UTF8'),
          (select secret from private.email_secrets where name = 'unsubscribe'), 'sha256'), 'hex'), false) then
    raise exception 'Link inválido' using errcode = '22023';
  end if;
  user_id := v_parts[1]::uuid;
  kind := v_parts[2];
end $$;
revoke all on function private.email_token_subject(text) from public, anon, authenticated;

-- As before, through the shared check: stops the token's kind for its account; returns the kind.
create or replace function public.unsubscribe_email(p_token text) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_subject record;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_subject from private.email_token_subject(p_token);
  if exists (select 1 from auth.users where id = v_subject.user_id) then
    insert into public.email_unsubscribes (user_id, kind) values (v_subject.user_id, v_subject.kind) on conflict do nothing;
  end if;
  return v_subject.kind;
end $$;

-- "Desfazer" on the page: the token's kind is sent to its account again; returns the kind.
create function public.resubscribe_email(p_token text) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_subject record;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_subject from private.email_token_subject(p_token);
  delete from public.email_unsubscribes u where u.user_id = v_subject.user_id and u.kind = v_subject.kind;
  return v_subject.kind;
end $$;
revoke all on function public.resubscribe_email(text) from public, anon, authenticated;
grant execute on function public.resubscribe_email(text) to service_role;
