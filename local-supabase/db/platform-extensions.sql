-- The three platform extensions a Supabase project schedules work with, as local stand-ins with the
-- same names and signatures, so one migration serves both (issue 22's e-mail schedule):
--   pg_cron   cron.schedule / cron.unschedule write cron.job; local-supabase's scheduler
--             (local-supabase/jobs/scheduler.ts) runs each due job's command, noting it in
--             cron.job_run_details, as pg_cron's background worker does;
--   pg_net    net.http_post / net.http_get queue a request in net.http_request_queue and answer its id;
--             the scheduler sends the queue and keeps each answer in net._http_response, as pg_net's
--             worker does (asynchronously: the calling transaction never waits for the HTTP call);
--   vault     vault.create_secret and vault.decrypted_secrets (stored as they are: local data only).
-- `create extension pg_cron | pg_net | supabase_vault` in a migration is then a no-op here (migrate.ts).
-- Run at every start; every statement is idempotent.
create schema if not exists cron;
create schema if not exists net;
create schema if not exists vault;

create table if not exists cron.job (
  jobid bigserial primary key,
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport integer not null default 5432,
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text unique
);
create table if not exists cron.job_run_details (
  runid bigserial primary key,
  jobid bigint,
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);

create or replace function cron.schedule(job_name text, schedule text, command text) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  v_id bigint;
begin
  if schedule !~ '^\s*\S+\s+\S+\s+\S+\s+\S+\s+\S+\s*$' then
    raise exception 'invalid schedule: %', schedule using errcode = '22023';
  end if;
  insert into cron.job (jobname, schedule, command, username) values (job_name, schedule, command, session_user)
  on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command, active = true
  returning jobid into v_id;
  return v_id;
end $$;
create or replace function cron.unschedule(job_name text) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  delete from cron.job where jobname = job_name;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name;
  end if;
  return true;
end $$;

create table if not exists net.http_request_queue (
  id bigserial primary key,
  method text not null,
  url text not null,
  headers jsonb not null default '{}',
  body bytea,
  timeout_milliseconds integer not null default 5000
);
create table if not exists net._http_response (
  id bigint primary key,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now()
);

-- pg_net's two signatures queue through one helper: the URL with its query string, then the queue's row.
create or replace function net._queue_request(
  method text, url text, params jsonb, headers jsonb, body bytea, timeout_milliseconds integer
) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  v_id bigint;
  v_query text := (select string_agg(key || '=' || value, '&') from jsonb_each_text(params));
begin
  if url is null then
    raise exception 'url must not be null' using errcode = '22004';
  end if;
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values (method, url || coalesce('?' || v_query, ''), coalesce(headers, '{}'), body, timeout_milliseconds)
  returning id into v_id;
  return v_id;
end $$;
create or replace function net.http_post(
  url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb, timeout_milliseconds integer default 5000
) returns bigint
language sql security definer set search_path = '' as $$
  select net._queue_request('POST', url, params, headers, convert_to(coalesce(body, 'null'::jsonb)::text, 'UTF8'), timeout_milliseconds);
$$;
create or replace function net.http_get(
  url text, params jsonb default '{}'::jsonb, headers jsonb default '{}'::jsonb, timeout_milliseconds integer default 5000
) returns bigint
language sql security definer set search_path = '' as $$
  select net._queue_request('GET', url, params, headers, null, timeout_milliseconds);
$$;

create table if not exists vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text unique,
  description text not null default '',
  secret text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create or replace view vault.decrypted_secrets as
  select id, name, description, secret, secret as decrypted_secret, created_at, updated_at from vault.secrets;
create or replace function vault.create_secret(new_secret text, new_name text default null, new_description text default '')
returns uuid
language sql security definer set search_path = '' as $$
  insert into vault.secrets (secret, name, description) values (new_secret, new_name, coalesce(new_description, '')) returning id;
$$;

-- What the platform lets its `postgres` (our platform_postgres) and the API roles do with them.
grant usage on schema cron, vault to platform_postgres;
grant usage on schema net to platform_postgres, anon, authenticated, service_role;
grant select on cron.job, cron.job_run_details to platform_postgres;
grant execute on function cron.schedule(text, text, text), cron.unschedule(text) to platform_postgres;
grant select on net._http_response to platform_postgres;
revoke all on function net._queue_request(text, text, jsonb, jsonb, bytea, integer) from public;
revoke all on function net.http_post(text, jsonb, jsonb, jsonb, integer), net.http_get(text, jsonb, jsonb, integer) from public;
grant execute on function net.http_post(text, jsonb, jsonb, jsonb, integer), net.http_get(text, jsonb, jsonb, integer) to platform_postgres, service_role;
grant select on vault.decrypted_secrets to platform_postgres;
revoke all on function vault.create_secret(text, text, text) from public;
grant execute on function vault.create_secret(text, text, text) to platform_postgres;
