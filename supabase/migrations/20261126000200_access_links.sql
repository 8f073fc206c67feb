-- Issue 22: the link of the "Acesso liberado" e-mail. It works for 7 days and once, which GoTrue's own
-- links cannot promise on a hosted project (their lifetime is the project's OTP expiry, at most a day).
-- So the e-mail carries our token, kept here only as its SHA-256; spending it (the access-link
-- function, when the student presses "Criar minha senha") asks GoTrue then for a fresh recovery link
-- and sends the browser there: the platform's own flow sets the password.
set local lock_timeout = '5s';

create table private.access_links (
  token_hash text primary key constraint access_links_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references auth.users (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  -- A used or expired link may ask for a new e-mail once.
  resent_at timestamptz,
  created_at timestamptz not null default now(),
  constraint access_links_expiry_check check (expires_at > created_at and expires_at <= created_at + interval '30 days')
);
alter table private.access_links enable row level security;
revoke all on private.access_links from public, anon, authenticated;
create index access_links_user_id_idx on private.access_links (user_id);
create index access_links_school_id_idx on private.access_links (school_id);

-- The sender records a link it is about to mail (the raw token never reaches the database).
create function public.create_access_link(p_user_id uuid, p_school_id uuid, p_token_hash text, p_ttl interval default '7 days')
returns timestamptz
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_expires timestamptz := now() + p_ttl;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  insert into private.access_links (token_hash, user_id, school_id, expires_at)
  values (lower(p_token_hash), p_user_id, p_school_id, v_expires);
  return v_expires;
end $$;
revoke all on function public.create_access_link(uuid, uuid, text, interval) from public, anon, authenticated;
grant execute on function public.create_access_link(uuid, uuid, text, interval) to service_role;

-- Spends a link: 'ok' once, then 'used'; 'expired' after its time; 'unknown' for any other token.
-- The account and school come back with every answer but 'unknown', so a dead link can offer a new one.
create function public.redeem_access_link(p_token_hash text)
returns table (status text, user_id uuid, email text, school_id uuid, school_slug text)
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_link private.access_links;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update private.access_links l set used_at = now()
   where l.token_hash = lower(p_token_hash) and l.used_at is null and l.expires_at > now()
  returning * into v_link;
  if found then
    status := 'ok';
  else
    select * into v_link from private.access_links l where l.token_hash = lower(p_token_hash);
    if not found then
      return query select 'unknown'::text, null::uuid, null::text, null::uuid, null::text;
      return;
    end if;
    status := case when v_link.used_at is not null then 'used' else 'expired' end;
  end if;
  return query
  select status, v_link.user_id, u.email::text, v_link.school_id, s.slug
    from auth.users u, public.schools s
   where u.id = v_link.user_id and s.id = v_link.school_id;
end $$;
revoke all on function public.redeem_access_link(text) from public, anon, authenticated;
grant execute on function public.redeem_access_link(text) to service_role;

-- A dead link (used or expired) asks for a new access e-mail: true the first time only.
create function public.claim_access_link_resend(p_token_hash text)
returns boolean
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update private.access_links set resent_at = now()
   where token_hash = lower(p_token_hash) and resent_at is null and (used_at is not null or expires_at <= now());
  return found;
end $$;
revoke all on function public.claim_access_link_resend(text) from public, anon, authenticated;
grant execute on function public.claim_access_link_resend(text) to service_role;
