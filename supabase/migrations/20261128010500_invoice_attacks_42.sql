-- Issue 42, the outside attack's findings on the invoices' state and work (docs/nota-fiscal.md, docs/security.md):
-- - f6: the job's claim selects only invoices of schools with Notas fiscais on (a school that turned it off with
--   many invoices due filled every run, so no other school's invoice was reached), and so does the schedule's
--   `exists`; cancellations get at least a quarter of each run, whatever the creates due.
-- - f3: an invoice whose create is in doubt (lease run out) of a payment no longer confirmed, or with a cancel
--   requested, is never created or issued: the job is told to cancel it (looked up at Asaas by our id first
--   when Asaas's id is unknown; nothing there: not_issued). record_invoice_call answers 'cancel_requested' to
--   a create, so the job does not /authorize an invoice refunded while the create was in flight.
-- - f1: 'authorized' ranks above 'error': a late or re-delivered ERROR never un-issues an issued note.
-- - f4: events do not move an invoice the job owns: pending (nothing of this attempt at Asaas yet), or a retry
--   being created (the superseded attempt's SCHEDULED/SYNCHRONIZED); the job's own answers record those.
-- - f7: a refund of a payment whose invoice Asaas refused at the create (error, no Asaas id: nothing exists
--   there) makes it not_issued, as a pending one; so does a refused create of a payment refunded meanwhile.
set local lock_timeout = '5s';

-- f1: error (4) below authorized (5); the rest keeps its order.
create or replace function private.invoice_status_rank(p_status text) returns integer
language sql immutable set search_path = '' as $$
  select case p_status
    when 'pending' then 0 when 'creating' then 1 when 'scheduled' then 2 when 'synchronized' then 3
    when 'error' then 4 when 'authorized' then 5 when 'processing_cancellation' then 6 when 'cancellation_denied' then 7
    when 'cancelled' then 8 when 'not_issued' then 8 end;
$$;

-- f7: as 20261128010000, and an invoice refused at the create (error, no Asaas id) is not_issued on a refund.
create or replace function private.invoice_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_settings public.school_invoice_settings;
begin
  if new.status in ('CONFIRMED', 'RECEIVED') and (tg_op = 'INSERT' or old.status not in ('CONFIRMED', 'RECEIVED')) then
    select * into v_settings from public.school_invoice_settings s where s.school_id = new.school_id and s.enabled;
    if v_settings.school_id is not null then
      insert into public.invoices (school_id, payment_id, user_id, value, issue_at)
      values (new.school_id, new.id, new.user_id, new.value,
              case when v_settings.issue_on = 'payment' then now()
                   else coalesce(new.paid_at, now()) + make_interval(days => v_settings.guarantee_days) end)
      on conflict (payment_id) do nothing;
    end if;
  elsif new.status in ('REFUNDED', 'CHARGEBACK') and tg_op = 'UPDATE' and old.status is distinct from new.status then
    update public.invoices set status = 'not_issued', claimed_at = null
     where payment_id = new.id and (status = 'pending' or (status = 'error' and provider_invoice_id is null));
    update public.invoices set cancel_requested_at = coalesce(cancel_requested_at, now())
     where payment_id = new.id and status not in ('pending', 'not_issued', 'cancelled');
  end if;
  return null;
end $$;
revoke all on function private.invoice_on_payment() from public, anon, authenticated;

-- Already refunded and refused at the create before this: not_issued too.
update public.invoices set status = 'not_issued', claimed_at = null
 where status = 'error' and provider_invoice_id is null and cancel_requested_at is not null;

-- As 20261128010000, with f6 (only schools with the switch on; cancels keep a share of the run) and f3 (an
-- in-doubt create of a payment no longer confirmed, or with a cancel requested, is claimed as a cancel:
-- `lookup` true when Asaas's id is unknown).
create or replace function public.claim_invoice_work(p_now timestamptz default now(), p_limit integer default 20)
returns table (
  invoice_id uuid, school_id uuid, action text, lookup boolean, provider_payment_id text, provider_installment_id text,
  provider_invoice_id text,
  value numeric, service_description text, observations text, municipal_service_id text, municipal_service_code text,
  municipal_service_name text, taxes jsonb
)
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_invoice public.invoices;
  v_payment public.payments;
  v_settings public.school_invoice_settings;
  v_count integer := 0;
  v_limit integer := least(greatest(coalesce(p_limit, 20), 1), 100);
  v_description text;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  for v_invoice in
    select i.* from public.invoices i
      join public.school_invoice_settings s on s.school_id = i.school_id and s.enabled
     where ((i.status = 'pending' and i.issue_at <= p_now)
            or (i.status in ('creating', 'scheduled') and i.claimed_at < now() - interval '10 minutes'))
       and i.cancel_sent_at is null
     order by i.issue_at
     -- A quarter of the run is kept for cancellations.
     limit v_limit - v_limit / 4
     for update of i skip locked
  loop
    select * into v_payment from public.payments p where p.id = v_invoice.payment_id;
    if v_invoice.status = 'pending' and v_payment.status not in ('CONFIRMED', 'RECEIVED') then
      update public.invoices set status = 'not_issued' where id = v_invoice.id;
      continue;
    end if;
    select * into v_settings from public.school_invoice_settings s where s.school_id = v_invoice.school_id and s.enabled;
    invoice_id := v_invoice.id;
    school_id := v_invoice.school_id;
    provider_payment_id := v_payment.provider_payment_id;
    -- A card in installments is one Asaas payment per installment: its invoice is the installment plan's.
    provider_installment_id := v_payment.provider_installment_id;
    value := v_invoice.value;
    if v_invoice.status <> 'pending' and (v_payment.status not in ('CONFIRMED', 'RECEIVED') or v_invoice.cancel_requested_at is not null) then
      -- f3: the create's outcome is unknown and the sale no longer stands: cancel what Asaas may have, never issue.
      update public.invoices set claimed_at = now(), cancel_requested_at = coalesce(cancel_requested_at, now()), cancel_sent_at = now()
       where id = v_invoice.id;
      action := 'cancel';
      lookup := v_invoice.provider_invoice_id is null;
      provider_invoice_id := v_invoice.provider_invoice_id;
      service_description := null; observations := null; municipal_service_id := null;
      municipal_service_code := null; municipal_service_name := null; taxes := null;
      v_count := v_count + 1;
      return next;
      continue;
    end if;
    v_description := private.invoice_description(v_settings.description_template, v_payment);
    update public.invoices
       set status = 'creating', claimed_at = now(), attempts = attempts + 1, error_message = null,
           service_description = v_description, iss_rate = v_settings.iss_rate,
           iss_value = round(v_invoice.value * v_settings.iss_rate / 100, 2)
     where id = v_invoice.id;
    action := 'create';
    -- A claim that expired (or an earlier attempt, after "Emitir novamente"): Asaas may have the invoice already.
    lookup := v_invoice.status in ('creating', 'scheduled');
    -- Asaas's id when an earlier attempt ended in an error ("Emitir novamente"): that invoice is updated and issued.
    provider_invoice_id := case when v_invoice.status = 'pending' then v_invoice.provider_invoice_id end;
    service_description := v_description;
    observations := v_settings.observations;
    municipal_service_id := v_settings.municipal_service_id;
    municipal_service_code := v_settings.municipal_service_code;
    municipal_service_name := v_settings.municipal_service_name;
    taxes := jsonb_build_object('retainIss', v_settings.retain_iss, 'iss', v_settings.iss_rate, 'cofins', v_settings.cofins_rate,
                                'csll', v_settings.csll_rate, 'inss', v_settings.inss_rate, 'ir', v_settings.ir_rate, 'pis', v_settings.pis_rate);
    v_count := v_count + 1;
    return next;
  end loop;

  for v_invoice in
    select i.* from public.invoices i
     where i.cancel_requested_at is not null and i.cancel_sent_at is null and i.provider_invoice_id is not null
       -- Not while the municipality has it (synchronized): its answer comes first, then it is cancelled.
       and i.status in ('scheduled', 'authorized', 'error')
     order by i.cancel_requested_at
     limit v_limit - v_count
     for update skip locked
  loop
    update public.invoices set cancel_sent_at = now() where id = v_invoice.id;
    invoice_id := v_invoice.id;
    school_id := v_invoice.school_id;
    action := 'cancel';
    lookup := false;
    provider_payment_id := null;
    provider_installment_id := null;
    provider_invoice_id := v_invoice.provider_invoice_id;
    value := v_invoice.value;
    service_description := null; observations := null; municipal_service_id := null;
    municipal_service_code := null; municipal_service_name := null; taxes := null;
    return next;
  end loop;
end $$;
revoke all on function public.claim_invoice_work(timestamptz, integer) from public, anon, authenticated;
grant execute on function public.claim_invoice_work(timestamptz, integer) to service_role;

-- As 20261128010000, and:
-- - p_action 'absent': a cancel looked up at Asaas found nothing there: the invoice was never issued (not_issued).
-- - a refused create of a payment refunded meanwhile (nothing at Asaas) is not_issued, not error (f7).
-- - to a create, 'cancel_requested' when the payment was refunded meanwhile: the job does not issue it (f3);
--   the cancel work takes it (a scheduled one at once; an in-doubt one when its lease runs out).
create or replace function public.record_invoice_call(
  p_invoice_id uuid, p_action text, p_provider_invoice_id text default null, p_asaas_status text default null,
  p_status_description text default null, p_number text default null, p_pdf_url text default null,
  p_xml_url text default null, p_refusal text default null
) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_invoice public.invoices;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_invoice from public.invoices i where i.id = p_invoice_id for update;
  if v_invoice.id is null then
    return 'unknown_invoice';
  end if;
  if p_asaas_status is not null then
    v_invoice := private.apply_invoice_state(p_invoice_id, p_asaas_status, p_provider_invoice_id, p_status_description, p_number, p_pdf_url, p_xml_url);
  elsif p_action = 'absent' then
    update public.invoices set status = 'not_issued', claimed_at = null
     where id = p_invoice_id and status in ('creating', 'scheduled') and provider_invoice_id is null
    returning * into v_invoice;
  elsif p_refusal is not null and p_action = 'create' then
    update public.invoices
       set status = case when cancel_requested_at is not null and provider_invoice_id is null then 'not_issued' else 'error' end,
           claimed_at = null, error_message = left(p_refusal, 2000)
     where id = p_invoice_id and status in ('creating', 'scheduled') returning * into v_invoice;
  elsif p_refusal is not null then
    update public.invoices set error_message = left('Cancelamento recusado pelo Asaas: ' || p_refusal, 2000)
     where id = p_invoice_id returning * into v_invoice;
  elsif p_action = 'cancel' then
    update public.invoices set cancel_sent_at = null where id = p_invoice_id returning * into v_invoice;
  end if;
  if p_action = 'create' and v_invoice.cancel_requested_at is not null then
    return 'cancel_requested';
  end if;
  return v_invoice.status;
end $$;
revoke all on function public.record_invoice_call(uuid, text, text, text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.record_invoice_call(uuid, text, text, text, text, text, text, text, text) to service_role;

-- As 20261128010000, with f4: while the job owns the invoice (pending; or a retry being created, Asaas's id
-- kept from the failed attempt) an event's status does not move it ('ignored_job_owns'), except the issue's
-- own outcome (AUTHORIZED, ERROR) or a cancellation of a retry being created.
create or replace function public.apply_invoice_event(
  p_school_id uuid, p_event_id text, p_event text, p_provider_invoice_id text, p_external_reference text,
  p_provider_payment_id text, p_asaas_status text, p_status_description text, p_number text, p_pdf_url text, p_xml_url text,
  p_provider_installment_id text default null
) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_invoice public.invoices;
  v_payment public.payments;
  v_outcome text;
  v_status text;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  insert into private.payment_events (provider, event_id, event, provider_payment_id, school_id, outcome)
  values ('asaas', p_event_id, p_event, p_provider_payment_id, p_school_id, 'received')
  on conflict (school_id, provider, event_id) do nothing;
  if not found then
    return 'duplicate';
  end if;
  select * into v_invoice from public.invoices i
   where i.school_id = p_school_id
     and (i.provider_invoice_id = p_provider_invoice_id
          or (i.provider_invoice_id is null and i.id = private.uuid_or_null(p_external_reference)))
   for update;
  if v_invoice.id is not null then
    select * into v_payment from public.payments p where p.id = v_invoice.payment_id;
  end if;
  -- The event's own meaning; INVOICE_UPDATED (and any other) by the invoice's status.
  v_status := coalesce(case p_event
    when 'INVOICE_CREATED' then 'SCHEDULED' when 'INVOICE_SYNCHRONIZED' then 'SYNCHRONIZED' when 'INVOICE_AUTHORIZED' then 'AUTHORIZED'
    when 'INVOICE_PROCESSING_CANCELLATION' then 'PROCESSING_CANCELLATION' when 'INVOICE_CANCELED' then 'CANCELED'
    when 'INVOICE_CANCELLATION_DENIED' then 'CANCELLATION_DENIED' when 'INVOICE_ERROR' then 'ERROR' end, p_asaas_status);
  if v_invoice.id is null then
    v_outcome := 'unknown_invoice';
  elsif not (p_provider_payment_id is not distinct from v_payment.provider_payment_id
             or (v_payment.provider_installment_id is not null and p_provider_installment_id = v_payment.provider_installment_id)) then
    v_outcome := 'mismatch';
  elsif v_status is null then
    v_outcome := 'ignored';
  elsif v_invoice.status = 'pending'
        or (v_invoice.status = 'creating' and v_invoice.provider_invoice_id is not null and v_status in ('SCHEDULED', 'SYNCHRONIZED')) then
    v_outcome := 'ignored_job_owns';
  else
    v_invoice := private.apply_invoice_state(v_invoice.id, v_status, p_provider_invoice_id, p_status_description, p_number, p_pdf_url, p_xml_url);
    v_outcome := 'invoice_' || v_invoice.status;
  end if;
  update private.payment_events set payment_id = v_payment.id, outcome = v_outcome
   where school_id = p_school_id and provider = 'asaas' and event_id = p_event_id;
  return v_outcome;
end $$;
revoke all on function public.apply_invoice_event(uuid, text, text, text, text, text, text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.apply_invoice_event(uuid, text, text, text, text, text, text, text, text, text, text, text) to service_role;

-- f6: the schedule calls the job only while a school with the switch on has work due (as the claim selects it).
select cron.schedule('issue-invoices', '* * * * *', $job$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/issue-invoices',
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')),
    body := '{}'::jsonb,
    timeout_milliseconds := 60000)
  where exists (select 1 from public.invoices i
                  join public.school_invoice_settings s on s.school_id = i.school_id and s.enabled
                 where ((i.status = 'pending' and i.issue_at <= now())
                        or (i.status in ('creating', 'scheduled') and i.claimed_at < now() - interval '10 minutes'))
                   and i.cancel_sent_at is null)
     or exists (select 1 from public.invoices i
                 where i.cancel_requested_at is not null and i.cancel_sent_at is null and i.provider_invoice_id is not null
                   and i.status in ('scheduled', 'authorized', 'error'));
$job$);
