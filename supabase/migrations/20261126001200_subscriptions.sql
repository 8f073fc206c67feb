-- Issue 24, subscriptions through Asaas. docs/selling.md ("Subscriptions") has the design.
-- - plans: what a school sells by the month or the year (courses, price, payment methods).
-- - subscriptions: one per buyer and plan, mirrored from Asaas's subscription; paid_until is the end of
--   the period the last paid invoice covers.
-- - Each Asaas invoice is a payments row (subscription_id set, one 'plan' item), written when its
--   first event arrives (apply_subscription_event).
-- - Access: the plan's courses are enrollments with subscription_id set. A paid invoice activates them
--   and extends paid_until; check_subscription_access (daily, pg_cron) pauses them once paid_until is
--   more than the school's grace days behind (OVERDUE), or, for a cancelled subscription, once
--   paid_until has passed (EXPIRED); a later paid invoice restores them. An enrollment the student
--   bought outright is never the plan's: it stays as it is.
set local lock_timeout = '5s';

-- ── The school's grace days ──────────────────────────────────────────────────────────────────
alter table public.schools
  add column subscription_grace_days integer not null default 5
    constraint schools_subscription_grace_days_check check (subscription_grace_days between 0 and 60);
grant update (subscription_grace_days) on public.schools to authenticated;

-- ── plans ────────────────────────────────────────────────────────────────────────────────────
create table public.plans (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  slug text not null constraint plans_slug_format check (private.is_slug(slug)),
  name text not null constraint plans_name_length check (length(btrim(name)) between 1 and 120),
  description text constraint plans_description_length check (length(description) <= 2000),
  cycle text not null constraint plans_cycle_check check (cycle in ('MONTHLY', 'YEARLY')),
  price numeric(10, 2) not null constraint plans_price_check check (price >= 5),
  billing_types text[] not null default array['PIX', 'BOLETO', 'CREDIT_CARD']
    constraint plans_billing_types_check check (cardinality(billing_types) >= 1
                                                and billing_types <@ array['PIX', 'BOLETO', 'CREDIT_CARD']),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint plans_school_slug_key unique (school_id, slug)
);
alter table public.plans enable row level security;
create trigger plans_touch before update on public.plans
  for each row execute function private.touch_timestamps();

create table public.plan_courses (
  plan_id uuid not null references public.plans (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  primary key (plan_id, course_id)
);
alter table public.plan_courses enable row level security;
create index plan_courses_course_id_idx on public.plan_courses (course_id);

create function private.plan_courses_same_school() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.plans p join public.courses c on c.school_id = p.school_id
                  where p.id = new.plan_id and c.id = new.course_id) then
    raise exception 'O curso não é desta escola.' using errcode = '23514';
  end if;
  return new;
end $$;
revoke all on function private.plan_courses_same_school() from public, anon, authenticated;
create trigger plan_courses_same_school before insert or update on public.plan_courses
  for each row execute function private.plan_courses_same_school();

revoke all on public.plans, public.plan_courses from public, anon, authenticated;
grant select, insert, delete on public.plans, public.plan_courses to authenticated;
grant update (slug, name, description, cycle, price, billing_types, is_active) on public.plans to authenticated;
grant all on public.plans, public.plan_courses to service_role;
-- Staff write; members of the school read the active plans (the home's offer, the plan's checkout).
create policy plans_select on public.plans for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin())
         or (is_active and school_id = (select private.my_school_id()) and (select private.is_active())));
create policy plans_write on public.plans for all to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()))
  with check (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy plans_password_change on public.plans as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy plan_courses_select on public.plan_courses for select to authenticated
  using (plan_id in (select id from public.plans));
create policy plan_courses_write on public.plan_courses for all to authenticated
  using (plan_id in (select p.id from public.plans p where p.school_id in (select private.staff_school_ids()))
         or (select private.is_super_admin()))
  with check (plan_id in (select p.id from public.plans p where p.school_id in (select private.staff_school_ids()))
              or (select private.is_super_admin()));
create policy plan_courses_password_change on public.plan_courses as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── subscriptions ────────────────────────────────────────────────────────────────────────────
create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  plan_id uuid references public.plans (id) on delete set null,
  plan_name text not null constraint subscriptions_plan_name_length check (length(plan_name) between 1 and 120),
  user_id uuid not null references public.profiles (id) on delete cascade,
  provider text not null default 'asaas' constraint subscriptions_provider_check check (provider in ('asaas')),
  environment text not null constraint subscriptions_environment_check check (environment in ('sandbox', 'production')),
  integration_id uuid references public.integration_settings (id) on delete set null,
  provider_subscription_id text constraint subscriptions_provider_subscription_id_length check (length(provider_subscription_id) between 1 and 100),
  provider_customer_id text constraint subscriptions_provider_customer_id_length check (length(provider_customer_id) between 1 and 100),
  billing_type text not null constraint subscriptions_billing_type_check check (billing_type in ('PIX', 'BOLETO', 'CREDIT_CARD')),
  cycle text not null constraint subscriptions_cycle_check check (cycle in ('MONTHLY', 'YEARLY')),
  -- The plan's price when subscribed: every invoice must be this value.
  value numeric(10, 2) not null constraint subscriptions_value_check check (value >= 5),
  -- PENDING: first invoice unpaid; ACTIVE: paid (or within the grace days); OVERDUE: access paused for
  -- an unpaid invoice; CANCELLED: no more invoices, access until paid_until; EXPIRED: ended; FAILED: Asaas refused it.
  status text not null default 'PENDING'
    constraint subscriptions_status_check check (status in ('PENDING', 'ACTIVE', 'OVERDUE', 'CANCELLED', 'EXPIRED', 'FAILED')),
  paid_until timestamptz,
  cancelled_at timestamptz,
  cancelled_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint subscriptions_provider_subscription_key unique (provider, provider_subscription_id)
);
alter table public.subscriptions enable row level security;
-- One running subscription per buyer and plan.
create unique index subscriptions_one_running_key on public.subscriptions (user_id, plan_id)
  where status in ('PENDING', 'ACTIVE', 'OVERDUE');
create index subscriptions_school_id_idx on public.subscriptions (school_id, created_at desc);
create index subscriptions_plan_id_idx on public.subscriptions (plan_id);
create index subscriptions_integration_id_idx on public.subscriptions (integration_id);
create index subscriptions_cancelled_by_idx on public.subscriptions (cancelled_by);
create index subscriptions_status_paid_until_idx on public.subscriptions (status, paid_until);
create trigger subscriptions_touch before update on public.subscriptions
  for each row execute function private.touch_timestamps();

revoke all on public.subscriptions from public, anon, authenticated;
grant select on public.subscriptions to authenticated;
grant all on public.subscriptions to service_role;
create policy subscriptions_select on public.subscriptions for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy subscriptions_password_change on public.subscriptions as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- Invoices are payments of the subscription; enrollments granted by it say so.
alter table public.payments
  add column subscription_id uuid references public.subscriptions (id) on delete set null,
  add column due_date date;
create index payments_subscription_id_idx on public.payments (subscription_id, due_date desc);
alter table public.enrollments
  add column subscription_id uuid references public.subscriptions (id) on delete set null;
create index enrollments_subscription_id_idx on public.enrollments (subscription_id);

-- ── Access follows the subscription ───────────────────────────────────────────────────────────
-- The plan's courses for the subscriber: ACTIVE (granted by this subscription) or PAUSED. An
-- enrollment the student holds otherwise (bought, or given by staff) is left alone.
create function private.set_subscription_access(p_subscription public.subscriptions, p_active boolean) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if p_active then
    insert into public.enrollments (user_id, course_id, status, subscription_id)
    select p_subscription.user_id, pc.course_id, 'ACTIVE', p_subscription.id
      from public.plan_courses pc where pc.plan_id = p_subscription.plan_id
    on conflict (user_id, course_id) do update
      -- An expired enrollment taken over would stay closed by its old expires_at: cleared, as enroll_bought does.
      set status = 'ACTIVE', subscription_id = excluded.subscription_id,
          expires_at = case when public.enrollments.expires_at is not null and public.enrollments.expires_at <= now()
                            then null else public.enrollments.expires_at end
      where public.enrollments.subscription_id is not null or public.enrollments.status <> 'ACTIVE'
         or (public.enrollments.expires_at is not null and public.enrollments.expires_at <= now());
  else
    update public.enrollments set status = 'PAUSED'
     where subscription_id = p_subscription.id and status = 'ACTIVE';
  end if;
end $$;
revoke all on function private.set_subscription_access(public.subscriptions, boolean) from public, anon, authenticated;

-- A purchase of a course the plan also grants makes that enrollment the student's own (the plan
-- lapsing no longer pauses it): enroll_bought of 20261126001100_selling.sql, clearing subscription_id.
create or replace function private.enroll_bought(p_payment public.payments) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.enrollments (user_id, course_id, status)
  select p_payment.user_id, i.course_id, 'ACTIVE' from public.payment_items i
   where i.payment_id = p_payment.id and i.course_id is not null
  on conflict (user_id, course_id) do update
    set status = 'ACTIVE', subscription_id = null,
        expires_at = case when public.enrollments.expires_at is not null and public.enrollments.expires_at <= now()
                          then null else public.enrollments.expires_at end;
  return found;
end $$;

-- ── Creating a subscription (create-asaas-subscription, service role) ──────────────────────────
create function public.create_plan_subscription(
  p_user_id uuid, p_plan_id uuid, p_billing_type text, p_environment text, p_integration_id uuid
) returns public.subscriptions
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_plan public.plans;
  v_sub public.subscriptions;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_plan from public.plans p
   where p.id = p_plan_id and p.is_active
     and p.school_id = (select pr.school_id from public.profiles pr where pr.id = p_user_id)
   for update;
  if not found then
    raise exception 'Plano não encontrado.' using errcode = '22023';
  end if;
  if not exists (select 1 from public.plan_courses pc where pc.plan_id = v_plan.id) then
    raise exception 'Este plano ainda não tem cursos.' using errcode = '22023';
  end if;
  if not (p_billing_type = any (v_plan.billing_types)) then
    raise exception 'Forma de pagamento não aceita neste plano.' using errcode = '22023';
  end if;
  -- A PENDING one that never got to Asaas is replaced. One that did (its first invoice unpaid) lives on at
  -- Asaas: the buyer pays it or cancels it (cancel-asaas-subscription) before subscribing again.
  update public.subscriptions set status = 'FAILED'
   where user_id = p_user_id and plan_id = v_plan.id and status = 'PENDING' and provider_subscription_id is null;
  if exists (select 1 from public.subscriptions s
              where s.user_id = p_user_id and s.plan_id = v_plan.id and s.status in ('PENDING', 'ACTIVE', 'OVERDUE')) then
    raise exception 'Você já tem uma assinatura deste plano.' using errcode = '22023';
  end if;
  insert into public.subscriptions (school_id, plan_id, plan_name, user_id, environment, integration_id, billing_type, cycle, value)
  values (v_plan.school_id, v_plan.id, v_plan.name, p_user_id, p_environment, p_integration_id, p_billing_type, v_plan.cycle, v_plan.price)
  returning * into v_sub;
  return v_sub;
end $$;

-- ── Asaas's events for a subscription ────────────────────────────────────────────────────────
-- PAYMENT_* events carrying payment.subscription, and SUBSCRIPTION_* events. The invoice's payments
-- row is written on its first event; its value and customer are compared with the subscription's
-- (a mismatch changes nothing but the record of why). Deduplicated per school like apply_payment_event.
-- An event may arrive before create-asaas-subscription has written Asaas's subscription id (Asaas charges
-- a card as it creates the subscription, and sends the events at once): the subscription is then found by
-- p_external_reference (our id, which Asaas copies to every invoice), still PENDING, without Asaas's id,
-- and with the event's customer (written before the subscription was created at Asaas); it takes the id.
create function public.apply_subscription_event(
  p_school_id uuid, p_event_id text, p_event text, p_provider_subscription_id text,
  p_provider_payment_id text, p_value numeric, p_customer text, p_due_date date, p_billing_type text,
  p_invoice_url text, p_external_reference text default null
) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_sub public.subscriptions;
  v_payment public.payments;
  v_outcome text;
  v_detail text;
  v_period interval;
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
  select * into v_sub from public.subscriptions s
   where s.school_id = p_school_id and s.provider = 'asaas' and s.provider_subscription_id = p_provider_subscription_id
   for update;
  if v_sub.id is null and p_provider_subscription_id is not null and p_customer is not null
     and not exists (select 1 from public.subscriptions s where s.provider = 'asaas' and s.provider_subscription_id = p_provider_subscription_id) then
    update public.subscriptions s set provider_subscription_id = p_provider_subscription_id
     where s.id = private.uuid_or_null(p_external_reference) and s.school_id = p_school_id and s.provider = 'asaas'
       and s.status = 'PENDING' and s.provider_subscription_id is null and s.provider_customer_id = p_customer
    returning * into v_sub;
  end if;
  if v_sub.id is null then
    v_outcome := 'unknown_subscription';
  elsif p_customer is distinct from v_sub.provider_customer_id and v_sub.provider_customer_id is not null then
    v_outcome := 'mismatch';
    v_detail := left(format('Evento %s (%s) não confere com a assinatura: cliente %s, esperado %s',
                            left(p_event, 100), left(p_event_id, 200), coalesce(left(p_customer, 100), '(nenhum)'), v_sub.provider_customer_id), 1000);
  elsif p_event like 'SUBSCRIPTION_%' then
    if p_event in ('SUBSCRIPTION_DELETED', 'SUBSCRIPTION_INACTIVATED') and v_sub.status in ('PENDING', 'ACTIVE', 'OVERDUE') then
      update public.subscriptions set status = case when paid_until > now() then 'CANCELLED' else 'EXPIRED' end,
                                      cancelled_at = coalesce(cancelled_at, now())
       where id = v_sub.id returning * into v_sub;
      if v_sub.status = 'EXPIRED' then
        perform private.set_subscription_access(v_sub, false);
      end if;
      v_outcome := 'cancelled';
    else
      v_outcome := 'ignored';
    end if;
  elsif p_provider_payment_id is null then
    v_outcome := 'ignored';
  elsif p_value is distinct from v_sub.value then
    v_outcome := 'mismatch';
    v_detail := left(format('Evento %s (%s) não confere com a assinatura: valor %s, esperado %s',
                            left(p_event, 100), left(p_event_id, 200), coalesce(p_value::text, '(nenhum)'), v_sub.value), 1000);
  else
    insert into public.payments (school_id, user_id, course_id, course_title, provider, environment, integration_id,
                                 provider_payment_id, provider_customer_id, billing_type, value, invoice_url,
                                 subscription_id, due_date)
    values (v_sub.school_id, v_sub.user_id, null, v_sub.plan_name, 'asaas', v_sub.environment, v_sub.integration_id,
            p_provider_payment_id, p_customer, coalesce(p_billing_type, v_sub.billing_type), v_sub.value,
            case when p_invoice_url ~ '^https?://' then p_invoice_url end, v_sub.id, p_due_date)
    on conflict (provider, provider_payment_id) do nothing;
    select * into v_payment from public.payments p where p.provider = 'asaas' and p.provider_payment_id = p_provider_payment_id for update;
    if v_payment.subscription_id is distinct from v_sub.id then
      v_outcome := 'mismatch';
      v_detail := 'A cobrança não é desta assinatura.';
    else
      insert into public.payment_items (payment_id, school_id, kind, title, list_price, value)
      values (v_payment.id, v_payment.school_id, 'plan', v_sub.plan_name, v_sub.value, v_sub.value)
      on conflict (payment_id, kind) do nothing;
      v_period := case when v_sub.cycle = 'YEARLY' then interval '1 year' else interval '1 month' end;
      if p_event in ('PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED') then
        update public.payments
           set status = case when p_event = 'PAYMENT_RECEIVED' then 'RECEIVED' else 'CONFIRMED' end,
               paid_at = coalesce(paid_at, now())
         where id = v_payment.id;
        -- The invoice pays the period from its due date (São Paulo) to the next one.
        update public.subscriptions
           set paid_until = greatest(coalesce(paid_until, '-infinity'),
                                     (coalesce(p_due_date, current_date)::timestamp at time zone 'America/Sao_Paulo') + v_period),
               status = case when status in ('PENDING', 'OVERDUE') then 'ACTIVE' else status end
         where id = v_sub.id returning * into v_sub;
        if v_sub.status in ('ACTIVE', 'CANCELLED') then
          perform private.set_subscription_access(v_sub, true);
        end if;
        v_outcome := 'enrolled';
      elsif p_event in ('PAYMENT_REFUNDED', 'PAYMENT_CHARGEBACK_REQUESTED') then
        update public.payments set status = case when p_event = 'PAYMENT_REFUNDED' then 'REFUNDED' else 'CHARGEBACK' end
         where id = v_payment.id;
        -- A refunded invoice paid nothing: access pauses now.
        update public.subscriptions set status = case when status = 'ACTIVE' then 'OVERDUE' else status end, paid_until = now()
         where id = v_sub.id returning * into v_sub;
        perform private.set_subscription_access(v_sub, false);
        v_outcome := 'paused';
      elsif p_event in ('PAYMENT_OVERDUE', 'PAYMENT_DELETED') then
        -- An unpaid invoice goes overdue; a pending or overdue one can be removed (a cancelled subscription's).
        update public.payments set status = case when p_event = 'PAYMENT_OVERDUE' then 'OVERDUE' else 'DELETED' end
         where id = v_payment.id and (status = 'PENDING' or (status = 'OVERDUE' and p_event = 'PAYMENT_DELETED'));
        v_outcome := 'ignored';
      else
        v_outcome := 'recorded';
      end if;
    end if;
  end if;
  if v_detail is not null and v_payment.id is not null then
    update public.payments set mismatch_reason = v_detail, mismatch_at = now() where id = v_payment.id;
  end if;
  update private.payment_events set payment_id = v_payment.id, outcome = v_outcome, detail = v_detail
   where school_id = p_school_id and provider = 'asaas' and event_id = p_event_id;
  return v_outcome;
end $$;

-- asaas-webhook without ?school: the school owning the payment, or (a subscription's invoice or a
-- SUBSCRIPTION_* event, whose externalReference is our subscription's id) the subscription.
create or replace function public.payment_school_id(p_provider text, p_provider_payment_id text, p_external_reference text)
returns uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return coalesce(
    (select p.school_id from public.payments p
      where p.provider = p_provider
        and (p.id = private.uuid_or_null(p_external_reference)
             or (p_provider_payment_id is not null and p.provider_payment_id = p_provider_payment_id))
      limit 1),
    (select s.school_id from public.subscriptions s
      where s.provider = p_provider and s.id = private.uuid_or_null(p_external_reference)));
end $$;

-- ── The daily check ─────────────────────────────────────────────────────────────────────────
-- ACTIVE past paid_until + the school's grace days → OVERDUE, access paused; CANCELLED past
-- paid_until → EXPIRED, access paused. p_now is the clock (tests pass their own). Returns how many changed.
create function public.check_subscription_access(p_now timestamptz default now()) returns integer
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_sub public.subscriptions;
  v_count integer := 0;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  for v_sub in
    update public.subscriptions s
       set status = case when s.status = 'ACTIVE' then 'OVERDUE' else 'EXPIRED' end
      from public.schools sc
     where sc.id = s.school_id
       and ((s.status = 'ACTIVE' and s.paid_until + sc.subscription_grace_days * interval '1 day' < p_now)
            or (s.status = 'CANCELLED' and s.paid_until < p_now))
    returning s.*
  loop
    perform private.set_subscription_access(v_sub, false);
    v_count := v_count + 1;
  end loop;
  return v_count;
end $$;

-- cancel-asaas-subscription (service role), once Asaas removed it: no more invoices; access until
-- the end of the paid period.
create function public.cancel_plan_subscription(p_subscription_id uuid, p_by uuid) returns public.subscriptions
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_sub public.subscriptions;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update public.subscriptions
     set status = case when paid_until > now() then 'CANCELLED' else 'EXPIRED' end,
         cancelled_at = now(), cancelled_by = p_by
   where id = p_subscription_id and status in ('PENDING', 'ACTIVE', 'OVERDUE')
  returning * into v_sub;
  if not found then
    raise exception 'Esta assinatura já foi cancelada.' using errcode = '22023';
  end if;
  if v_sub.status = 'EXPIRED' then
    perform private.set_subscription_access(v_sub, false);
  end if;
  return v_sub;
end $$;

-- Staff: the plans with their numbers (Planos).
create function public.admin_plans(p_school_id uuid default null)
returns table (id uuid, slug text, name text, description text, cycle text, price numeric, billing_types text[],
               is_active boolean, course_ids uuid[], subscribers bigint, overdue bigint, created_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select p.id, p.slug, p.name, p.description, p.cycle, p.price, p.billing_types, p.is_active,
         coalesce((select array_agg(pc.course_id order by pc.course_id) from public.plan_courses pc where pc.plan_id = p.id), '{}'),
         (select count(*) from public.subscriptions s where s.plan_id = p.id and s.status in ('ACTIVE', 'CANCELLED')),
         (select count(*) from public.subscriptions s where s.plan_id = p.id and s.status = 'OVERDUE'),
         p.created_at
    from public.plans p where p.school_id = v_school
   order by p.created_at desc, p.id;
end $$;

revoke all on function public.create_plan_subscription(uuid, uuid, text, text, uuid),
  public.apply_subscription_event(uuid, text, text, text, text, numeric, text, date, text, text, text),
  public.check_subscription_access(timestamptz), public.cancel_plan_subscription(uuid, uuid),
  public.admin_plans(uuid) from public, anon, authenticated;
grant execute on function public.create_plan_subscription(uuid, uuid, text, text, uuid),
  public.apply_subscription_event(uuid, text, text, text, text, numeric, text, date, text, text, text),
  public.check_subscription_access(timestamptz), public.cancel_plan_subscription(uuid, uuid) to service_role;
grant execute on function public.admin_plans(uuid) to authenticated, service_role;

-- Every day at 03:00 in Brasília (06:00 UTC).
select cron.schedule('check-subscription-access', '0 6 * * *', 'select public.check_subscription_access()');
