-- Payment and webhook checks (issue 19, items 2-4 and the student-webhook replay hardening).
-- 1. A payment event is compared with the charge we created before it changes anything: the Asaas
--    payment id (or installment plan), the Asaas customer and the value. A mismatch changes nothing,
--    is answered 200 with outcome 'mismatch' and is recorded on the payment (mismatch_reason), where
--    the school's staff read it.
-- 2. Webhook events are deduplicated per school: one school's token can no longer pre-claim the event
--    ids of another school's real events.
-- 3. The Asaas webhook token has at least 32 characters in the database, whichever path stores it.
-- 4. Signed student-webhook calls are remembered until their timestamp expires, so the same signed
--    request is refused the second time.
set local lock_timeout = '5s';

-- ── 1. What we know of the charge at Asaas, and why an event was refused ────────────────────
alter table public.payments
  -- Written before the charge is created, so an event racing our own update is still compared.
  add column provider_customer_id text
    constraint payments_provider_customer_id_length check (length(provider_customer_id) between 1 and 100),
  -- A card plan in installments is one Asaas payment per installment, all of one installment id.
  add column provider_installment_id text
    constraint payments_provider_installment_id_length check (length(provider_installment_id) between 1 and 100),
  add column installment_count integer not null default 1
    constraint payments_installment_count_check check (installment_count between 1 and 24),
  -- The last event that did not match this charge, and why (pt-BR, for the school's staff).
  add column mismatch_reason text
    constraint payments_mismatch_reason_length check (length(mismatch_reason) between 1 and 1000),
  add column mismatch_at timestamptz;

-- ── 2. Deduplication per school ─────────────────────────────────────────────────────────────
-- Every event was recorded with the school whose token authenticated it; a row without one (only
-- possible through a direct service-role call) takes its payment's school, or cannot dedup anything.
update private.payment_events e set school_id = p.school_id
  from public.payments p where e.school_id is null and p.id = e.payment_id;
delete from private.payment_events where school_id is null;
alter table private.payment_events
  alter column school_id set not null,
  drop constraint payment_events_pkey,
  add constraint payment_events_pkey primary key (school_id, provider, event_id),
  -- Why the event was refused, beside outcome 'mismatch'.
  add column detail text constraint payment_events_detail_length check (length(detail) <= 1000);
-- The primary key now leads with school_id.
drop index private.payment_events_school_id_idx;

-- ── 3. Asaas webhook token: at least 32 characters ──────────────────────────────────────────
-- The Settings form always asked for 32, but the RPCs accepted 'a'. A shorter token stored before this
-- migration is a guessable password that enrolls anyone for free, so it is cleared: Settings then shows
-- "webhook não configurado" and the school saves a new token (in Settings and in the Asaas panel).
do $$
declare
  v_cleared int;
begin
  with short as (
    update private.integration_secrets set webhook_token = null
     where webhook_token is not null and length(btrim(webhook_token)) < 32
    returning integration_id)
  update public.integration_settings i set has_webhook_token = false from short where i.id = short.integration_id;
  get diagnostics v_cleared = row_count;
  if v_cleared > 0 then
    raise notice 'asaas webhook tokens shorter than 32 characters cleared: % integration(s) must save a new one', v_cleared;
  end if;
end $$;
alter table private.integration_secrets
  add constraint integration_secrets_webhook_token_min_length
  check (webhook_token is null or length(btrim(webhook_token)) >= 32);

-- ── 4. Signed student-webhook requests already used ─────────────────────────────────────────
create table private.webhook_signatures_seen (
  school_id uuid not null references public.schools (id) on delete cascade,
  signature text not null constraint webhook_signatures_seen_signature_check check (signature ~ '^[0-9a-f]{64}$'),
  -- After this the signature's timestamp is out of the tolerance anyway: the row can go.
  expires_at timestamptz not null,
  primary key (school_id, signature)
);
alter table private.webhook_signatures_seen enable row level security;
revoke all on private.webhook_signatures_seen from public, anon, authenticated;
create index webhook_signatures_seen_expires_at_idx on private.webhook_signatures_seen (expires_at);

-- student-webhook (service role only): true the first time a signature is presented, false after.
create or replace function public.claim_webhook_signature(p_school_id uuid, p_signature text, p_expires_at timestamptz)
returns boolean
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  delete from private.webhook_signatures_seen where expires_at < now();
  insert into private.webhook_signatures_seen (school_id, signature, expires_at)
  values (p_school_id, lower(p_signature), p_expires_at)
  on conflict (school_id, signature) do nothing;
  return found;
end $$;
revoke all on function public.claim_webhook_signature(uuid, text, timestamptz) from public, anon, authenticated;
grant execute on function public.claim_webhook_signature(uuid, text, timestamptz) to service_role;

-- ── apply_payment_event, comparing the event with the charge ────────────────────────────────
-- The old six-argument version goes: without defaults for the new arguments, an edge function and a
-- database deployed at different moments fail loudly (500, and Asaas delivers the event again later)
-- instead of applying events unchecked or refusing them as mismatches that Asaas counts as delivered.
drop function public.apply_payment_event(uuid, text, text, text, text, text);
create function public.apply_payment_event(
  p_school_id uuid, p_provider text, p_event_id text, p_event text,
  p_provider_payment_id text, p_external_reference text,
  -- payment.value, payment.customer and payment.installment of the event, as Asaas sent them.
  p_value numeric, p_customer text, p_installment text
) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_outcome text;
  v_ref uuid := private.uuid_or_null(p_external_reference);
  v_reasons text[] := '{}';
  v_min numeric;
  v_max numeric;
  v_detail text;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_school_id is null then
    raise exception 'school required' using errcode = '22004';
  end if;
  -- Claim the event id within this school first: a concurrent delivery of the same event waits here
  -- on the primary key until this transaction commits, then inserts nothing and answers 'duplicate'.
  insert into private.payment_events (provider, event_id, event, provider_payment_id, school_id, outcome)
  values (p_provider, p_event_id, p_event, p_provider_payment_id, p_school_id, 'received')
  on conflict (school_id, provider, event_id) do nothing;
  if not found then
    return 'duplicate';
  end if;
  select * into v_payment from public.payments p
   where p.school_id = p_school_id and p.provider = p_provider
     and ((v_ref is not null and p.id = v_ref) or (p_provider_payment_id is not null and p.provider_payment_id = p_provider_payment_id))
   limit 1
   for update;

  if v_payment.id is not null then
    -- Which charge: an installment plan by its installment id (each installment has its own payment
    -- id), a single charge by its payment id, once Asaas told us either.
    if v_payment.provider_installment_id is not null then
      if p_installment is distinct from v_payment.provider_installment_id then
        v_reasons := v_reasons || format('parcelamento %s, esperado %s', coalesce(left(p_installment, 100), '(nenhum)'), v_payment.provider_installment_id);
      end if;
    elsif v_payment.provider_payment_id is not null and p_provider_payment_id is distinct from v_payment.provider_payment_id then
      v_reasons := v_reasons || format('cobrança %s, esperada %s', coalesce(left(p_provider_payment_id, 100), '(nenhuma)'), v_payment.provider_payment_id);
    end if;
    if v_payment.provider_customer_id is not null and p_customer is distinct from v_payment.provider_customer_id then
      v_reasons := v_reasons || format('cliente %s, esperado %s', coalesce(left(p_customer, 100), '(nenhum)'), v_payment.provider_customer_id);
    end if;
    -- The value of one payment: the price, or one installment of it (Asaas puts the cents that do
    -- not divide evenly on one installment). Numeric all the way, never floating point.
    v_min := trunc(v_payment.value / v_payment.installment_count, 2);
    v_max := v_min + (v_payment.installment_count - 1) * 0.01;
    if p_value is null or p_value < v_min or p_value > v_max then
      v_reasons := v_reasons || format('valor %s, esperado %s', coalesce(p_value::text, '(nenhum)'),
        case when v_min = v_max then v_min::text else format('%s a %s', v_min, v_max) end);
    end if;
  end if;

  if v_payment.id is null then
    v_outcome := 'unknown_payment';
  elsif cardinality(v_reasons) > 0 then
    -- Not the charge we created: nothing changes but the record of why.
    v_detail := left(format('Evento %s (%s) não confere com a cobrança: %s', left(p_event, 100), left(p_event_id, 200), array_to_string(v_reasons, '; ')), 1000);
    update public.payments set mismatch_reason = v_detail, mismatch_at = now() where id = v_payment.id;
    v_outcome := 'mismatch';
  elsif p_event in ('PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED') then
    update public.payments
       set status = case when p_event = 'PAYMENT_RECEIVED' then 'RECEIVED' else 'CONFIRMED' end,
           paid_at = coalesce(paid_at, now()),
           provider_payment_id = coalesce(provider_payment_id, p_provider_payment_id)
     where id = v_payment.id;
    if v_payment.course_id is not null then
      insert into public.enrollments (user_id, course_id, status)
      values (v_payment.user_id, v_payment.course_id, 'ACTIVE')
      on conflict (user_id, course_id) do update
        set status = 'ACTIVE',
            -- A purchase grants lasting access, also to a student whose earlier access had expired.
            expires_at = case when public.enrollments.expires_at is not null and public.enrollments.expires_at <= now()
                              then null else public.enrollments.expires_at end;
      v_outcome := 'enrolled';
    else
      v_outcome := 'ignored';
    end if;
  elsif p_event in ('PAYMENT_REFUNDED', 'PAYMENT_CHARGEBACK_REQUESTED') then
    update public.payments
       set status = case when p_event = 'PAYMENT_REFUNDED' then 'REFUNDED' else 'CHARGEBACK' end
     where id = v_payment.id;
    update public.enrollments set status = 'PAUSED'
     where user_id = v_payment.user_id and course_id = v_payment.course_id;
    v_outcome := 'paused';
  else
    if p_event in ('PAYMENT_OVERDUE', 'PAYMENT_DELETED') and v_payment.status = 'PENDING' then
      update public.payments set status = case when p_event = 'PAYMENT_OVERDUE' then 'OVERDUE' else 'DELETED' end
       where id = v_payment.id;
    end if;
    v_outcome := 'ignored';
  end if;

  update private.payment_events set payment_id = v_payment.id, outcome = v_outcome, detail = v_detail
   where school_id = p_school_id and provider = p_provider and event_id = p_event_id;
  return v_outcome;
end $$;
revoke all on function public.apply_payment_event(uuid, text, text, text, text, text, numeric, text, text) from public, anon, authenticated;
grant execute on function public.apply_payment_event(uuid, text, text, text, text, text, numeric, text, text) to service_role;
