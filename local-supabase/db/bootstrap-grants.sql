-- The privileges a new Supabase project starts with. Applied once, on a new database, before any
-- migration: migrations then revoke what they must, and a restart must not grant it back.
grant all on storage.buckets, storage.objects to platform_postgres, anon, authenticated, service_role;

-- public: Supabase's default privileges (RLS decides the rows), for what the migrations create as
-- platform_postgres and what the local superuser creates.
grant usage on schema public to anon, authenticated, service_role;
grant all on all tables in schema public to anon, authenticated, service_role;
grant all on all sequences in schema public to anon, authenticated, service_role;
grant all on all functions in schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role platform_postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role platform_postgres in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role platform_postgres in schema public grant all on functions to anon, authenticated, service_role;
