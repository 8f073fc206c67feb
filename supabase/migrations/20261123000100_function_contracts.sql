-- Pieces several edge functions rely on: looking an account up by e-mail (idempotent webhooks,
-- duplicate checks) and the token Asaas sends in `asaas-access-token`, stored beside the school's
-- API key and never readable through the API.

-- ── Account by e-mail (service role only) ─────────────────────────────────────────────────────
create or replace function public.find_user_id_by_email(p_email text) returns uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return (select u.id from auth.users u where lower(u.email) = lower(btrim(p_email)) limit 1);
end $$;
revoke all on function public.find_user_id_by_email(text) from public, anon, authenticated;
grant execute on function public.find_user_id_by_email(text) to service_role;

-- ── Asaas webhook token per integration ───────────────────────────────────────────────────────
alter table private.integration_secrets
  add column webhook_token text
    constraint integration_secrets_webhook_token_length check (length(btrim(webhook_token)) between 1 and 500);
-- Shown on Settings as "configured or not"; the token itself never leaves private.
alter table public.integration_settings
  add column has_webhook_token boolean not null default false;

-- Same call as before plus the optional webhook token (named arguments from supabase-js).
drop function public.create_integration(text, text, text, uuid);
create function public.create_integration(
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
revoke all on function public.create_integration(text, text, text, uuid, text) from public, anon;
grant execute on function public.create_integration(text, text, text, uuid, text) to authenticated, service_role;

-- Settings: set or replace (or clear, with null/'') the webhook token of an integration of the school.
create or replace function public.set_integration_webhook_token(p_integration_id uuid, p_token text)
returns public.integration_settings
language plpgsql security definer set search_path = '' as $$
declare
  v_token text := nullif(btrim(coalesce(p_token, '')), '');
  v_row public.integration_settings;
begin
  select * into v_row from public.integration_settings where id = p_integration_id;
  if v_row.id is null or not private.is_school_staff(v_row.school_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update private.integration_secrets set webhook_token = v_token where integration_id = p_integration_id;
  update public.integration_settings set has_webhook_token = v_token is not null
   where id = p_integration_id returning * into v_row;
  return v_row;
end $$;
revoke all on function public.set_integration_webhook_token(uuid, text) from public, anon;
grant execute on function public.set_integration_webhook_token(uuid, text) to authenticated, service_role;

-- For asaas-webhook (service role only): the webhook token of the school's active integration of
-- this provider, chosen as get_integration_secret chooses the key.
create or replace function public.get_integration_webhook_token(p_school_id uuid, p_provider text)
returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return (
    select s.webhook_token
    from public.integration_settings i join private.integration_secrets s on s.integration_id = i.id
    where i.school_id = p_school_id and i.provider = p_provider and i.is_active
    order by (i.environment = 'production') desc, i.created_at desc
    limit 1);
end $$;
revoke all on function public.get_integration_webhook_token(uuid, text) from public, anon, authenticated;
grant execute on function public.get_integration_webhook_token(uuid, text) to service_role;
