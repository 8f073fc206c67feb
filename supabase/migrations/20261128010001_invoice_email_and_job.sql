-- Issue 42: the invoices' e-mail kind and the job that issues and cancels them (docs/nota-fiscal.md).
-- - invoice_available ("Nota fiscal disponível"): written by apply_invoice_state when Asaas authorizes an
--   invoice, with its PDF link. Not optional (like the payment e-mails). The kinds' check is re-declared with
--   every kind present when this was written (20261128008000 was the last to rewrite it, adding
--   turma_waitlist_open and announcement).
-- - issue-invoices every minute, as send-emails (20261126000500): pg_net calls the function, only while an
--   invoice is due to be created or cancelled at Asaas.
set local lock_timeout = '5s';

alter table public.email_outbox drop constraint email_outbox_kind_check;
alter table public.email_outbox add constraint email_outbox_kind_check check (kind in (
  'access_granted', 'new_enrollment', 'payment_pending', 'payment_reminder', 'payment_confirmed',
  'payment_refunded', 'content_released', 'we_miss_you', 'certificate_available', 'turma_starts_tomorrow',
  'checkout_recovery', 'pix_expiring', 'turma_waitlist_open', 'announcement', 'invoice_available'));

select cron.schedule('issue-invoices', '* * * * *', $job$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/issue-invoices',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')),
    body := '{}'::jsonb,
    timeout_milliseconds := 60000)
  where exists (select 1 from public.invoices i
                 where (i.status = 'pending' and i.issue_at <= now())
                    or (i.status in ('creating', 'scheduled') and i.claimed_at < now() - interval '10 minutes')
                    or (i.cancel_requested_at is not null and i.cancel_sent_at is null and i.provider_invoice_id is not null
                        and i.status in ('scheduled', 'authorized', 'error')));
$job$);
