-- Issue 24, selling more: coupons, an order bump paid in the same charge, the sales screen and
-- refunds. docs/selling.md has the design. Every price, discount and total is computed here, in
-- numeric; create-asaas-charge charges the value of the payment row create_checkout_payment writes.
set local lock_timeout = '5s';

-- ── coupons ─────────────────────────────────────────────────────────────────────────────────
create table public.coupons (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  -- As staff typed it; unique per school ignoring case (coupons_school_code_key), matched ignoring case.
  code text not null constraint coupons_code_format check (code ~ '^[A-Za-z0-9_-]{3,40}$'),
  kind text not null constraint coupons_kind_check check (kind in ('percent', 'fixed')),
  -- percent: 0.01 to 100; fixed: reais off.
  amount numeric(10, 2) not null constraint coupons_amount_check check (amount > 0),
  valid_from timestamptz,
  valid_until timestamptz,
  -- null: unlimited.
  max_uses integer constraint coupons_max_uses_check check (max_uses >= 1),
  max_uses_per_buyer integer constraint coupons_max_uses_per_buyer_check check (max_uses_per_buyer >= 1),
  -- false: only the courses in coupon_courses.
  all_courses boolean not null default true,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint coupons_percent_range check (kind <> 'percent' or amount <= 100),
  constraint coupons_validity_order check (valid_from is null or valid_until is null or valid_until > valid_from)
);
alter table public.coupons enable row level security;
create unique index coupons_school_code_key on public.coupons (school_id, upper(code));
create trigger coupons_touch before update on public.coupons
  for each row execute function private.touch_timestamps();

create table public.coupon_courses (
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  primary key (coupon_id, course_id)
);
alter table public.coupon_courses enable row level security;
create index coupon_courses_course_id_idx on public.coupon_courses (course_id);

-- A coupon names only courses of its own school.
create function private.coupon_courses_same_school() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.coupons cp join public.courses c on c.school_id = cp.school_id
                  where cp.id = new.coupon_id and c.id = new.course_id) then
    raise exception 'O curso não é desta escola.' using errcode = '23514';
  end if;
  return new;
end $$;
revoke all on function private.coupon_courses_same_school() from public, anon, authenticated;
create trigger coupon_courses_same_school before insert or update on public.coupon_courses
  for each row execute function private.coupon_courses_same_school();

revoke all on public.coupons, public.coupon_courses from public, anon, authenticated;
grant select, insert, delete on public.coupons to authenticated;
grant update (code, kind, amount, valid_from, valid_until, max_uses, max_uses_per_buyer, all_courses, is_active)
  on public.coupons to authenticated;
grant select, insert, delete on public.coupon_courses to authenticated;
grant all on public.coupons, public.coupon_courses to service_role;

create policy coupons_staff on public.coupons for all to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()))
  with check (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy coupons_password_change on public.coupons as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create policy coupon_courses_staff on public.coupon_courses for all to authenticated
  using (coupon_id in (select id from public.coupons))
  with check (coupon_id in (select id from public.coupons));
create policy coupon_courses_password_change on public.coupon_courses as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── course_bumps: "Leve também" on a course's checkout ───────────────────────────────────────
create table public.course_bumps (
  course_id uuid primary key references public.courses (id) on delete cascade,
  bump_course_id uuid not null references public.courses (id) on delete cascade,
  price numeric(10, 2) not null constraint course_bumps_price_check check (price >= 5),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint course_bumps_other_course check (bump_course_id <> course_id)
);
alter table public.course_bumps enable row level security;
create index course_bumps_bump_course_id_idx on public.course_bumps (bump_course_id);
create trigger course_bumps_touch before update on public.course_bumps
  for each row execute function private.touch_timestamps();

create function private.course_bumps_same_school() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if (select count(distinct c.school_id) from public.courses c where c.id in (new.course_id, new.bump_course_id)) <> 1 then
    raise exception 'O curso oferecido precisa ser da mesma escola.' using errcode = '23514';
  end if;
  return new;
end $$;
revoke all on function private.course_bumps_same_school() from public, anon, authenticated;
create trigger course_bumps_same_school before insert or update on public.course_bumps
  for each row execute function private.course_bumps_same_school();

revoke all on public.course_bumps from public, anon, authenticated;
grant select, insert, delete on public.course_bumps to authenticated;
grant update (bump_course_id, price) on public.course_bumps to authenticated;
grant all on public.course_bumps to service_role;
create policy course_bumps_staff on public.course_bumps for all to authenticated
  using (course_id in (select private.staff_course_ids()) or (select private.is_super_admin()))
  with check (course_id in (select private.staff_course_ids()) or (select private.is_super_admin()));
create policy course_bumps_password_change on public.course_bumps as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── payments: the coupon, the discount, the refund ───────────────────────────────────────────
alter table public.payments
  add column coupon_id uuid references public.coupons (id) on delete set null,
  -- Kept beside the id: the record says which code, whatever happens to the coupon.
  add column coupon_code text constraint payments_coupon_code_length check (length(coupon_code) between 1 and 40),
  add column discount numeric(10, 2) not null default 0 constraint payments_discount_check check (discount >= 0),
  add column refund_requested_at timestamptz,
  add column refund_reason text constraint payments_refund_reason_length check (length(refund_reason) <= 500),
  add column refunded_at timestamptz;
create index payments_coupon_id_idx on public.payments (coupon_id);

-- ── payment_items: what one payment bought ─────────────────────────────────────────────────
create table public.payment_items (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references public.payments (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  -- course: the course on sale; bump: its "Leve também"; plan: a subscription's invoice (no course).
  kind text not null constraint payment_items_kind_check check (kind in ('course', 'bump', 'plan')),
  -- A deleted course keeps its sales; the title stays beside it.
  course_id uuid references public.courses (id) on delete set null,
  title text not null constraint payment_items_title_length check (length(title) between 1 and 300),
  list_price numeric(10, 2) not null constraint payment_items_list_price_check check (list_price > 0),
  discount numeric(10, 2) not null default 0 constraint payment_items_discount_check check (discount >= 0),
  value numeric(10, 2) not null constraint payment_items_value_check check (value > 0),
  constraint payment_items_value_is_price_less_discount check (value = list_price - discount),
  constraint payment_items_payment_kind_key unique (payment_id, kind)
);
alter table public.payment_items enable row level security;
create index payment_items_course_id_idx on public.payment_items (course_id);
create index payment_items_school_id_idx on public.payment_items (school_id);

revoke all on public.payment_items from public, anon, authenticated;
grant select on public.payment_items to authenticated;
grant all on public.payment_items to service_role;
create policy payment_items_select on public.payment_items for select to authenticated
  using (payment_id in (select id from public.payments));
create policy payment_items_password_change on public.payment_items as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- Every payment so far bought one course at its value.
insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, value)
select p.id, p.school_id, 'course', p.course_id, p.course_title, p.value, p.value from public.payments p;

-- ── coupon_uses: reserved while the payment is pending, then used or given back ─────────────
create table public.coupon_uses (
  id uuid primary key default gen_random_uuid(),
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  payment_id uuid not null constraint coupon_uses_payment_id_key unique references public.payments (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  status text not null default 'reserved' constraint coupon_uses_status_check check (status in ('reserved', 'used', 'released')),
  discount numeric(10, 2) not null constraint coupon_uses_discount_check check (discount > 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.coupon_uses enable row level security;
create index coupon_uses_coupon_id_idx on public.coupon_uses (coupon_id, status);
create index coupon_uses_user_id_idx on public.coupon_uses (user_id, coupon_id);
create index coupon_uses_school_id_idx on public.coupon_uses (school_id);
create trigger coupon_uses_touch before update on public.coupon_uses
  for each row execute function private.touch_timestamps();

revoke all on public.coupon_uses from public, anon, authenticated;
grant select on public.coupon_uses to authenticated;
grant all on public.coupon_uses to service_role;
create policy coupon_uses_select on public.coupon_uses for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy coupon_uses_password_change on public.coupon_uses as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- The payment's fate decides the use: confirmed → used; failed, overdue, deleted, refunded or charged
-- back → released (the use is given back to the coupon).
create function private.payments_coupon_use() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status in ('CONFIRMED', 'RECEIVED') then
    update public.coupon_uses set status = 'used' where payment_id = new.id and status = 'reserved';
  elsif new.status in ('FAILED', 'OVERDUE', 'DELETED', 'REFUNDED', 'CHARGEBACK') then
    update public.coupon_uses set status = 'released' where payment_id = new.id and status <> 'released';
  end if;
  if new.status in ('REFUNDED', 'CHARGEBACK') and new.refunded_at is null then
    update public.payments set refunded_at = now() where id = new.id;
  end if;
  return null;
end $$;
revoke all on function private.payments_coupon_use() from public, anon, authenticated;
create trigger payments_coupon_use after update of status on public.payments
  for each row when (new.status is distinct from old.status) execute function private.payments_coupon_use();

-- ── The price of a checkout ─────────────────────────────────────────────────────────────────
-- What p_user_id pays for p_course_id with this coupon code and the bump or not. Returns the quote
-- (docs/selling.md, CheckoutQuote) with the coupon's id under 'coupon_id' for the caller inside the
-- database; a coupon that does not apply is reported in 'coupon_error' and left out of the total.
-- p_lock takes the coupon's row lock first (create_checkout_payment), so its use counts are final.
create function private.checkout_price(p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_lock boolean)
returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_course public.courses;
  v_bump record;
  v_coupon public.coupons;
  v_error text;
  v_discount numeric(10, 2) := 0;
  v_subtotal numeric(10, 2);
  v_code text := nullif(btrim(coalesce(p_coupon_code, '')), '');
  v_taken integer;
begin
  select * into v_course from public.courses c
   where c.id = p_course_id and c.status = 'PUBLISHED'
     and c.school_id = (select p.school_id from public.profiles p where p.id = p_user_id);
  if not found then
    raise exception 'Curso não encontrado.' using errcode = '42501';
  end if;
  if v_course.price < 5 then
    raise exception 'Este curso não está à venda.' using errcode = '22023';
  end if;

  -- The bump, when it is useful: a published course of the school the buyer does not have.
  select b.bump_course_id as course_id, c.title, c.description, c.thumbnail_url, c.price as list_price, b.price
    into v_bump
    from public.course_bumps b join public.courses c on c.id = b.bump_course_id
   where b.course_id = v_course.id and c.status = 'PUBLISHED'
     and not exists (select 1 from public.enrollments e
                      where e.user_id = p_user_id and e.course_id = c.id and e.status = 'ACTIVE'
                        and (e.expires_at is null or e.expires_at > now()));
  if p_with_bump and v_bump.course_id is null then
    raise exception 'Esta oferta não está disponível.' using errcode = '22023';
  end if;
  v_subtotal := v_course.price + case when p_with_bump then v_bump.price else 0 end;

  if v_code is not null then
    if p_lock then
      select * into v_coupon from public.coupons cp
       where cp.school_id = v_course.school_id and upper(cp.code) = upper(v_code) for update;
    else
      select * into v_coupon from public.coupons cp
       where cp.school_id = v_course.school_id and upper(cp.code) = upper(v_code);
    end if;
    if v_coupon.id is null then
      v_error := 'Cupom não encontrado.';
    elsif not v_coupon.is_active then
      v_error := 'Este cupom não está ativo.';
    elsif v_coupon.valid_from is not null and v_coupon.valid_from > now() then
      v_error := 'Este cupom ainda não está valendo.';
    elsif v_coupon.valid_until is not null and v_coupon.valid_until <= now() then
      v_error := 'Este cupom expirou.';
    elsif not v_coupon.all_courses
          and not exists (select 1 from public.coupon_courses cc where cc.coupon_id = v_coupon.id and cc.course_id = v_course.id) then
      v_error := 'Este cupom não vale para este curso.';
    else
      select count(*) into v_taken from public.coupon_uses u where u.coupon_id = v_coupon.id and u.status <> 'released';
      if v_coupon.max_uses is not null and v_taken >= v_coupon.max_uses then
        v_error := 'Este cupom esgotou.';
      elsif v_coupon.max_uses_per_buyer is not null
            and (select count(*) from public.coupon_uses u
                  where u.coupon_id = v_coupon.id and u.user_id = p_user_id and u.status <> 'released') >= v_coupon.max_uses_per_buyer then
        v_error := 'Você já usou este cupom o máximo de vezes permitido.';
      else
        -- The course on sale, not the bump.
        v_discount := case when v_coupon.kind = 'percent' then round(v_course.price * v_coupon.amount / 100, 2)
                           else least(v_coupon.amount, v_course.price) end;
        if v_discount <= 0 then
          -- A percentage too small for this price (0,01% of R$ 10,00 rounds to nothing).
          v_error := 'Este cupom não dá desconto neste curso.';
        elsif v_subtotal - v_discount < 5 then
          v_error := 'Com este cupom o valor fica abaixo do mínimo de R$ 5,00.';
          v_discount := 0;
        end if;
      end if;
    end if;
  end if;

  return jsonb_build_object(
    'course', jsonb_build_object('id', v_course.id, 'title', v_course.title, 'price', v_course.price),
    'bump', case when v_bump.course_id is null then null else jsonb_build_object(
              'course_id', v_bump.course_id, 'title', v_bump.title, 'description', v_bump.description,
              'thumbnail_url', v_bump.thumbnail_url, 'list_price', v_bump.list_price, 'price', v_bump.price) end,
    'with_bump', coalesce(p_with_bump, false),
    'coupon', case when v_discount > 0 then jsonb_build_object(
                'code', v_coupon.code, 'kind', v_coupon.kind, 'amount', v_coupon.amount, 'discount', v_discount) end,
    'coupon_id', case when v_discount > 0 then v_coupon.id end,
    'coupon_error', v_error,
    'subtotal', v_subtotal, 'discount', v_discount, 'total', v_subtotal - v_discount);
end $$;
revoke all on function private.checkout_price(uuid, uuid, text, boolean, boolean) from public, anon, authenticated;

-- The checkout page's quote, for the signed-in student.
create function public.checkout_quote(p_course_id uuid, p_coupon_code text default null, p_with_bump boolean default false)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'Entre na sua conta para comprar.' using errcode = '42501';
  end if;
  return private.checkout_price(auth.uid(), p_course_id, p_coupon_code, coalesce(p_with_bump, false), false) - 'coupon_id';
end $$;

-- create-asaas-charge (service role): the payment row, its items and the coupon's reserved use, priced
-- here under the coupon's lock. A coupon that does not apply refuses the checkout (the buyer saw it apply).
create function public.create_checkout_payment(
  p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_billing_type text,
  p_installment_count integer, p_environment text, p_integration_id uuid, p_expected_total numeric default null
) returns public.payments
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_quote jsonb;
  v_payment public.payments;
  v_course_discount numeric(10, 2);
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

  insert into public.payments (school_id, user_id, course_id, course_title, provider, environment, integration_id,
                               billing_type, value, installment_count, coupon_id, coupon_code, discount)
  select c.school_id, p_user_id, c.id,
         left(c.title || case when coalesce(p_with_bump, false) then ' + ' || (v_quote #>> '{bump,title}') else '' end, 300),
         'asaas', p_environment, p_integration_id, p_billing_type, (v_quote ->> 'total')::numeric,
         coalesce(p_installment_count, 1), private.uuid_or_null(v_quote ->> 'coupon_id'), v_quote #>> '{coupon,code}',
         v_course_discount
    from public.courses c where c.id = p_course_id
  returning * into v_payment;

  insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, discount, value)
  values (v_payment.id, v_payment.school_id, 'course', p_course_id, v_quote #>> '{course,title}',
          (v_quote #>> '{course,price}')::numeric, v_course_discount, (v_quote #>> '{course,price}')::numeric - v_course_discount);
  if coalesce(p_with_bump, false) then
    insert into public.payment_items (payment_id, school_id, kind, course_id, title, list_price, value)
    values (v_payment.id, v_payment.school_id, 'bump', (v_quote #>> '{bump,course_id}')::uuid, v_quote #>> '{bump,title}',
            (v_quote #>> '{bump,price}')::numeric, (v_quote #>> '{bump,price}')::numeric);
  end if;
  if v_payment.coupon_id is not null then
    insert into public.coupon_uses (coupon_id, payment_id, user_id, school_id, discount)
    values (v_payment.coupon_id, v_payment.id, p_user_id, v_payment.school_id, v_course_discount);
  end if;
  return v_payment;
end $$;

-- ── Staff: coupons with their numbers ───────────────────────────────────────────────────────
create function public.admin_coupons(p_school_id uuid default null)
returns table (id uuid, code text, kind text, amount numeric, valid_from timestamptz, valid_until timestamptz,
               max_uses integer, max_uses_per_buyer integer, all_courses boolean, is_active boolean,
               course_ids uuid[], uses bigint, reserved bigint, revenue numeric, discounts numeric, created_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select cp.id, cp.code, cp.kind, cp.amount, cp.valid_from, cp.valid_until, cp.max_uses, cp.max_uses_per_buyer,
         cp.all_courses, cp.is_active,
         coalesce((select array_agg(cc.course_id order by cc.course_id) from public.coupon_courses cc where cc.coupon_id = cp.id), '{}'),
         (select count(*) from public.coupon_uses u where u.coupon_id = cp.id and u.status = 'used'),
         (select count(*) from public.coupon_uses u where u.coupon_id = cp.id and u.status = 'reserved'),
         coalesce((select sum(p.value) from public.coupon_uses u join public.payments p on p.id = u.payment_id
                    where u.coupon_id = cp.id and u.status = 'used'), 0),
         coalesce((select sum(u.discount) from public.coupon_uses u where u.coupon_id = cp.id and u.status = 'used'), 0),
         cp.created_at
    from public.coupons cp
   where cp.school_id = v_school
   order by cp.created_at desc, cp.id;
end $$;

-- ── Staff: Vendas ───────────────────────────────────────────────────────────────────────────
-- The school's payments under the screen's filters (docs/selling.md). Dates are São Paulo days of
-- created_at, both ends included.
create function private.sales_of(p_school_id uuid, p_status text, p_method text, p_course_id uuid, p_from date, p_to date)
returns setof public.payments
language sql stable security definer set search_path = '' as $$
  select p.* from public.payments p
   where p.school_id = p_school_id
     and (p_status is null or p.status = p_status)
     and (p_method is null or p.billing_type = p_method)
     and (p_course_id is null or exists (select 1 from public.payment_items i where i.payment_id = p.id and i.course_id = p_course_id))
     and (p_from is null or p.created_at >= p_from::timestamp at time zone 'America/Sao_Paulo')
     and (p_to is null or p.created_at < (p_to + 1)::timestamp at time zone 'America/Sao_Paulo')
$$;
revoke all on function private.sales_of(uuid, text, text, uuid, date, date) from public, anon, authenticated;

create function public.admin_sales(
  p_school_id uuid default null, p_status text default null, p_method text default null, p_course_id uuid default null,
  p_from date default null, p_to date default null, p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, created_at timestamptz, paid_at timestamptz, buyer_id uuid, buyer_name text, buyer_email text, items jsonb,
  billing_type text, installment_count integer, status text, value numeric, discount numeric, coupon_code text,
  refund_requested_at timestamptz, refund_reason text, refunded_at timestamptz, mismatch_reason text, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select p.id, p.created_at, p.paid_at, p.user_id, pr.name, pr.email,
         coalesce((select jsonb_agg(jsonb_build_object('kind', i.kind, 'course_id', i.course_id, 'title', i.title,
                                                       'list_price', i.list_price, 'discount', i.discount, 'value', i.value)
                                    order by i.kind desc)
                     from public.payment_items i where i.payment_id = p.id), '[]'::jsonb),
         p.billing_type, p.installment_count, p.status, p.value, p.discount, p.coupon_code,
         p.refund_requested_at, p.refund_reason, p.refunded_at, p.mismatch_reason, count(*) over ()
    from private.sales_of(v_school, p_status, p_method, p_course_id, p_from, p_to) p
    left join public.profiles pr on pr.id = p.user_id
   order by p.created_at desc, p.id
   limit case when p_limit is null then null else least(greatest(p_limit, 1), 500) end
   offset greatest(coalesce(p_offset, 0), 0);
end $$;

create function public.admin_sales_totals(
  p_school_id uuid default null, p_method text default null, p_course_id uuid default null,
  p_from date default null, p_to date default null
) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_totals jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  with paid as (
    select p.billing_type,
           p.value + p.discount as gross, p.discount,
           case when p.status in ('REFUNDED', 'CHARGEBACK') then p.value else 0 end as refunded
      from private.sales_of(v_school, null, p_method, p_course_id, p_from, p_to) p
     where p.paid_at is not null
  ), by_method as (
    select billing_type, count(*) as count, sum(gross) as gross, sum(discount) as discounts, sum(refunded) as refunded
      from paid group by billing_type
  )
  select jsonb_build_object(
           'count', (select count(*) from paid),
           'gross', coalesce((select sum(gross) from paid), 0),
           'discounts', coalesce((select sum(discount) from paid), 0),
           'refunded', coalesce((select sum(refunded) from paid), 0),
           'net', coalesce((select sum(gross - discount - refunded) from paid), 0),
           'by_method', coalesce((select jsonb_agg(jsonb_build_object(
                                    'method', billing_type, 'count', count, 'gross', gross, 'discounts', discounts,
                                    'refunded', refunded, 'net', gross - discounts - refunded) order by billing_type)
                                  from by_method), '[]'::jsonb))
    into v_totals;
  return v_totals;
end $$;

-- refund-asaas-payment (service role), after Asaas accepted the refund: what staff asked, and when.
create function public.request_payment_refund(p_payment_id uuid, p_reason text) returns public.payments
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_payment public.payments;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update public.payments
     set refund_requested_at = coalesce(refund_requested_at, now()),
         refund_reason = nullif(left(btrim(coalesce(p_reason, '')), 500), '')
   where id = p_payment_id
  returning * into v_payment;
  return v_payment;
end $$;

revoke all on function public.checkout_quote(uuid, text, boolean),
  public.create_checkout_payment(uuid, uuid, text, boolean, text, integer, text, uuid, numeric),
  public.admin_coupons(uuid),
  public.admin_sales(uuid, text, text, uuid, date, date, integer, integer),
  public.admin_sales_totals(uuid, text, uuid, date, date),
  public.request_payment_refund(uuid, text) from public, anon, authenticated;
grant execute on function public.checkout_quote(uuid, text, boolean), public.admin_coupons(uuid),
  public.admin_sales(uuid, text, text, uuid, date, date, integer, integer),
  public.admin_sales_totals(uuid, text, uuid, date, date) to authenticated, service_role;
grant execute on function public.create_checkout_payment(uuid, uuid, text, boolean, text, integer, text, uuid, numeric),
  public.request_payment_refund(uuid, text) to service_role;

-- ── asaas-webhook: a payment enrolls in (and a refund pauses) every course it bought ────────
-- Every course of the payment's items, ACTIVE: a purchase grants lasting access, also to a student
-- whose earlier access had expired. True when it enrolled in any.
create function private.enroll_bought(p_payment public.payments) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.enrollments (user_id, course_id, status)
  select p_payment.user_id, i.course_id, 'ACTIVE' from public.payment_items i
   where i.payment_id = p_payment.id and i.course_id is not null
  on conflict (user_id, course_id) do update
    set status = 'ACTIVE',
        expires_at = case when public.enrollments.expires_at is not null and public.enrollments.expires_at <= now()
                          then null else public.enrollments.expires_at end;
  return found;
end $$;
revoke all on function private.enroll_bought(public.payments) from public, anon, authenticated;

-- apply_payment_event as in 20261124000400_payment_checks.sql, over payment_items instead of the one
-- course_id (every earlier payment has its one item, written above).
create or replace function public.apply_payment_event(
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
    -- Every course the payment bought (the course and its bump).
    v_outcome := case when private.enroll_bought(v_payment) then 'enrolled' else 'ignored' end;
  elsif p_event in ('PAYMENT_REFUNDED', 'PAYMENT_CHARGEBACK_REQUESTED') then
    update public.payments
       set status = case when p_event = 'PAYMENT_REFUNDED' then 'REFUNDED' else 'CHARGEBACK' end
     where id = v_payment.id;
    update public.enrollments set status = 'PAUSED'
     where user_id = v_payment.user_id
       and course_id in (select i.course_id from public.payment_items i where i.payment_id = v_payment.id);
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
