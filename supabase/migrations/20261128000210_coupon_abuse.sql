-- Issue 37, holes 6, 7 and 8: what an attacker did with coupons (docs/selling.md has the rules).
-- 6. One buyer used up a limited coupon without paying: each unpaid PIX reserved a use, for ever. Now a
--    buyer holds at most one reservation per coupon and course (a new charge replaces their older pending
--    one: payments.replaced_by, and create-asaas-charge removes the replaced charge at Asaas), and a
--    reservation holds only until its charge's due date (payments.due_date, written here with the payment:
--    PIX the next day, boleto in 3 days, São Paulo). A paid charge always holds its use.
-- 7. Coupon codes could be guessed without limit (300 in 0.5 s). Every look-up of a code (checkout_quote,
--    and create-asaas-charge through checkout_coupon_attempt before create_checkout_payment) counts the
--    unknown codes of the last minute per account and per client address (x-forwarded-for, which the API
--    gateway sets); past 10, PT429 (HTTP 429) with a pt-BR message. The count lives in
--    private.coupon_code_misses (rows expire after a minute; no API grants).
-- 8. Inactive, expired and not-yet-valid codes each had their own message. A code the school has not
--    published (inactive, or outside its validity) is now looked up and answered exactly as an unknown
--    one: the same query finds neither, "Cupom não encontrado.", and it counts as a miss.
set local lock_timeout = '5s';

-- ── 6. Reservations: one per buyer, coupon and course, until the charge's due date ─────────────
alter table public.payments
  -- The newer checkout of the same buyer, course and coupon that took over this pending one's reservation.
  add column replaced_by uuid references public.payments (id) on delete set null;
create index payments_replaced_by_idx on public.payments (replaced_by) where replaced_by is not null;

-- The pending checkouts so far get the due date create-asaas-charge gave Asaas (1 day, boleto 3).
update public.payments p
   set due_date = (p.created_at at time zone 'America/Sao_Paulo')::date + case when p.billing_type = 'BOLETO' then 3 else 1 end
 where p.due_date is null and p.subscription_id is null and p.status = 'PENDING';

-- A paid charge holds its use, also when its reservation had lapsed (paid after its due date, or after a
-- newer charge replaced it): the discount was given. Otherwise as in 20261126001100_selling.sql.
create or replace function private.payments_coupon_use() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status in ('CONFIRMED', 'RECEIVED') then
    update public.coupon_uses set status = 'used' where payment_id = new.id and status <> 'used';
  elsif new.status in ('FAILED', 'OVERDUE', 'DELETED', 'REFUNDED', 'CHARGEBACK') then
    update public.coupon_uses set status = 'released' where payment_id = new.id and status <> 'released';
  end if;
  if new.status in ('REFUNDED', 'CHARGEBACK') and new.refunded_at is null then
    update public.payments set refunded_at = now() where id = new.id;
  end if;
  return null;
end $$;

-- ── 7. The guess limit ───────────────────────────────────────────────────────────────────────
-- One row per account or address and unknown code (its md5: which code, not the code) in the last minute;
-- the same wrong code again only moves its time. Rows older than a minute are deleted as misses are written.
create table private.coupon_code_misses (
  -- 'user:<uuid>' or 'ip:<address>' (an IPv6 client's /64).
  subject text not null constraint coupon_code_misses_subject_length check (length(subject) <= 120),
  code_hash text not null constraint coupon_code_misses_code_hash_check check (code_hash ~ '^[0-9a-f]{32}$'),
  missed_at timestamptz not null default now(),
  primary key (subject, code_hash)
);
alter table private.coupon_code_misses enable row level security;
revoke all on private.coupon_code_misses from public, anon, authenticated, service_role;
create index coupon_code_misses_missed_at_idx on private.coupon_code_misses (missed_at);

-- The caller's address as the API gateway gives it (the first x-forwarded-for), for a request through the API.
create function private.request_ip() returns text
language sql stable set search_path = '' as $$
  select nullif(btrim(split_part(nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for', ',', 1)), '')
$$;
revoke all on function private.request_ip() from public, anon, authenticated;

-- The budget key of a client address: an IPv4 address, or the /64 of an IPv6 one (one client usually holds
-- a whole /64); text that is no address is kept as it came (bounded).
create function private.address_key(p_ip text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  v inet;
begin
  if nullif(btrim(p_ip), '') is null then
    return null;
  end if;
  begin
    v := btrim(p_ip)::inet;
  exception when others then
    return left(btrim(p_ip), 100);
  end;
  if host(v) ~ '^::ffff:[0-9.]+$' then
    v := substr(host(v), 8)::inet;
  end if;
  return case when family(v) = 6 then network(set_masklen(v, 64))::text else host(v) end;
end $$;
revoke all on function private.address_key(text) from public, anon, authenticated;

-- ── 6 and 8. The price of a checkout ───────────────────────────────────────────────────────────
-- As in 20261126001100_selling.sql, with: only a published coupon is found (active, within its validity),
-- so a hidden code takes the path of an unknown one; 'coupon_unknown' says so to the callers inside the
-- database; the uses that hold a place are the paid ones and the reservations whose charge is not past its
-- due date, leaving out the buyer's own pending charge for this course (a new charge replaces it).
create or replace function private.checkout_price(p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_lock boolean)
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
  v_taken_by_buyer integer;
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
       where cp.school_id = v_course.school_id and upper(cp.code) = upper(v_code)
         and cp.is_active and (cp.valid_from is null or cp.valid_from <= now()) and (cp.valid_until is null or cp.valid_until > now())
         for update;
    else
      select * into v_coupon from public.coupons cp
       where cp.school_id = v_course.school_id and upper(cp.code) = upper(v_code)
         and cp.is_active and (cp.valid_from is null or cp.valid_from <= now()) and (cp.valid_until is null or cp.valid_until > now());
    end if;
    if v_coupon.id is null then
      v_error := 'Cupom não encontrado.';
    elsif not v_coupon.all_courses
          and not exists (select 1 from public.coupon_courses cc where cc.coupon_id = v_coupon.id and cc.course_id = v_course.id) then
      v_error := 'Este cupom não vale para este curso.';
    else
      select count(*), count(*) filter (where u.user_id = p_user_id)
        into v_taken, v_taken_by_buyer
        from public.coupon_uses u join public.payments p on p.id = u.payment_id
       where u.coupon_id = v_coupon.id
         and (u.status = 'used'
              or (u.status = 'reserved' and p.due_date >= (now() at time zone 'America/Sao_Paulo')::date
                  and not (u.user_id = p_user_id and p.course_id = v_course.id)));
      if v_coupon.max_uses is not null and v_taken >= v_coupon.max_uses then
        v_error := 'Este cupom esgotou.';
      elsif v_coupon.max_uses_per_buyer is not null and v_taken_by_buyer >= v_coupon.max_uses_per_buyer then
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
    'coupon_unknown', v_code is not null and v_coupon.id is null,
    'coupon_error', v_error,
    'subtotal', v_subtotal, 'discount', v_discount, 'total', v_subtotal - v_discount);
end $$;

-- ── 7. Every look-up of a code goes through the guess limit ──────────────────────────────────
-- checkout_price for a code typed by p_user_id from address p_ip: refused (PT429) once the account or the
-- address has tried 10 unknown codes in the last minute, whatever the code now; an unknown code is
-- counted. Concurrent attempts of one account or address queue on its advisory lock (the account's
-- first, always), so a burst cannot all read the same count.
create function private.guarded_checkout_price(p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_ip text)
returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_code text := nullif(btrim(coalesce(p_coupon_code, '')), '');
  v_subjects text[];
  v_subject text;
  v_quote jsonb;
begin
  if v_code is not null then
    v_subjects := array_remove(array['user:' || p_user_id::text, 'ip:' || private.address_key(p_ip)], null);
    foreach v_subject in array v_subjects loop
      perform pg_advisory_xact_lock(hashtextextended('coupon_code_misses:' || v_subject, 0));
    end loop;
    if exists (select 1 from private.coupon_code_misses m
                where m.subject = any (v_subjects) and m.missed_at > now() - interval '1 minute'
                group by m.subject having count(*) >= 10) then
      raise exception 'Muitas tentativas de cupom. Aguarde um minuto e tente de novo.' using errcode = 'PT429';
    end if;
  end if;
  v_quote := private.checkout_price(p_user_id, p_course_id, v_code, p_with_bump, false);
  if (v_quote ->> 'coupon_unknown')::boolean then
    delete from private.coupon_code_misses where missed_at < now() - interval '1 minute';
    insert into private.coupon_code_misses (subject, code_hash)
    select s, md5(upper(v_code)) from unnest(v_subjects) s
    on conflict (subject, code_hash) do update set missed_at = excluded.missed_at;
  end if;
  return v_quote;
end $$;
revoke all on function private.guarded_checkout_price(uuid, uuid, text, boolean, text) from public, anon, authenticated;

-- The checkout page's quote, for the signed-in student, from the address the API gateway gives. Volatile
-- now: it writes the misses (PostgREST runs a stable function read-only).
create or replace function public.checkout_quote(p_course_id uuid, p_coupon_code text default null, p_with_bump boolean default false)
returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'Entre na sua conta para comprar.' using errcode = '42501';
  end if;
  return private.guarded_checkout_price(auth.uid(), p_course_id, p_coupon_code, coalesce(p_with_bump, false), private.request_ip())
         - 'coupon_id' - 'coupon_unknown';
end $$;

-- create-asaas-charge (service role) before create_checkout_payment, with the buyer's address as the
-- function received it: the same guess limit for the code of a charge. A miss must be written in a
-- transaction of its own: create_checkout_payment's refusal of the code rolls its own work back.
create function public.checkout_coupon_attempt(p_user_id uuid, p_course_id uuid, p_coupon_code text, p_with_bump boolean, p_ip text)
returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  perform private.guarded_checkout_price(p_user_id, p_course_id, p_coupon_code, coalesce(p_with_bump, false), p_ip);
end $$;
revoke all on function public.checkout_coupon_attempt(uuid, uuid, text, boolean, text) from public, anon, authenticated;
grant execute on function public.checkout_coupon_attempt(uuid, uuid, text, boolean, text) to service_role;

-- ── 6. create_checkout_payment: the due date, and one reservation per buyer, coupon and course ──
-- As in 20261126001100_selling.sql, with: the payment's due_date (what create-asaas-charge sends Asaas as
-- dueDate, so the reservation ends with the charge), and the buyer's older pending checkouts of this course
-- with this coupon replaced: their reservation released, replaced_by set (create-asaas-charge then removes
-- their charges at Asaas). All under the coupon's lock, taken by checkout_price.
create or replace function public.create_checkout_payment(
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
                               billing_type, value, installment_count, coupon_id, coupon_code, discount, due_date)
  select c.school_id, p_user_id, c.id,
         left(c.title || case when coalesce(p_with_bump, false) then ' + ' || (v_quote #>> '{bump,title}') else '' end, 300),
         'asaas', p_environment, p_integration_id, p_billing_type, (v_quote ->> 'total')::numeric,
         coalesce(p_installment_count, 1), private.uuid_or_null(v_quote ->> 'coupon_id'), v_quote #>> '{coupon,code}',
         v_course_discount,
         (now() at time zone 'America/Sao_Paulo')::date + case when p_billing_type = 'BOLETO' then 3 else 1 end
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
    with replaced as (
      update public.payments p set replaced_by = v_payment.id
       where p.user_id = p_user_id and p.course_id = p_course_id and p.coupon_id = v_payment.coupon_id
         and p.id <> v_payment.id and p.status = 'PENDING' and p.replaced_by is null
      returning p.id
    )
    update public.coupon_uses u set status = 'released'
      from replaced r where u.payment_id = r.id and u.status = 'reserved';
  end if;
  return v_payment;
end $$;

-- ── Staff: coupons with their numbers ───────────────────────────────────────────────────────
-- As in 20261126001100_selling.sql; 'reserved' counts the reservations that still hold a use (charge not
-- past its due date).
create or replace function public.admin_coupons(p_school_id uuid default null)
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
         (select count(*) from public.coupon_uses u join public.payments p on p.id = u.payment_id
           where u.coupon_id = cp.id and u.status = 'reserved' and p.due_date >= (now() at time zone 'America/Sao_Paulo')::date),
         coalesce((select sum(p.value) from public.coupon_uses u join public.payments p on p.id = u.payment_id
                    where u.coupon_id = cp.id and u.status = 'used'), 0),
         coalesce((select sum(u.discount) from public.coupon_uses u where u.coupon_id = cp.id and u.status = 'used'), 0),
         cp.created_at
    from public.coupons cp
   where cp.school_id = v_school
   order by cp.created_at desc, cp.id;
end $$;
