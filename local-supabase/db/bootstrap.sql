-- What a Supabase project provides before any migration runs, with the platform's roles, owners and
-- privileges, so that a migration that works here works on `supabase db push`:
--   - migrations and the seed run as platform_postgres, which stands for the platform's `postgres`:
--     not a superuser (CREATEROLE, CREATEDB, REPLICATION, BYPASSRLS), owner of the database and of
--     what it creates, member of anon/authenticated/service_role. The local superuser keeps the name
--     `postgres` (PGlite cannot rename or demote its bootstrap user), so our SQL never names roles
--     other than the API's;
--   - auth.* belongs to supabase_auth_admin and storage.* to supabase_storage_admin: migrations may
--     use their tables (and add policies, the one allowance of the platform's supautils, made in
--     migrate.ts) but not alter them;
--   - rows of storage.objects/buckets are deleted only through the Storage API, which sets
--     storage.allow_delete_query for its transaction;
--   - the API roles and authenticator have the platform's statement timeouts (applied per request by
--     local-supabase/http.ts as PostgREST applies them; on PGlite, enforced by db/pglite.ts).
-- Idempotent: safe on a database that already has it (and brings an older local database up to it).
-- The privileges a new project starts with are in bootstrap-grants.sql, applied once: re-granting
-- would undo the revokes of our migrations.

-- ── Roles ─────────────────────────────────────────────────────────────────────────────────────
-- Roles, memberships and role settings are cluster-wide rows (pg_authid, pg_auth_members,
-- pg_db_role_setting) that every database of the cluster shares: write them only when they differ, so
-- two databases starting together in one cluster (the test runs) never rewrite the same row at once
-- ("tuple concurrently updated").
do $$
declare
  r record;
  role_row pg_roles;
begin
  for r in select * from (values
      -- name, login, inherit, bypassrls, createrole, createdb, replication
      ('anon', false, true, false, false, false, false),
      ('authenticated', false, true, false, false, false, false),
      ('service_role', false, true, true, false, false, false),
      ('authenticator', true, false, false, false, false, false),
      ('supabase_auth_admin', true, false, false, true, false, false),
      ('supabase_storage_admin', true, false, false, true, false, false),
      ('platform_postgres', false, true, true, true, true, true)
    ) as v(name, login, inherit, bypassrls, createrole, createdb, replication)
  loop
    select * into role_row from pg_roles where rolname = r.name;
    if not found then
      execute format('create role %I', r.name);
      select * into role_row from pg_roles where rolname = r.name;
    end if;
    if (role_row.rolcanlogin, role_row.rolinherit, role_row.rolbypassrls, role_row.rolcreaterole, role_row.rolcreatedb, role_row.rolreplication, role_row.rolsuper)
       is distinct from (r.login, r.inherit, r.bypassrls, r.createrole, r.createdb, r.replication, false) then
      execute format('alter role %I %s %s %s %s %s %s nosuperuser', r.name,
        case when r.login then 'login' else 'nologin' end,
        case when r.inherit then 'inherit' else 'noinherit' end,
        case when r.bypassrls then 'bypassrls' else 'nobypassrls' end,
        case when r.createrole then 'createrole' else 'nocreaterole' end,
        case when r.createdb then 'createdb' else 'nocreatedb' end,
        case when r.replication then 'replication' else 'noreplication' end);
    end if;
  end loop;

  for r in select * from (values
      ('anon', 'authenticator'), ('authenticated', 'authenticator'), ('service_role', 'authenticator'),
      ('anon', 'platform_postgres'), ('authenticated', 'platform_postgres'), ('service_role', 'platform_postgres')
    ) as v(granted, member)
  loop
    if not exists (
      select 1 from pg_auth_members m
      where m.roleid = (select oid from pg_roles where rolname = r.granted)
        and m.member = (select oid from pg_roles where rolname = r.member)
    ) then
      execute format('grant %I to %I', r.granted, r.member);
    end if;
  end loop;

  -- The platform's statement timeouts for API requests: authenticator's is the session's (PostgREST
  -- logs in as it), so service_role, without one of its own, has 8 s too.
  for r in select * from (values ('anon', '3s'), ('authenticated', '8s'), ('authenticator', '8s')) as v(name, timeout) loop
    if not exists (
      select 1 from pg_db_role_setting s
      where s.setdatabase = 0 and s.setrole = (select oid from pg_roles where rolname = r.name)
        and ('statement_timeout=' || r.timeout) = any (s.setconfig)
    ) then
      execute format('alter role %I set statement_timeout = %L', r.name, r.timeout);
    end if;
  end loop;

  -- platform_postgres owns the database, hence schema public (owned by pg_database_owner).
  if (select datdba from pg_database where datname = current_database()) <> (select oid from pg_roles where rolname = 'platform_postgres') then
    execute format('alter database %I owner to platform_postgres', current_database());
  end if;
end $$;

-- ── Schemas ───────────────────────────────────────────────────────────────────────────────────
create schema if not exists extensions;
create schema if not exists auth;
create schema if not exists storage;
create schema if not exists supabase_migrations;
alter schema extensions owner to platform_postgres;
alter schema auth owner to supabase_auth_admin;
alter schema storage owner to supabase_storage_admin;
alter schema supabase_migrations owner to platform_postgres;
grant usage on schema extensions to platform_postgres, anon, authenticated, service_role;
grant usage on schema auth to platform_postgres, anon, authenticated, service_role;
grant usage on schema storage to platform_postgres, anon, authenticated, service_role;
create extension if not exists pgcrypto with schema extensions;

create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  name text,
  statements text[],
  applied_at timestamptz not null default now()
);
alter table supabase_migrations.schema_migrations owner to platform_postgres;

-- ── auth (GoTrue's tables as the platform has them: the columns, defaults, indexes and RLS of
-- what our code and seed touch; GoTrue fills ids and timestamps itself, so they have no defaults) ──
create table if not exists auth.users (
  instance_id uuid,
  id uuid not null primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
-- A local database made before the table matched the platform's.
alter table auth.users
  alter column id drop default, alter column aud drop default, alter column role drop default,
  alter column raw_app_meta_data drop default, alter column raw_user_meta_data drop default,
  alter column created_at drop default, alter column updated_at drop default,
  add column if not exists email_change_sent_at timestamptz,
  add column if not exists phone_change text default '',
  add column if not exists phone_change_token varchar(255) default '',
  add column if not exists phone_change_sent_at timestamptz,
  add column if not exists email_change_token_current varchar(255) default '',
  add column if not exists email_change_confirm_status smallint default 0,
  add column if not exists reauthentication_token varchar(255) default '',
  add column if not exists reauthentication_sent_at timestamptz;
create unique index if not exists users_email_key on auth.users (lower(email)) where is_sso_user = false;
create index if not exists users_instance_id_idx on auth.users (instance_id);
create index if not exists users_instance_id_email_idx on auth.users (instance_id, lower(email));
create index if not exists users_is_anonymous_idx on auth.users (is_anonymous);

-- One row per sign-in method of a user (GoTrue writes the email identity at sign-up).
create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid() primary key,
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);
create index if not exists identities_email_idx on auth.identities (email text_pattern_ops);

create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  not_after timestamptz
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid references auth.sessions (id) on delete cascade,
  parent varchar(255),
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);

-- Multi-factor authentication (GoTrue's mfa migrations): factors, their challenges, and the methods a
-- session was authenticated with (its `amr`; a totp row makes it aal2, also after a refresh).
do $$ begin
  create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type auth.factor_status as enum ('unverified', 'verified');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
exception when duplicate_object then null;
end $$;
alter type auth.factor_type owner to supabase_auth_admin;
alter type auth.factor_status owner to supabase_auth_admin;
alter type auth.aal_level owner to supabase_auth_admin;

alter table auth.sessions
  add column if not exists factor_id uuid,
  add column if not exists aal auth.aal_level;

create table if not exists auth.mfa_factors (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text unique default null,
  last_challenged_at timestamptz unique default null,
  web_authn_credential jsonb,
  web_authn_aaguid uuid,
  last_webauthn_challenge_data jsonb
);
create unique index if not exists mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';
create index if not exists factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index if not exists unique_verified_phone_factor on auth.mfa_factors (user_id, phone);

create table if not exists auth.mfa_challenges (
  id uuid not null primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet not null,
  -- Phone factors keep their code here. local-supabase also records here, on a verified totp
  -- challenge, the 30-second step its code belonged to, so that code is never accepted again.
  otp_code text,
  web_authn_session_data jsonb
);
create index if not exists mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null,
  constraint amr_id_pk primary key (id),
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);
create index if not exists user_id_created_at_idx on auth.sessions (user_id, created_at);

-- The same definitions Supabase ships: claims come from the verified JWT of the request.
create or replace function auth.uid() returns uuid language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
create or replace function auth.role() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;
create or replace function auth.email() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;
create or replace function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;
grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt() to anon, authenticated, service_role;

-- GoTrue owns its schema; the platform's postgres may use every table (our migrations add triggers
-- and foreign keys on auth.users) but not alter them. RLS is on, with no policy: the API roles get
-- nothing from these tables.
do $$
declare t record;
begin
  for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'auth' and c.relkind = 'r' loop
    execute format('alter table auth.%I owner to supabase_auth_admin', t.relname);
    execute format('alter table auth.%I enable row level security', t.relname);
  end loop;
end $$;
alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;
alter function auth.jwt() owner to supabase_auth_admin;
grant all on all tables in schema auth to platform_postgres;
grant all on all sequences in schema auth to platform_postgres;
grant all on all routines in schema auth to platform_postgres;

-- ── storage (Supabase Storage's tables and helpers) ──────────────────────────────────────────
create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  owner_id text,
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb,
  unique (bucket_id, name)
);
create index if not exists objects_bucket_id_name_idx on storage.objects (bucket_id, name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

create or replace function storage.foldername(name text) returns text[] language plpgsql immutable as $$
declare _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end $$;
create or replace function storage.filename(name text) returns text language plpgsql immutable as $$
declare _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end $$;
create or replace function storage.extension(name text) returns text language plpgsql immutable as $$
declare _parts text[]; _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end $$;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;

-- Storage's own: its tables and helpers belong to supabase_storage_admin. Deleting rows directly
-- would orphan the stored bytes, so (as on the platform) a DELETE needs storage.allow_delete_query,
-- which only the Storage API sets, for its own transaction.
create or replace function storage.protect_delete() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), '') <> 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using errcode = '42501', hint = 'This prevents accidental data loss from orphaned objects.';
  end if;
  return null;
end $$;
drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();
alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
alter function storage.foldername(text) owner to supabase_storage_admin;
alter function storage.filename(text) owner to supabase_storage_admin;
alter function storage.extension(text) owner to supabase_storage_admin;
alter function storage.protect_delete() owner to supabase_storage_admin;

-- A local database migrated before migrations ran as platform_postgres: what they created then
-- belongs to the superuser; hand it over, so later migrations may alter it as on the platform.
do $$
declare o record;
begin
  for o in select n.nspname, c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ('public', 'private') and c.relowner = (select oid from pg_roles where rolname = current_user)
             and c.relkind in ('r', 'p', 'v', 'm', 'f') loop
    execute format('alter %s %I.%I owner to platform_postgres',
      case o.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table' else 'table' end, o.nspname, o.relname);
  end loop;
  for o in select p.oid::regprocedure as sig, p.prokind from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname in ('public', 'private') and p.proowner = (select oid from pg_roles where rolname = current_user) loop
    execute format('alter %s %s owner to platform_postgres', case o.prokind when 'p' then 'procedure' else 'function' end, o.sig);
  end loop;
  for o in select t.typname, n.nspname from pg_type t join pg_namespace n on n.oid = t.typnamespace
           where n.nspname in ('public', 'private') and t.typtype in ('e', 'd') and t.typowner = (select oid from pg_roles where rolname = current_user) loop
    execute format('alter type %I.%I owner to platform_postgres', o.nspname, o.typname);
  end loop;
  if exists (select 1 from pg_namespace where nspname = 'private' and nspowner = (select oid from pg_roles where rolname = current_user)) then
    alter schema private owner to platform_postgres;
  end if;
end $$;
