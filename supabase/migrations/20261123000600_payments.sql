-- Selling courses (issue 11): one row per charge created at the payment provider, and every
-- webhook event received for them. Rows are written only by the edge functions (service role);
-- the buyer reads their own payments, staff read their school's. Card data never reaches these
-- tables: create-asaas-charge passes it through to Asaas only.

-- ── payments ──────────────────────────────────────────────────────────────────────────────────
create table public.payments (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- A deleted course keeps its payment history; the title is kept beside it for the record.
  course_id uuid references public.courses (id) on delete set null,
  course_title text not null constraint payments_course_title_length check (length(course_title) between 1 and 300),
  provider text not null default 'asaas' constraint payments_provider_check check (provider in ('asaas')),
  environment text not null constraint payments_environment_check check (environment in ('sandbox', 'production')),
  integration_id uuid references public.integration_settings (id) on delete set null,
  -- Set once the provider accepted the charge (null only between our insert and its answer).
  provider_payment_id text constraint payments_provider_payment_id_length check (length(provider_payment_id) between 1 and 100),
  billing_type text not null constraint payments_billing_type_check check (billing_type in ('PIX', 'BOLETO', 'CREDIT_CARD')),
  -- The course price when the charge was created, from the database, never from the client.
  value numeric(10, 2) not null constraint payments_value_check check (value > 0),
  status text not null default 'PENDING'
    constraint payments_status_check check (status in ('PENDING', 'CONFIRMED', 'RECEIVED', 'REFUNDED', 'CHARGEBACK', 'OVERDUE', 'DELETED', 'FAILED')),
  invoice_url text constraint payments_invoice_url_check check (invoice_url ~ '^https?://'),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint payments_provider_payment_key unique (provider, provider_payment_id)
);
alter table public.payments enable row level security;
-- "Has this student a charge waiting for this course?" (course page) and the school's history.
create index payments_user_course_idx on public.payments (user_id, course_id, created_at desc);
create index payments_school_created_idx on public.payments (school_id, created_at desc);
create index payments_course_id_idx on public.payments (course_id);
create index payments_integration_id_idx on public.payments (integration_id);
create trigger payments_touch before update on public.payments
  for each row execute function private.touch_timestamps();

-- Supabase's default privileges grant everything on new tables: start from nothing.
revoke all on public.payments from anon, authenticated;
grant select on public.payments to authenticated;
create policy payments_select on public.payments for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));

-- ── payment events: the idempotency record of the provider's webhook ────────────────────────
-- Asaas delivers at least once; the event id is the key, so a repeated delivery acts once.
create table private.payment_events (
  provider text not null,
  event_id text not null constraint payment_events_event_id_length check (length(event_id) between 1 and 200),
  event text not null constraint payment_events_event_length check (length(event) between 1 and 100),
  provider_payment_id text,
  payment_id uuid references public.payments (id) on delete set null,
  school_id uuid references public.schools (id) on delete cascade,
  -- What the event did: enrolled, paused, ignored, unknown_payment.
  outcome text not null,
  received_at timestamptz not null default now(),
  primary key (provider, event_id)
);
alter table private.payment_events enable row level security;
create index payment_events_payment_id_idx on private.payment_events (payment_id);
create index payment_events_school_id_idx on private.payment_events (school_id);

-- ── asaas-webhook (service role only): record one event and act on it, atomically ──────────
-- Returns the outcome; 'duplicate' when this event id was already applied. The payment is found by
-- our id (externalReference) or Asaas's id, and only within p_school_id (the school whose token
-- authenticated the call), so one school's token can never touch another school's payments.
create or replace function public.apply_payment_event(
  p_school_id uuid, p_provider text, p_event_id text, p_event text,
  p_provider_payment_id text, p_external_reference text
) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_outcome text;
  -- Our payment id, when the reference is one (Asaas payments created elsewhere carry anything).
  v_ref uuid := private.uuid_or_null(p_external_reference);
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  -- Claim the event id first: a concurrent delivery of the same event waits here on the primary
  -- key until this transaction commits, then inserts nothing and answers 'duplicate'.
  insert into private.payment_events (provider, event_id, event, provider_payment_id, school_id, outcome)
  values (p_provider, p_event_id, p_event, p_provider_payment_id, p_school_id, 'received')
  on conflict (provider, event_id) do nothing;
  if not found then
    return 'duplicate';
  end if;
  select * into v_payment from public.payments p
   where p.school_id = p_school_id and p.provider = p_provider
     and ((v_ref is not null and p.id = v_ref) or (p_provider_payment_id is not null and p.provider_payment_id = p_provider_payment_id))
   limit 1
   for update;

  if v_payment.id is null then
    v_outcome := 'unknown_payment';
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

  update private.payment_events set payment_id = v_payment.id, outcome = v_outcome
   where provider = p_provider and event_id = p_event_id;
  return v_outcome;
end $$;
revoke all on function public.apply_payment_event(uuid, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.apply_payment_event(uuid, text, text, text, text, text) to service_role;

-- ── asaas-webhook without ?school=: the school that owns a payment (service role only) ──────
create or replace function public.payment_school_id(p_provider text, p_provider_payment_id text, p_external_reference text)
returns uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return (
    select p.school_id from public.payments p
    where p.provider = p_provider
      and (p.id = private.uuid_or_null(p_external_reference)
           or (p_provider_payment_id is not null and p.provider_payment_id = p_provider_payment_id))
    limit 1);
end $$;
revoke all on function public.payment_school_id(text, text, text) from public, anon, authenticated;
grant execute on function public.payment_school_id(text, text, text) to service_role;
