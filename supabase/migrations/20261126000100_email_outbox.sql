-- Issue 22: the school's e-mails to its students, delivered through an outbox.
-- Each message is a row written in the same transaction as the event that causes it (an enrollment, a
-- payment event, a certificate...), under an idempotency key per event and recipient: a repeated
-- webhook or a retried request finds the row there and writes nothing. The send-emails edge function
-- drains the table: it claims a batch (claim_emails: rows locked and leased, so two senders never take
-- the same message), sends each through SMTP and reports it (complete_email / fail_email: a failure is
-- retried with backoff, then marked failed with the provider's answer, never blocking the others).
-- A payload holds what the message shows (course titles, amounts, a PIX code), never a password: the
-- link to choose one is made by the sender at send time (GoTrue's invite / generate_link).
set local lock_timeout = '5s';

create table public.email_outbox (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  -- The recipient's account when there is one (a deleted account keeps the school's log of it).
  user_id uuid references auth.users (id) on delete set null,
  to_email text not null
    constraint email_outbox_to_email_check check (length(to_email) between 3 and 320 and to_email ~ '^[^@\s]+@[^@\s]+$'),
  kind text not null
    constraint email_outbox_kind_check check (kind in (
      'access_granted', 'new_enrollment', 'payment_pending', 'payment_reminder', 'payment_confirmed',
      'payment_refunded', 'content_released', 'we_miss_you', 'certificate_available')),
  -- One message per event and recipient, e.g. 'enrollment:<id>' or 'payment:<id>:confirmed'.
  idempotency_key text not null
    constraint email_outbox_idempotency_key_check check (length(idempotency_key) between 1 and 300),
  payload jsonb not null default '{}'
    constraint email_outbox_payload_check check (
      jsonb_typeof(payload) = 'object' and not payload ?| array['password', 'temporary_password']
      and pg_column_size(payload) <= 16384),
  status text not null default 'queued'
    constraint email_outbox_status_check check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts integer not null default 0
    constraint email_outbox_attempts_check check (attempts between 0 and 20),
  next_attempt_at timestamptz not null default now(),
  -- While a sender holds the message (status 'sending'): after this another sender may take it over.
  locked_until timestamptz,
  last_error text constraint email_outbox_last_error_check check (length(last_error) <= 2000),
  provider_message_id text constraint email_outbox_provider_message_id_check check (length(provider_message_id) <= 500),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  constraint email_outbox_idempotency unique (school_id, idempotency_key),
  constraint email_outbox_sent_check check ((status = 'sent') = (sent_at is not null)),
  constraint email_outbox_lock_check check ((status = 'sending') = (locked_until is not null))
);
comment on table public.email_outbox is 'E-mails to students, one per event and recipient (issue 22): written with the event, sent by the send-emails function.';

-- What a sender looks for: due messages, and messages whose sender went away.
create index email_outbox_due_idx on public.email_outbox (next_attempt_at) where status = 'queued';
create index email_outbox_stale_idx on public.email_outbox (locked_until) where status = 'sending';
-- A student's log on their card, newest first.
create index email_outbox_user_idx on public.email_outbox (user_id, created_at desc) where user_id is not null;
create index email_outbox_school_idx on public.email_outbox (school_id, created_at desc);

-- Staff read their school's log (the student card); nobody writes it through the API: rows come from
-- the events' own transactions and the service role.
alter table public.email_outbox enable row level security;
revoke all on public.email_outbox from public, anon, authenticated;
grant select on public.email_outbox to authenticated;
grant all on public.email_outbox to service_role;
create policy email_outbox_select on public.email_outbox for select to authenticated
  using ((select private.is_school_staff(school_id)));
create policy email_outbox_password_change on public.email_outbox as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── Writing a message (from the events' transactions and the service role) ──────────────────
-- The id of the message, or null when the key was used already (that event's message exists).
create function private.enqueue_email(
  p_school_id uuid, p_user_id uuid, p_to text, p_kind text, p_key text, p_payload jsonb default '{}'
) returns uuid
language sql volatile security definer set search_path = '' as $$
  insert into public.email_outbox (school_id, user_id, to_email, kind, idempotency_key, payload)
  values (p_school_id, p_user_id, lower(btrim(p_to)), p_kind, p_key, coalesce(p_payload, '{}'))
  on conflict on constraint email_outbox_idempotency do nothing
  returning id;
$$;
revoke all on function private.enqueue_email(uuid, uuid, text, text, text, jsonb) from public, anon, authenticated;

-- The service role's door to it (edge functions: a purchase, a webhook, 'Reenviar acesso').
create function public.enqueue_email(
  p_school_id uuid, p_user_id uuid, p_to text, p_kind text, p_key text, p_payload jsonb default '{}'
) returns uuid
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return private.enqueue_email(p_school_id, p_user_id, p_to, p_kind, p_key, p_payload);
end $$;
revoke all on function public.enqueue_email(uuid, uuid, text, text, text, jsonb) from public, anon, authenticated;
grant execute on function public.enqueue_email(uuid, uuid, text, text, text, jsonb) to service_role;

-- ── Sending (service role: the send-emails function) ─────────────────────────────────────────
-- Takes up to p_limit due messages (and those a sender held past its lease), oldest first, and holds
-- them for p_lease. Rows another transaction is claiming are skipped, not waited for: two senders
-- running at once get disjoint batches.
create function public.claim_emails(p_limit integer default 50, p_lease interval default '5 minutes')
returns setof public.email_outbox
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_limit not between 1 and 500 or p_lease not between interval '10 seconds' and interval '1 hour' then
    raise exception 'limit between 1 and 500, lease between 10 seconds and 1 hour' using errcode = '22023';
  end if;
  return query
  update public.email_outbox o
     set status = 'sending', locked_until = now() + p_lease, attempts = o.attempts + 1
   where o.id in (
     select c.id from public.email_outbox c
      where (c.status = 'queued' and c.next_attempt_at <= now())
         or (c.status = 'sending' and c.locked_until < now())
      order by c.next_attempt_at, c.created_at
      limit p_limit
      for update skip locked)
  returning o.*;
end $$;
revoke all on function public.claim_emails(integer, interval) from public, anon, authenticated;
grant execute on function public.claim_emails(integer, interval) to service_role;

-- The message went out. False when this sender no longer held it (its lease ran out and another took it).
create function public.complete_email(p_id uuid, p_provider_message_id text default null)
returns boolean
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update public.email_outbox
     set status = 'sent', sent_at = now(), locked_until = null, last_error = null,
         provider_message_id = left(p_provider_message_id, 500)
   where id = p_id and status = 'sending';
  return found;
end $$;
revoke all on function public.complete_email(uuid, text) from public, anon, authenticated;
grant execute on function public.complete_email(uuid, text) to service_role;

-- The message did not go out: tried again after 1, 2, 4, 8 minutes..., failed for good after
-- p_max_attempts (or at once when p_permanent: an address the provider refuses), with the error kept.
-- Returns the new status ('queued' or 'failed'), or null when this sender no longer held it.
create function public.fail_email(p_id uuid, p_error text, p_permanent boolean default false, p_max_attempts integer default 5)
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
         locked_until = null,
         last_error = left(coalesce(nullif(btrim(p_error), ''), 'erro desconhecido'), 2000)
   where id = p_id and status = 'sending'
  returning status into v_status;
  return v_status;
end $$;
revoke all on function public.fail_email(uuid, text, boolean, integer) from public, anon, authenticated;
grant execute on function public.fail_email(uuid, text, boolean, integer) to service_role;
