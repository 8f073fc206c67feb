-- Issue 42: notas fiscais (NFS-e) issued, sent and cancelled by themselves through Asaas (docs/nota-fiscal.md).
-- - public.school_invoice_settings: "Notas fiscais" (on/off, on payment or after the guarantee days, the
--   municipal service, the description template, ISS and the other taxes). Staff of the school read and write
--   it over REST, except the switch: `enabled` is written only by the invoice-settings function, which turns it
--   on only after Asaas's fiscal check reports nothing missing (no column grant on it for anyone but the
--   service role).
-- - public.invoices: one per payment (unique on the payment, so repeated or concurrent confirmations write one
--   row), its state at Asaas as the invoice webhooks report it, the municipality's message, the PDF and XML.
--   Staff of the school read theirs, a buyer their own; nobody writes through the API: the payments' trigger,
--   the issue-invoices job (claim before calling Asaas) and asaas-webhook (apply_invoice_event) do.
-- - The issue-invoices job claims due work here (claim_invoice_work) before it calls Asaas, so two runs never
--   create two invoices; a call whose outcome is unknown is looked up at Asaas by externalReference (our
--   invoice id) before any new create.
set local lock_timeout = '5s';

-- ── The school's setting ────────────────────────────────────────────────────────────────────────
create table public.school_invoice_settings (
  school_id uuid primary key references public.schools (id) on delete cascade,
  -- Written only by the invoice-settings function (after the fiscal check at Asaas).
  enabled boolean not null default false,
  -- payment: when the payment is confirmed; guarantee: guarantee_days after it (a refund within the
  -- guarantee then needs no cancellation at the municipality).
  issue_on text not null default 'guarantee'
    constraint school_invoice_settings_issue_on_check check (issue_on in ('payment', 'guarantee')),
  guarantee_days smallint not null default 7
    constraint school_invoice_settings_guarantee_days_check check (guarantee_days between 1 and 90),
  -- The municipality's service, as Asaas lists it (GET /v3/fiscalInfo/municipalServices).
  municipal_service_id text constraint school_invoice_settings_service_id_check check (length(municipal_service_id) between 1 and 100),
  municipal_service_code text constraint school_invoice_settings_service_code_check check (length(municipal_service_code) between 1 and 50),
  municipal_service_name text constraint school_invoice_settings_service_name_check check (length(municipal_service_name) between 1 and 500),
  -- {curso}, {comprador}, {data_pagamento}, {valor} are replaced when the invoice is issued.
  description_template text not null default 'Acesso ao curso online {curso}, adquirido por {comprador} em {data_pagamento}.'
    constraint school_invoice_settings_template_check check (length(btrim(description_template)) between 1 and 2000),
  observations text constraint school_invoice_settings_observations_check check (length(observations) <= 1000),
  -- Percentages, as Asaas's invoice takes them (taxes.iss, taxes.retainIss, taxes.cofins ...).
  iss_rate numeric(5, 2) not null default 0 constraint school_invoice_settings_iss_check check (iss_rate between 0 and 100),
  retain_iss boolean not null default false,
  cofins_rate numeric(5, 2) not null default 0 constraint school_invoice_settings_cofins_check check (cofins_rate between 0 and 100),
  csll_rate numeric(5, 2) not null default 0 constraint school_invoice_settings_csll_check check (csll_rate between 0 and 100),
  inss_rate numeric(5, 2) not null default 0 constraint school_invoice_settings_inss_check check (inss_rate between 0 and 100),
  ir_rate numeric(5, 2) not null default 0 constraint school_invoice_settings_ir_check check (ir_rate between 0 and 100),
  pis_rate numeric(5, 2) not null default 0 constraint school_invoice_settings_pis_check check (pis_rate between 0 and 100),
  enabled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- On needs a service to issue with; clearing it while on is refused.
  constraint school_invoice_settings_service_when_enabled check (not enabled or municipal_service_id is not null or municipal_service_code is not null)
);
comment on table public.school_invoice_settings is 'Notas fiscais (issue 42): on/off (only through invoice-settings, after Asaas''s fiscal check), when to issue, the municipal service, the description template and the taxes. No row: off.';
alter table public.school_invoice_settings enable row level security;
revoke all on public.school_invoice_settings from public, anon, authenticated;
grant select on public.school_invoice_settings to authenticated;
-- Every column but the switch (enabled, enabled_at): the function turns it on after the check.
grant insert (school_id, issue_on, guarantee_days, municipal_service_id, municipal_service_code, municipal_service_name,
              description_template, observations, iss_rate, retain_iss, cofins_rate, csll_rate, inss_rate, ir_rate, pis_rate)
  on public.school_invoice_settings to authenticated;
-- school_id too: an upsert (onConflict: 'school_id') sets it again; the policy keeps it a school of the caller's.
grant update (school_id, issue_on, guarantee_days, municipal_service_id, municipal_service_code, municipal_service_name,
              description_template, observations, iss_rate, retain_iss, cofins_rate, csll_rate, inss_rate, ir_rate, pis_rate)
  on public.school_invoice_settings to authenticated;
grant all on public.school_invoice_settings to service_role;
create policy school_invoice_settings_select on public.school_invoice_settings for select to authenticated
  using ((select private.is_school_staff(school_id)));
create policy school_invoice_settings_insert on public.school_invoice_settings for insert to authenticated
  with check ((select private.is_school_staff(school_id)));
create policy school_invoice_settings_update on public.school_invoice_settings for update to authenticated
  using ((select private.is_school_staff(school_id))) with check ((select private.is_school_staff(school_id)));
create policy school_invoice_settings_password_change on public.school_invoice_settings as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create trigger school_invoice_settings_touch before update on public.school_invoice_settings
  for each row execute function private.touch_timestamps();

-- ── The invoices ────────────────────────────────────────────────────────────────────────────────
create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  payment_id uuid not null references public.payments (id) on delete cascade,
  -- The buyer (the service taker at Asaas, through the payment's customer).
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- pending (waiting for issue_at) → creating (claimed, Asaas being called) → scheduled (SCHEDULED at Asaas)
  -- → synchronized (sent to the municipality) → authorized | error; a refund: processing_cancellation →
  -- cancelled | cancellation_denied; not_issued: refunded before it was issued (nothing at Asaas).
  status text not null default 'pending'
    constraint invoices_status_check check (status in ('pending', 'creating', 'scheduled', 'synchronized', 'authorized', 'error',
                                                         'processing_cancellation', 'cancelled', 'cancellation_denied', 'not_issued')),
  issue_at timestamptz not null,
  -- The job's lease on a call to Asaas (a create, or a cancel); a run that died leaves it to expire.
  claimed_at timestamptz,
  attempts smallint not null default 0,
  provider_invoice_id text constraint invoices_provider_invoice_id_check check (length(provider_invoice_id) between 1 and 100),
  value numeric(10, 2) not null constraint invoices_value_check check (value > 0),
  iss_rate numeric(5, 2),
  iss_value numeric(10, 2),
  service_description text constraint invoices_service_description_check check (length(service_description) <= 2000),
  -- The municipality's (or Asaas's) message for an error or a denied cancellation.
  error_message text constraint invoices_error_message_check check (length(error_message) <= 2000),
  number text constraint invoices_number_check check (length(number) <= 100),
  pdf_url text constraint invoices_pdf_url_check check (pdf_url ~ '^https?://' and length(pdf_url) <= 2000),
  xml_url text constraint invoices_xml_url_check check (xml_url ~ '^https?://' and length(xml_url) <= 2000),
  cancel_requested_at timestamptz,
  cancel_sent_at timestamptz,
  authorized_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint invoices_payment_key unique (payment_id),
  constraint invoices_provider_invoice_key unique (provider_invoice_id)
);
comment on table public.invoices is 'NFS-e of a payment at Asaas (issue 42): one per payment; its state follows Asaas''s invoice webhooks. Staff of the school and the buyer read; written by the database and the issue-invoices job only.';
alter table public.invoices enable row level security;
create index invoices_school_created_idx on public.invoices (school_id, created_at desc);
create index invoices_school_status_idx on public.invoices (school_id, status);
create index invoices_user_id_idx on public.invoices (user_id);
create index invoices_due_idx on public.invoices (issue_at) where status in ('pending', 'creating');
create index invoices_cancel_due_idx on public.invoices (cancel_requested_at) where cancel_requested_at is not null and cancel_sent_at is null;
create trigger invoices_touch before update on public.invoices
  for each row execute function private.touch_timestamps();
revoke all on public.invoices from public, anon, authenticated;
grant select on public.invoices to authenticated;
grant all on public.invoices to service_role;
-- As payments_select: the staff's schools are read once per query, not once per row.
create policy invoices_select on public.invoices for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy invoices_password_change on public.invoices as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── Scheduled with the payment ──────────────────────────────────────────────────────────────────
-- A confirmed payment (course, bump, plan invoice; any path) of a school with Notas fiscais on gets its
-- invoice row, due now or after the guarantee days. A refund or chargeback drops one not issued yet and asks
-- the job to cancel one that is at Asaas.
create function private.invoice_on_payment() returns trigger
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
     where payment_id = new.id and status = 'pending';
    update public.invoices set cancel_requested_at = coalesce(cancel_requested_at, now())
     where payment_id = new.id and status not in ('pending', 'not_issued', 'cancelled');
  end if;
  return null;
end $$;
revoke all on function private.invoice_on_payment() from public, anon, authenticated;
create trigger payments_invoice after insert or update of status on public.payments
  for each row execute function private.invoice_on_payment();

-- ── The job (issue-invoices, service role) ──────────────────────────────────────────────────────
-- The service description from the school's template: {curso} (what was bought), {comprador}, {data_pagamento}, {valor}.
create function private.invoice_description(p_template text, p_payment public.payments) returns text
language sql stable security definer set search_path = '' as $$
  select left(replace(replace(replace(replace(p_template,
           '{curso}', coalesce((select string_agg(i.title, ' + ' order by array_position(array['course', 'bump', 'plan'], i.kind))
                                  from public.payment_items i where i.payment_id = p_payment.id), p_payment.course_title)),
           '{comprador}', coalesce((select pr.name from public.profiles pr where pr.id = p_payment.user_id), '')),
           '{data_pagamento}', to_char(coalesce(p_payment.paid_at, now()) at time zone 'America/Sao_Paulo', 'DD/MM/YYYY')),
           '{valor}', 'R$ ' || replace(replace(replace(to_char(p_payment.value, 'FM999G999G990D00'), ',', '_'), '.', ','), '_', '.')), 2000);
$$;
revoke all on function private.invoice_description(text, public.payments) from public, anon, authenticated;

-- Claims up to p_limit pieces of work due at p_now (the job's clock; tests pass their own) and answers what
-- to send to Asaas. action 'create': a pending invoice due, or one whose call's outcome is unknown (created
-- or not, issued or not: its lease of 10 minutes, on the real clock, ran out; `lookup` true: look it up by
-- externalReference before creating, and issue it when Asaas has it scheduled); its description, value,
-- service and taxes are fixed now from the school's setting. action 'cancel': an invoice at Asaas whose
-- payment was refunded. A pending invoice of a payment no longer confirmed is not_issued. A school that
-- turned Notas fiscais off keeps its pending invoices waiting.
create function public.claim_invoice_work(p_now timestamptz default now(), p_limit integer default 20)
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
     where (i.status = 'pending' and i.issue_at <= p_now)
        or (i.status in ('creating', 'scheduled') and i.claimed_at < now() - interval '10 minutes')
     order by i.issue_at
     limit v_limit
     for update skip locked
  loop
    select * into v_payment from public.payments p where p.id = v_invoice.payment_id;
    if v_payment.status not in ('CONFIRMED', 'RECEIVED') and v_invoice.status = 'pending' then
      update public.invoices set status = 'not_issued' where id = v_invoice.id;
      continue;
    end if;
    select * into v_settings from public.school_invoice_settings s where s.school_id = v_invoice.school_id and s.enabled;
    if v_settings.school_id is null then
      continue;
    end if;
    v_description := private.invoice_description(v_settings.description_template, v_payment);
    update public.invoices
       set status = 'creating', claimed_at = now(), attempts = attempts + 1, error_message = null,
           service_description = v_description, iss_rate = v_settings.iss_rate,
           iss_value = round(v_invoice.value * v_settings.iss_rate / 100, 2)
     where id = v_invoice.id;
    invoice_id := v_invoice.id;
    school_id := v_invoice.school_id;
    action := 'create';
    -- A claim that expired (or an earlier attempt, after "Emitir novamente"): Asaas may have the invoice already.
    lookup := v_invoice.status in ('creating', 'scheduled');
    provider_payment_id := v_payment.provider_payment_id;
    -- A card in installments is one Asaas payment per installment: its invoice is the installment plan's.
    provider_installment_id := v_payment.provider_installment_id;
    -- Asaas's id when an earlier attempt ended in an error ("Emitir novamente"): that invoice is updated and issued.
    provider_invoice_id := case when v_invoice.status = 'pending' then v_invoice.provider_invoice_id end;
    value := v_invoice.value;
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
     limit greatest(v_limit - v_count, 0)
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

-- Asaas's invoice status → ours.
create function private.invoice_status_of(p_asaas_status text) returns text
language sql immutable set search_path = '' as $$
  select case p_asaas_status
    when 'SCHEDULED' then 'scheduled' when 'SYNCHRONIZED' then 'synchronized' when 'AUTHORIZED' then 'authorized'
    when 'PROCESSING_CANCELLATION' then 'processing_cancellation' when 'CANCELED' then 'cancelled'
    when 'CANCELLATION_DENIED' then 'cancellation_denied' when 'ERROR' then 'error' end;
$$;

-- How far along a status is: an event or answer never moves an invoice back (events arrive in any order).
create function private.invoice_status_rank(p_status text) returns integer
language sql immutable set search_path = '' as $$
  select case p_status
    when 'pending' then 0 when 'creating' then 1 when 'scheduled' then 2 when 'synchronized' then 3
    when 'authorized' then 4 when 'error' then 4 when 'processing_cancellation' then 5 when 'cancellation_denied' then 6
    when 'cancelled' then 7 when 'not_issued' then 7 end;
$$;

-- Moves an invoice to what Asaas says (an answer of the job, or a webhook event), forward only; an
-- authorized invoice writes "Nota fiscal disponível" once, which a cancellation skips while still queued.
-- Returns the invoice after.
create function private.apply_invoice_state(
  p_invoice_id uuid, p_asaas_status text, p_provider_invoice_id text, p_status_description text,
  p_number text, p_pdf_url text, p_xml_url text
) returns public.invoices
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_invoice public.invoices;
  v_new text := private.invoice_status_of(p_asaas_status);
  v_payment public.payments;
  v_email text;
begin
  select * into v_invoice from public.invoices i where i.id = p_invoice_id for update;
  if v_invoice.id is null or v_new is null then
    return v_invoice;
  end if;
  if v_invoice.status = v_new or private.invoice_status_rank(v_new) < private.invoice_status_rank(v_invoice.status) then
    -- Nothing new, or older than what we know; Asaas's id is still worth keeping.
    if v_invoice.provider_invoice_id is null and p_provider_invoice_id is not null then
      update public.invoices set provider_invoice_id = p_provider_invoice_id where id = v_invoice.id returning * into v_invoice;
    end if;
    return v_invoice;
  end if;
  update public.invoices
     set status = v_new,
         provider_invoice_id = coalesce(provider_invoice_id, p_provider_invoice_id),
         -- Scheduled keeps the job's lease: if the issue call that follows is lost, the lease runs out and the
         -- next run issues it.
         claimed_at = case when v_new = 'scheduled' then claimed_at end,
         error_message = case when v_new = 'error' then left(coalesce(nullif(btrim(p_status_description), ''), 'A prefeitura recusou a nota fiscal.'), 2000)
                              when v_new = 'cancellation_denied' then left('Cancelamento negado pela prefeitura' ||
                                     coalesce(': ' || nullif(btrim(p_status_description), ''), '.'), 2000)
                              when v_new in ('authorized', 'scheduled', 'synchronized') then null
                              else error_message end,
         number = coalesce(left(p_number, 100), number),
         pdf_url = case when p_pdf_url ~ '^https?://' and length(p_pdf_url) <= 2000 then p_pdf_url else pdf_url end,
         xml_url = case when p_xml_url ~ '^https?://' and length(p_xml_url) <= 2000 then p_xml_url else xml_url end,
         authorized_at = case when v_new = 'authorized' then coalesce(authorized_at, now()) else authorized_at end,
         cancelled_at = case when v_new = 'cancelled' then coalesce(cancelled_at, now()) else cancelled_at end
   where id = v_invoice.id
  returning * into v_invoice;
  if v_new in ('processing_cancellation', 'cancelled') then
    -- "Nota fiscal disponível" not sent yet no longer holds (a message already being sent goes).
    update public.email_outbox set status = 'skipped', last_error = 'A nota fiscal foi cancelada antes do envio.'
     where school_id = v_invoice.school_id and idempotency_key = 'invoice:' || v_invoice.id || ':authorized' and status = 'queued';
  end if;
  if v_new = 'authorized' then
    select * into v_payment from public.payments p where p.id = v_invoice.payment_id;
    v_email := private.account_email(v_invoice.user_id);
    if v_email is not null then
      perform private.enqueue_email(v_invoice.school_id, v_invoice.user_id, v_email, 'invoice_available',
        'invoice:' || v_invoice.id || ':authorized',
        jsonb_build_object('name', coalesce((select pr.name from public.profiles pr where pr.id = v_invoice.user_id), ''),
          'course_title', v_payment.course_title, 'amount', v_invoice.value, 'number', v_invoice.number,
          'pdf_url', v_invoice.pdf_url, 'xml_url', v_invoice.xml_url, 'paid_at', v_payment.paid_at,
          'items', private.payment_email_items(v_payment.id)));
    end if;
  end if;
  return v_invoice;
end $$;
revoke all on function private.apply_invoice_state(uuid, text, text, text, text, text, text) from public, anon, authenticated;

-- The job's report of one call to Asaas (service role):
-- - p_asaas_status given: Asaas answered the invoice (created, found by externalReference, authorized, cancelled).
-- - p_refusal given: Asaas refused the call with this message (nothing was created, issued or cancelled): a
--   create (or the issue that follows it) is 'error' with it; a cancel keeps the invoice as it was, with the message.
-- - neither: the outcome is unknown. A create stays claimed until its lease runs out (then looked up); a cancel
--   is sent again on the next run.
create function public.record_invoice_call(
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
    return v_invoice.status;
  end if;
  if p_refusal is not null and p_action = 'create' then
    update public.invoices set status = 'error', claimed_at = null, error_message = left(p_refusal, 2000)
     where id = p_invoice_id and status in ('creating', 'scheduled') returning * into v_invoice;
  elsif p_refusal is not null then
    update public.invoices set error_message = left('Cancelamento recusado pelo Asaas: ' || p_refusal, 2000)
     where id = p_invoice_id returning * into v_invoice;
  elsif p_action = 'cancel' then
    update public.invoices set cancel_sent_at = null where id = p_invoice_id returning * into v_invoice;
  end if;
  return v_invoice.status;
end $$;
revoke all on function public.record_invoice_call(uuid, text, text, text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.record_invoice_call(uuid, text, text, text, text, text, text, text, text) to service_role;

-- ── The webhook (asaas-webhook, service role) ───────────────────────────────────────────────────
-- An INVOICE_* event of the school whose token authenticated the call: the invoice is found only within
-- p_school_id, by Asaas's id or (before the job recorded it) by externalReference = our id, and it must be
-- of the payment (or installment plan) the event names. Recorded once per event id (private.payment_events), like payment events.
create function public.apply_invoice_event(
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

-- asaas-webhook without ?school: the one school whose invoice the event names (Asaas's id or our id).
create function public.invoice_school_id(p_provider_invoice_id text, p_external_reference text) returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  v_schools uuid[];
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select array_agg(distinct i.school_id) into v_schools from public.invoices i
   where (p_provider_invoice_id is not null and i.provider_invoice_id = p_provider_invoice_id)
      or i.id = private.uuid_or_null(p_external_reference);
  return case when cardinality(v_schools) = 1 then v_schools[1] end;
end $$;
revoke all on function public.invoice_school_id(text, text) from public, anon, authenticated;
grant execute on function public.invoice_school_id(text, text) to service_role;

-- ── The switch (invoice-settings, service role, after the fiscal check at Asaas) ────────────────
create function public.set_invoices_enabled(p_school_id uuid, p_enabled boolean) returns public.school_invoice_settings
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_settings public.school_invoice_settings;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  insert into public.school_invoice_settings (school_id) values (p_school_id) on conflict (school_id) do nothing;
  update public.school_invoice_settings
     set enabled = p_enabled, enabled_at = case when p_enabled and not enabled then now() else enabled_at end
   where school_id = p_school_id
  returning * into v_settings;
  return v_settings;
exception when check_violation then
  raise exception 'Escolha o serviço municipal antes de ligar as notas fiscais.' using errcode = '22023';
end $$;
revoke all on function public.set_invoices_enabled(uuid, boolean) from public, anon, authenticated;
grant execute on function public.set_invoices_enabled(uuid, boolean) to service_role;

-- ── Staff ───────────────────────────────────────────────────────────────────────────────────────
-- "Emitir novamente": an invoice with an error goes back to pending, due now; the next run of the job
-- updates it at Asaas with today's setting and issues it. Under the row lock: a second click is refused.
create function public.retry_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_invoice public.invoices;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_invoice from public.invoices i where i.id = p_invoice_id for update;
  if v_invoice.id is null or not private.is_school_staff(v_invoice.school_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if v_invoice.status <> 'error' or v_invoice.cancel_requested_at is not null then
    raise exception 'Só notas com erro podem ser emitidas novamente.' using errcode = '22023';
  end if;
  update public.invoices set status = 'pending', issue_at = now(), claimed_at = null
   where id = v_invoice.id returning * into v_invoice;
  return v_invoice;
end $$;
revoke all on function public.retry_invoice(uuid) from public, anon, authenticated;
grant execute on function public.retry_invoice(uuid) to authenticated;

-- The school's invoices, newest first: Vendas' "Notas com erro" (p_status 'error'), the monthly CSV (a month as
-- p_from/p_to, page by page), any status. Period: São Paulo dates of the invoice's creation (its payment's
-- confirmation), inclusive, at most 366 days. A page of at most 500.
create function public.admin_invoices(
  p_school_id uuid default null, p_status text default null, p_from date default null, p_to date default null,
  p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, payment_id uuid, status text, number text, value numeric, iss_rate numeric, iss_value numeric,
  service_description text, error_message text, pdf_url text, xml_url text, issue_at timestamptz,
  authorized_at timestamptz, cancelled_at timestamptz, created_at timestamptz,
  buyer_id uuid, buyer_name text, buyer_email text, buyer_cpf text, course_title text, billing_type text,
  payment_status text, paid_at timestamptz, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_from is not null and p_to is not null and (p_to < p_from or p_to - p_from > 366) then
    raise exception 'Período de até 366 dias.' using errcode = '22023';
  end if;
  return query
  select i.id, i.payment_id, i.status, i.number, i.value, i.iss_rate, i.iss_value, i.service_description,
         i.error_message, i.pdf_url, i.xml_url, i.issue_at, i.authorized_at, i.cancelled_at, i.created_at,
         i.user_id, pr.name, pr.email, pr.cpf, p.course_title, p.billing_type, p.status, p.paid_at,
         count(*) over ()
    from public.invoices i
    join public.payments p on p.id = i.payment_id
    left join public.profiles pr on pr.id = i.user_id
   where i.school_id = v_school
     and (p_status is null or i.status = p_status)
     and (p_from is null or i.created_at >= (p_from::timestamp at time zone 'America/Sao_Paulo'))
     and (p_to is null or i.created_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'))
   order by i.created_at desc, i.id
   limit least(greatest(coalesce(p_limit, 25), 1), 500)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.admin_invoices(uuid, text, date, date, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_invoices(uuid, text, date, date, integer, integer) to authenticated;

-- "Notas fiscais" totals of the period (São Paulo dates of creation, inclusive, at most 366 days):
-- {issued, issued_value, cancelled, errors, waiting, iss}. issued: authorized or cancellation denied (the
-- note stands); iss: the ISS of those.
create function public.admin_invoice_totals(p_school_id uuid default null, p_from date default null, p_to date default null)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_result jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_from is not null and p_to is not null and (p_to < p_from or p_to - p_from > 366) then
    raise exception 'Período de até 366 dias.' using errcode = '22023';
  end if;
  select jsonb_build_object(
    'issued', count(*) filter (where i.status in ('authorized', 'cancellation_denied')),
    'issued_value', coalesce(sum(i.value) filter (where i.status in ('authorized', 'cancellation_denied')), 0),
    'cancelled', count(*) filter (where i.status = 'cancelled'),
    'errors', count(*) filter (where i.status = 'error'),
    'waiting', count(*) filter (where i.status in ('pending', 'creating', 'scheduled', 'synchronized', 'processing_cancellation')),
    'iss', coalesce(sum(i.iss_value) filter (where i.status in ('authorized', 'cancellation_denied')), 0))
    into v_result
    from public.invoices i
   where i.school_id = v_school
     and (p_from is null or i.created_at >= (p_from::timestamp at time zone 'America/Sao_Paulo'))
     and (p_to is null or i.created_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'));
  return v_result;
end $$;
revoke all on function public.admin_invoice_totals(uuid, date, date) from public, anon, authenticated;
grant execute on function public.admin_invoice_totals(uuid, date, date) to authenticated;

-- ── The student: "Minhas compras" ───────────────────────────────────────────────────────────────
-- The caller's own confirmed (or later refunded) purchases, newest first, with what was bought and the
-- invoice's status and links. A page of at most 100.
create function public.my_purchases(p_limit integer default 20, p_offset integer default 0)
returns table (
  payment_id uuid, paid_at timestamptz, value numeric, billing_type text, payment_status text, items jsonb,
  invoice_status text, invoice_number text, invoice_pdf_url text, invoice_xml_url text, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select p.id, p.paid_at, p.value, p.billing_type, p.status, private.payment_email_items(p.id),
         i.status, i.number, i.pdf_url, i.xml_url, count(*) over ()
    from public.payments p
    left join public.invoices i on i.payment_id = p.id
   where p.user_id = auth.uid() and p.paid_at is not null
   order by p.paid_at desc, p.id
   limit least(greatest(coalesce(p_limit, 20), 1), 100)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.my_purchases(integer, integer) from public, anon, authenticated;
grant execute on function public.my_purchases(integer, integer) to authenticated;
