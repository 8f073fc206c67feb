-- Issue 46, item 2: a stale "Pagamento pendente" arrived after the payment. A PIX confirmed 10 s after
-- checkout: the next send run delivered "Pagamento pendente… aguardando" in the same second as "Pagamento
-- confirmado". A message is written with its event, but sent up to a minute (or, retried, hours) later;
-- by then its reason may have passed. Now each message is judged again when a sender claims it, just
-- before it goes out: private.email_outdated_reason says, per kind, what must still hold (the charge still
-- unpaid, the payment still confirmed, the enrollment still open, the kind still wanted...). A message whose
-- reason passed is not sent: status 'skipped', with the reason in last_error (the student card's log shows
-- it), never 'failed'.
set local lock_timeout = '5s';

alter table public.email_outbox
  drop constraint email_outbox_status_check,
  add constraint email_outbox_status_check check (status in ('queued', 'sending', 'sent', 'failed', 'skipped'));
comment on column public.email_outbox.last_error is
  'Why the message did not go out: the provider''s answer (queued again or failed), or, skipped, why it was no longer due.';

-- Why this message should no longer go out (pt-BR, for the staff's log), or null when it still should.
-- The event a message is about is named by its idempotency key ('payment:<id>:pending', 'enrollment:<id>',
-- 'certificate:<id>'...); a key of another shape is judged by the kind's general rules only.
create function private.email_outdated_reason(p_message public.email_outbox) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_id uuid := private.uuid_or_null(substring(p_message.idempotency_key from '^[a-z]+:([0-9a-fA-F-]{36})(?::|$)'));
  v_subject text := split_part(p_message.idempotency_key, ':', 1);
  v_payment public.payments;
begin
  -- Optional kinds: the school turned the kind off, or the student stopped it, after it was written.
  if private.is_optional_email_kind(p_message.kind) then
    if exists (select 1 from public.school_email_settings s where s.school_id = p_message.school_id and p_message.kind = any (s.disabled_kinds)) then
      return 'A escola desligou este tipo de e-mail.';
    end if;
    if exists (select 1 from public.email_unsubscribes u where u.user_id = p_message.user_id and u.kind = p_message.kind) then
      return 'O aluno pediu para não receber este tipo de e-mail.';
    end if;
  end if;

  case p_message.kind
    when 'access_granted' then
      -- The link to choose a password is made for the account when the message is sent.
      if p_message.user_id is null then
        return 'A conta do aluno foi excluída.';
      end if;
    when 'payment_pending', 'payment_reminder', 'payment_confirmed', 'payment_refunded' then
      if v_subject = 'payment' then
        select * into v_payment from public.payments p where p.id = v_id;
        if v_payment.id is null then
          return 'A cobrança foi excluída.';
        end if;
        if p_message.kind in ('payment_pending', 'payment_reminder') then
          -- How to pay: only while the charge still waits for its payment.
          return case
            when v_payment.status in ('CONFIRMED', 'RECEIVED') then 'O pagamento já foi confirmado.'
            when v_payment.status in ('REFUNDED', 'CHARGEBACK') then 'O pagamento já foi estornado.'
            when v_payment.status = 'DELETED' then 'A cobrança foi cancelada.'
            when v_payment.status = 'FAILED' then 'A cobrança não foi criada.'
            when v_payment.status = 'OVERDUE' then 'A cobrança venceu.'
            when v_payment.replaced_by is not null then 'A cobrança foi substituída por outra.'
          end;
        elsif p_message.kind = 'payment_confirmed' and v_payment.status not in ('CONFIRMED', 'RECEIVED') then
          -- "Já está liberado" no longer holds; the refund's own message tells what happened.
          return 'O pagamento foi estornado antes do envio.';
        end if;
      end if;
    when 'new_enrollment' then
      if v_subject = 'enrollment' and not exists (
           select 1 from public.enrollments e
            where e.id = v_id and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())) then
        return 'A matrícula não está mais ativa.';
      end if;
    when 'certificate_available' then
      if v_subject = 'certificate' and not exists (select 1 from public.certificates c where c.id = v_id) then
        return 'O certificado foi excluído.';
      end if;
    when 'we_miss_you' then
      -- Back since the message was written: signed in or studied.
      if exists (select 1 from auth.users u where u.id = p_message.user_id and u.last_sign_in_at > p_message.created_at)
         or exists (select 1 from public.progress p where p.user_id = p_message.user_id and p.updated_at > p_message.created_at) then
        return 'O aluno voltou a estudar.';
      end if;
    else
      null;
  end case;
  return null;
end $$;
revoke all on function private.email_outdated_reason(public.email_outbox) from public, anon, authenticated;

-- claim_emails as in 20261126000100_email_outbox.sql, judging each message it takes: one whose reason
-- passed is marked skipped and not handed to the sender.
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
  return query
  with picked as (
    select c.id from public.email_outbox c
     where (c.status = 'queued' and c.next_attempt_at <= now())
        or (c.status = 'sending' and c.locked_until < now())
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
