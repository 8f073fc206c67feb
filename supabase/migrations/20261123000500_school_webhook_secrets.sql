-- Inbound student webhook (issue 11): each school has its own secret for the `x-webhook-secret` header
-- of student-webhook, generated with the school, shown to its staff (reveal, rotate) and read by the
-- function through the service role. A school's secret never opens another school.

create table private.school_webhook_secrets (
  school_id uuid primary key references public.schools (id) on delete cascade,
  secret text not null constraint school_webhook_secrets_secret_length check (length(secret) between 32 and 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table private.school_webhook_secrets enable row level security;
revoke all on private.school_webhook_secrets from public, anon, authenticated;
grant select, insert, update, delete on private.school_webhook_secrets to service_role;
create trigger school_webhook_secrets_touch before update on private.school_webhook_secrets
  for each row execute function private.touch_timestamps();

-- 256 random bits (two v4 UUIDs' worth of randomness, without relying on pgcrypto's search path).
create or replace function private.new_webhook_secret() returns text
language sql volatile set search_path = '' as $$
  select 'whsec_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
$$;

create or replace function private.schools_create_webhook_secret() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.school_webhook_secrets (school_id, secret) values (new.id, private.new_webhook_secret())
  on conflict (school_id) do nothing;
  return null;
end $$;
create trigger schools_create_webhook_secret after insert on public.schools
  for each row execute function private.schools_create_webhook_secret();

insert into private.school_webhook_secrets (school_id, secret)
select s.id, private.new_webhook_secret() from public.schools s
on conflict (school_id) do nothing;

revoke all on function private.new_webhook_secret() from public, anon, authenticated;
revoke all on function private.schools_create_webhook_secret() from public, anon, authenticated;

-- For student-webhook (service role only).
create or replace function public.get_school_webhook_secret(p_school_id uuid) returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return (select w.secret from private.school_webhook_secrets w where w.school_id = p_school_id);
end $$;

-- Settings: the staff of a school (default: the caller's) see and rotate its secret.
create or replace function public.reveal_school_webhook_secret(p_school_id uuid default null) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return (select w.secret from private.school_webhook_secrets w where w.school_id = v_school);
end $$;

create or replace function public.rotate_school_webhook_secret(p_school_id uuid default null) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_secret text := private.new_webhook_secret();
begin
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  insert into private.school_webhook_secrets (school_id, secret) values (v_school, v_secret)
  on conflict (school_id) do update set secret = excluded.secret;
  return v_secret;
end $$;

revoke all on function public.get_school_webhook_secret(uuid) from public, anon, authenticated;
grant execute on function public.get_school_webhook_secret(uuid) to service_role;
revoke all on function public.reveal_school_webhook_secret(uuid) from public, anon;
revoke all on function public.rotate_school_webhook_secret(uuid) from public, anon;
grant execute on function public.reveal_school_webhook_secret(uuid), public.rotate_school_webhook_secret(uuid) to authenticated, service_role;
