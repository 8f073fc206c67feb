-- Issue 40 (turmas): coupons and plans limited to a turma (docs/turmas.md, "Coupons and plans").
-- - coupons.turma_id: the coupon applies only to a sale in that turma (the one the checkout sells now,
--   private.selling_turma). checkout_quote answers "Este cupom não vale para esta turma." (the price
--   without it) and create_checkout_payment refuses it (22023) after taking the turma under its lock,
--   so a coupon limited to "Turma de março" never discounts a seat of the next turma. The turma is of
--   the coupon's school (trigger), so staff cannot tie a coupon to another school's turma.
-- - plans.turma_id: a subscriber of the plan is enrolled, in that turma's course (when the plan grants
--   that course), into that turma; the plan's other courses as before. The turma is of the plan's
--   school (trigger). Like the school's webhook, a subscription's enrollment is not refused by a full
--   turma: the school chose to sell the plan into it.
-- A turma with coupons or plans cannot be deleted (restrict): a limited coupon never becomes unlimited.
set local lock_timeout = '5s';

alter table public.coupons add column turma_id uuid references public.turmas (id) on delete restrict;
comment on column public.coupons.turma_id is 'The coupon applies only to a sale in this turma (issue 40); null: any.';
create index coupons_turma_id_idx on public.coupons (turma_id) where turma_id is not null;
grant update (turma_id) on public.coupons to authenticated;

alter table public.plans add column turma_id uuid references public.turmas (id) on delete restrict;
comment on column public.plans.turma_id is 'Subscribers are enrolled into this turma in its course (issue 40); null: no turma.';
create index plans_turma_id_idx on public.plans (turma_id) where turma_id is not null;
grant update (turma_id) on public.plans to authenticated;

-- A coupon's or a plan's turma is of its school.
create function private.turma_of_school_check() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.turma_id is null then
    return new;
  end if;
  if not exists (select 1 from public.turmas t where t.id = new.turma_id and t.school_id = new.school_id) then
    raise exception 'A turma não é desta escola.' using errcode = '23514';
  end if;
  return new;
end $$;
revoke all on function private.turma_of_school_check() from public, anon, authenticated;
create trigger coupons_turma_check before insert or update of turma_id, school_id on public.coupons
  for each row execute function private.turma_of_school_check();
create trigger plans_turma_check before insert or update of turma_id, school_id on public.plans
  for each row execute function private.turma_of_school_check();

-- The quote without a coupon that is limited to another turma than the one on sale.
create function private.without_other_turma_coupon(p_quote jsonb, p_turma_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select case when exists (select 1 from public.coupons cp
                            where cp.id = private.uuid_or_null(p_quote ->> 'coupon_id')
                              and cp.turma_id is not null and cp.turma_id is distinct from p_turma_id)
    then p_quote || jsonb_build_object('coupon', null, 'coupon_id', null, 'discount', 0, 'total', p_quote -> 'subtotal',
                                       'coupon_error', 'Este cupom não vale para esta turma.')
    else p_quote end
$$;
revoke all on function private.without_other_turma_coupon(jsonb, uuid) from public, anon, authenticated;

-- 20261128004001's quote, the coupon checked against the turma on sale.
create or replace function public.checkout_quote(p_course_id uuid, p_coupon_code text default null, p_with_bump boolean default false)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_quote jsonb;
  v_sale record;
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'Entre na sua conta para comprar.' using errcode = '42501';
  end if;
  v_quote := private.guarded_checkout_price(auth.uid(), p_course_id, p_coupon_code, coalesce(p_with_bump, false), private.request_ip());
  select * into v_sale from private.selling_turma(p_course_id, auth.uid(), false);
  v_quote := private.without_other_turma_coupon(v_quote, (v_sale.turma).id) - 'coupon_id' - 'coupon_unknown';
  if v_quote -> 'bump' <> 'null'::jsonb
     and coalesce(private.turma_offer((v_quote #>> '{bump,course_id}')::uuid, auth.uid()) ->> 'state', 'open') <> 'open' then
    if coalesce(p_with_bump, false) then
      raise exception 'Esta oferta não está disponível.' using errcode = '22023';
    end if;
    v_quote := jsonb_set(v_quote, '{bump}', 'null'::jsonb);
  end if;
  return v_quote || jsonb_build_object('turmas', private.turma_offer(p_course_id, auth.uid()));
end $$;

-- 20261128004001's charge: a coupon limited to another turma than the one whose seat is taken is refused.
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
  -- The turma's seat, under its lock until this transaction ends (and then held by the charge).
  select * into v_sale from private.selling_turma(p_course_id, p_user_id, true);
  if v_sale.has_turmas and (v_sale.turma).id is null then
    if v_sale.sold_out then
      raise exception 'Turma esgotada.' using errcode = 'PT409';
    end if;
    raise exception 'Nenhuma turma deste curso está com inscrições abertas.' using errcode = 'PT409';
  end if;
  v_quote := private.without_other_turma_coupon(v_quote, (v_sale.turma).id);
  if v_quote ->> 'coupon_error' is not null then
    raise exception '%', v_quote ->> 'coupon_error' using errcode = '22023';
  end if;
  v_course_discount := (v_quote ->> 'discount')::numeric;
  -- The page showed a total; if it changed since, say so instead of charging another value.
  if p_expected_total is not null and p_expected_total <> (v_quote ->> 'total')::numeric then
    raise exception 'O preço do curso mudou. Recarregue a página para ver o valor atual.' using errcode = 'PT409';
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

-- 20261126001200's access of a subscription: the plan's turma, in its course.
create or replace function private.set_subscription_access(p_subscription public.subscriptions, p_active boolean) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if p_active then
    insert into public.enrollments (user_id, course_id, status, subscription_id, turma_id)
    select p_subscription.user_id, pc.course_id, 'ACTIVE', p_subscription.id, t.id
      from public.plan_courses pc
      join public.plans pl on pl.id = pc.plan_id
      left join public.turmas t on t.id = pl.turma_id and t.course_id = pc.course_id
     where pc.plan_id = p_subscription.plan_id
    on conflict (user_id, course_id) do update
      -- An expired enrollment taken over would stay closed by its old expires_at: cleared, as enroll_bought does.
      set status = 'ACTIVE', subscription_id = excluded.subscription_id,
          turma_id = coalesce(excluded.turma_id, public.enrollments.turma_id),
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
