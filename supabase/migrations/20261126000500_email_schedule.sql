-- Issue 22: the outbox is drained every minute by the send-emails function, scheduled in the database
-- as Supabase documents (Scheduling Edge Functions): pg_cron runs the job, pg_net makes the call
-- (asynchronously), Vault holds the project's URL and the service key. Locally, local-supabase provides
-- the three under the same names and runs the same job (local-supabase/db/platform-extensions.sql).
-- On a hosted project, create the two secrets once (README, "E-mails"):
--   select vault.create_secret('https://<ref>.supabase.co', 'project_url');
--   select vault.create_secret('<service_role key>', 'service_role_key');
-- The call is made only when a message is due, not every minute of an idle day.
set local lock_timeout = '5s';

create extension if not exists pg_cron;
create extension if not exists pg_net;

select cron.schedule('send-emails', '* * * * *', $job$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/send-emails',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')),
    body := '{}'::jsonb,
    timeout_milliseconds := 60000)
  where exists (
    select 1 from public.email_outbox
     where (status = 'queued' and next_attempt_at <= now()) or (status = 'sending' and locked_until < now()));
$job$);
