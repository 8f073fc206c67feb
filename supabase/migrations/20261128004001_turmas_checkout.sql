-- Issue 40: the checkout sells a course with turmas in its open turma (docs/turmas.md).
-- - checkout_quote also says which turma the purchase would join ('turmas': null for a course without
--   turmas; else its state: 'open' with the turma, 'sold_out' with whether a waiting list is allowed,
--   or 'closed' when no turma takes enrollments now). An order bump whose course has turmas is offered
--   only while one of them has a seat.
-- - create_checkout_payment takes the seat: under the row lock of the turma (private.selling_turma,
--   p_lock), it counts the turma's students and the charges still holding a seat, refuses a full
--   turma with "Turma esgotada." (PT409, as the price change: create-asaas-charge answers 409), and
--   records the turma on the payment's item, which holds the seat until the charge is paid, replaced
--   or past its due date (private.turma_seats_taken). Two buyers of the last seat: the second waits
--   on the lock, then counts the first one's charge, and is refused.
-- - enroll_bought enrolls into the item's turma; a paid purchase is never refused (its seat was held).
set local lock_timeout = '5s';

create function private.turma_offer(p_course_id uuid, p_user_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_sale record;
begin
  select * into v_sale from private.selling_turma(p_course_id, p_user_id, false);
  if not v_sale.has_turmas then
    return null;
  end if;
  return jsonb_build_object(
    'state', case when (v_sale.turma).id is not null then 'open' when v_sale.sold_out then 'sold_out' else 'closed' end,
    'turma', case when (v_sale.turma).id is not null then jsonb_build_object(
               'id', (v_sale.turma).id, 'name', (v_sale.turma).name, 'starts_on', (v_sale.turma).starts_on,
               'ends_on', (v_sale.turma).ends_on,
               'seats_left', (v_sale.turma).seats - private.turma_seats_taken((v_sale.turma).id, p_user_id)) end,
    'waitlist_enabled', v_sale.sold_out and v_sale.waitlist_enabled);
end $$;
revoke all on function private.turma_offer(uuid, uuid) from public, anon, authenticated;

-- 20261128000210's quote, with the turma.
create or replace function public.checkout_quote(p_course_id uuid, p_coupon_code text default null, p_with_bump boolean default false)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_quote jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'Entre na sua conta para comprar.' using errcode = '42501';
  end if;
  v_quote := private.guarded_checkout_price(auth.uid(), p_course_id, p_coupon_code, coalesce(p_with_bump, false), private.request_ip())
             - 'coupon_id' - 'coupon_unknown';
  if v_quote -> 'bump' <> 'null'::jsonb
     and coalesce(private.turma_offer((v_quote #>> '{bump,course_id}')::uuid, auth.uid()) ->> 'state', 'open') <> 'open' then
    if coalesce(p_with_bump, false) then
      raise exception 'Esta oferta não está disponível.' using errcode = '22023';
    end if;
    v_quote := jsonb_set(v_quote, '{bump}', 'null'::jsonb);
  end if;
  return v_quote || jsonb_build_object('turmas', private.turma_offer(p_course_id, auth.uid()));
end $$;

-- 20261128001000's charge, with the turma's seat taken under its lock.
create or replace function public.create_checkout_payment(p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean,
                                                          p_billing_type text, p_installment_count integer, p_environment text,
                                                          p_integration_id uuid, p_expected_total numeric default null)
returns public.payments
language plpgsql security definer set search_path = '' as $$
declare
  v_quote jsonb;
  v_payment public.payments;
  v_course_discount numeric(10, 2);
  v_sale record;
  v_bump_sale record;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  v_quote := private.checkout_price(p_user_id, p_course_id, p_coupon_code, coalesce(p_with_bump, false), true);
  if v_quote ->> 'coupon_error' is not null then
    raise exception '%', v_quote ->> 'coupon_error' using errcode = '22023';
  end if;
  v_course_discount := (v_quote ->> 'discount')::numeric;
  -- The page showed a total; if it changed since, say so instead of charging another value.
  if p_expected_total is not null and p_expected_total <> (v_quote ->> 'total')::numeric then
    raise exception 'O preço do curso mudou. Recarregue a página para ver o valor atual.' using errcode = 'PT409';
  end if;
  -- The turma's seat, under its lock until this transaction ends (and then held by the charge).
  select * into v_sale from private.selling_turma(p_course_id, p_user_id, true);
  if v_sale.has_turmas and (v_sale.turma).id is null then
    if v_sale.sold_out then
      raise exception 'Turma esgotada.' using errcode = 'PT409';
    end if;
    raise exception 'Nenhuma turma deste curso está com inscrições abertas.' using errcode = 'PT409';
  end if;
  if coalesce(p_with_bump, false) then
    select * into v_bump_sale from private.selling_turma((v_quote #>> '{bump,course_id}')::uuid, p_user_id, true);
    if v_bump_sale.has_turmas and (v_bump_sale.turma).id is null then
      raise exception 'Esta oferta não está disponível.' using errcode = '22023';
    end if;
  end if;

  insert into public.payments (school_id, user_id, course_id, course_title, provider, environment, integration_id,
                               billing_type, value, installment_count, coupon_id, coupon_code, discount, due_date)
  select c.school_id, p_user_id, c.id,
         left(c.title || case when coalesce(p_with_bump, false) then ' + ' || (v_quote #>> '{bump,title}') else '' end, 300),
         'asaas', p_environment, p_integration_id, p_billing_type, (v_quote ->> 'total')::numeric,
         coalesce(p_installment_count, 1), private.uuid_or_null(v_quote ->> 'coupon_id'), v_quote #>> '{coupon,code}',
         v_course_discount,
         (now() at time zone 'America/Sao_Paulo')::date + case when p_billing_type = 'BOLETO' then 3 else 1 end
    from public.courses c where c.id = p_course_id
  returning * into v_payment;

  insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, discount, value, turma_id)
  values (v_payment.id, v_payment.school_id, 'course', p_course_id, v_quote #>> '{course,title}',
          (v_quote #>> '{course,price}')::numeric, v_course_discount, (v_quote #>> '{course,price}')::numeric - v_course_discount,
          (v_sale.turma).id);
  if coalesce(p_with_bump, false) then
    insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, value, turma_id)
    values (v_payment.id, v_payment.school_id, 'bump', (v_quote #>> '{bump,course_id}')::uuid, v_quote #>> '{bump,title}',
            (v_quote #>> '{bump,price}')::numeric, (v_quote #>> '{bump,price}')::numeric, (v_bump_sale.turma).id);
  end if;
  if v_payment.coupon_id is not null then
    insert into public.coupon_uses (coupon_id, payment_id, user_id, school_id, discount)
    values (v_payment.coupon_id, v_payment.id, p_user_id, v_payment.school_id, v_course_discount);
    with replaced as (
      update public.payments p set replaced_by = v_payment.id
       where p.user_id = p_user_id and p.coupon_id = v_payment.coupon_id
         and p.id <> v_payment.id and p.status = 'PENDING' and p.replaced_by is null
      returning p.id
    )
    update public.coupon_uses u set status = 'released'
      from replaced r where u.payment_id = r.id and u.status = 'reserved';
  end if;
  return v_payment;
end $$;

-- 20261126001200's enrollment of a paid purchase, into the turma each item was sold in. A buyer
-- already in a turma of the course keeps it when the item has none.
create or replace function private.enroll_bought(p_payment public.payments) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.enrollments (user_id, course_id, status, turma_id)
  select p_payment.user_id, i.course_id, 'ACTIVE', i.turma_id from public.payment_items i
   where i.payment_id = p_payment.id and i.course_id is not null
  on conflict (user_id, course_id) do update
    set status = 'ACTIVE', subscription_id = null,
        turma_id = coalesce(excluded.turma_id, public.enrollments.turma_id),
        expires_at = case when public.enrollments.expires_at is not null and public.enrollments.expires_at <= now()
                          then null else public.enrollments.expires_at end;
  return found;
end $$;
