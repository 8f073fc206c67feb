-- Issue 41, "also fix": send-emails could deliver a message twice. It sent over SMTP, then marked the row
-- sent (complete_email); when that record failed after the server had accepted the message, the error
-- path queued it again (fail_email), or the lease ran out and claim_emails handed it to the next run, which
-- sent it again. Now the sender records the attempt and the message id it is about to use
-- (start_email_delivery) before it speaks SMTP, and a message whose delivery started is never handed to a
-- sender again: if its outcome was not recorded, it is marked failed ("resultado desconhecido"), with the
-- message id to look up at the provider. At most once per message (docs/emails.md, "At most once").
-- fail_email still queues a retry when the sender knows the server refused the message (an SMTP answer, or
-- no connection at all): it clears the started mark. start_email_delivery also judges the message one last
-- time (email_outdated_reason), so a payment that lands between the claim and the send stops a "how to pay"
-- or recovery e-mail.
set local lock_timeout = '5s';

alter table public.email_outbox add column delivery_started_at timestamptz;
comment on column public.email_outbox.delivery_started_at is
  'When a sender began the SMTP delivery (its message id is in provider_message_id): a message started and not recorded is never sent again.';

-- The sender's last word before SMTP: true when this sender still holds the message, it is still due, and
-- its delivery had not started; records the start and the message id. A message no longer due is skipped.
create function public.start_email_delivery(p_id uuid, p_message_id text) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_message public.email_outbox;
  v_reason text;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_message from public.email_outbox o
   where o.id = p_id and o.status = 'sending' and o.delivery_started_at is null and o.locked_until > now()
     for update;
  if v_message.id is null then
    return false;
  end if;
  v_reason := private.email_outdated_reason(v_message);
  if v_reason is not null then
    update public.email_outbox set status = 'skipped', locked_until = null, last_error = v_reason where id = p_id;
    return false;
  end if;
  update public.email_outbox
     set delivery_started_at = now(), provider_message_id = left(p_message_id, 500)
   where id = p_id;
  return true;
end $$;
revoke all on function public.start_email_delivery(uuid, text) from public, anon, authenticated;
grant execute on function public.start_email_delivery(uuid, text) to service_role;

-- fail_email as in 20261126000100_email_outbox.sql; the sender calls it only when the message surely did
-- not go out, so the started mark is cleared for the retry.
create or replace function public.fail_email(p_id uuid, p_error text, p_permanent boolean default false, p_max_attempts integer default 5)
returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_status text;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update public.email_outbox
     set status = case when p_permanent or attempts >= least(greatest(p_max_attempts, 1), 20) then 'failed' else 'queued' end,
         next_attempt_at = now() + make_interval(mins => power(2, least(attempts - 1, 10))::integer),
         locked_until = null, delivery_started_at = null,
         last_error = left(coalesce(nullif(btrim(p_error), ''), 'erro desconhecido'), 2000)
   where id = p_id and status = 'sending'
  returning status into v_status;
  return v_status;
end $$;

-- The delivery started and its outcome is unknown (the connection broke during the send, or the record
-- failed): failed for good, never sent again. Returns false when this sender no longer held it.
create function public.email_outcome_unknown(p_id uuid, p_error text) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update public.email_outbox
     set status = 'failed', locked_until = null,
         last_error = left('Resultado do envio desconhecido (o servidor pode ter aceitado a mensagem); não reenviado para não duplicar: '
                           || coalesce(nullif(btrim(p_error), ''), 'erro desconhecido'), 2000)
   where id = p_id and status = 'sending' and delivery_started_at is not null;
  return found;
end $$;
revoke all on function public.email_outcome_unknown(uuid, text) from public, anon, authenticated;
grant execute on function public.email_outcome_unknown(uuid, text) to service_role;

-- claim_emails as in 20261128000610_email_outdated_skip.sql, and a message whose sender went away after its
-- delivery started is not taken again: it is marked failed, outcome unknown.
create or replace function public.claim_emails(p_limit integer default 50, p_lease interval default '5 minutes')
returns setof public.email_outbox
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_limit not between 1 and 500 or p_lease not between interval '10 seconds' and interval '1 hour' then
    raise exception 'limit between 1 and 500, lease between 10 seconds and 1 hour' using errcode = '22023';
  end if;
  update public.email_outbox o
     set status = 'failed', locked_until = null,
         last_error = 'Resultado do envio desconhecido (o envio começou e não foi registrado); não reenviado para não duplicar.'
   where o.status = 'sending' and o.locked_until < now() and o.delivery_started_at is not null;
  return query
  with picked as (
    select c.id from public.email_outbox c
     where (c.status = 'queued' and c.next_attempt_at <= now())
        or (c.status = 'sending' and c.locked_until < now() and c.delivery_started_at is null)
     order by c.next_attempt_at, c.created_at
     limit p_limit
     for update skip locked
  ), judged as (
    select o.id, private.email_outdated_reason(o) as reason
      from public.email_outbox o where o.id in (select id from picked)
  ), skipped as (
    update public.email_outbox o
       set status = 'skipped', locked_until = null, last_error = j.reason
      from judged j
     where o.id = j.id and j.reason is not null
    returning o.id
  )
  update public.email_outbox o
     set status = 'sending', locked_until = now() + p_lease, attempts = o.attempts + 1
    from judged j
   where o.id = j.id and j.reason is null
  returning o.*;
end $$;
