-- Issue 37, hole 4: an Asaas event is matched only with payments of its own school. Academia Rival, with its
-- own webhook token and an event of its own subscription naming an escola-demo charge id, wrote a
-- mismatch_reason on escola-demo's payment: apply_subscription_event (20261126001200_subscriptions.sql)
-- looked the invoice's charge id up across schools. Now:
-- - apply_subscription_event reads the invoice's payment within p_school_id; a charge id of another school
--   is 'mismatch' with nothing written on any payment (the event keeps why, in private.payment_events).
-- - payment_school_id (asaas-webhook without ?school) answers a school only when everything the event
--   names belongs to that one school; an event naming payments or subscriptions of two schools gets none
--   (401), where before the first row found decided.
-- apply_payment_event already looks its payment up within p_school_id (20261126001100_selling.sql).

-- apply_subscription_event as in 20261126001200_subscriptions.sql, the invoice's payment read within the school.
create or replace function public.apply_subscription_event(
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
    -- The charge of this school only: another school's charge with this id is not found (and not written).
    select * into v_payment from public.payments p
     where p.school_id = p_school_id and p.provider = 'asaas' and p.provider_payment_id = p_provider_payment_id
       for update;
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

-- asaas-webhook without ?school: the one school owning what the event names (our payment by
-- externalReference or Asaas's charge id, or our subscription by externalReference); null when none, or
-- when they belong to different schools.
create or replace function public.payment_school_id(p_provider text, p_provider_payment_id text, p_external_reference text)
returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  v_schools uuid[];
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select array_agg(distinct s.school_id) into v_schools
    from (select p.school_id from public.payments p
           where p.provider = p_provider
             and (p.id = private.uuid_or_null(p_external_reference)
                  or (p_provider_payment_id is not null and p.provider_payment_id = p_provider_payment_id))
          union all
          select su.school_id from public.subscriptions su
           where su.provider = p_provider and su.id = private.uuid_or_null(p_external_reference)) s;
  return case when cardinality(v_schools) = 1 then v_schools[1] end;
end $$;
