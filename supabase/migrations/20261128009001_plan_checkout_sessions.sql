-- Issue 41: a plan's checkout (assinatura, /checkout/plano/<slug>) is recorded and followed up like a
-- course's (docs/recovery.md "Plans"). Before, checkout_sessions held courses only.
-- - checkout_sessions.plan_id: the offer is a course or a plan (exactly one). A plan has no bump and no
--   coupon: coupons apply to courses only today (docs/selling.md), so neither the buyer's code nor the
--   recovery coupon exist for plans. One open session per buyer and plan, beside per buyer and course.
-- - open_plan_checkout_session(plan): the plan's checkout page opened (signed-in buyer).
-- - The subscription is the charge: created (PENDING) → the session's stage by its method; its first
--   invoice gives the charge, its value and when a PIX or boleto ends; Asaas refusing a card (FAILED) is
--   card_refused; the invoice paid marks the session paid; an invoice overdue or deleted abandons it; the
--   subscription becoming ACTIVE (bought by any path) closes what the payment did not mark paid.
-- - The sequence's e-mail names the plan and its price per cycle and links to /checkout/plano/<slug>.
-- - admin_checkout_sessions gains plan_id, plan_name, plan_slug (the course's columns are null for a plan).
set local lock_timeout = '5s';

alter table public.checkout_sessions
  add column plan_id uuid references public.plans (id) on delete cascade,
  alter column course_id drop not null,
  add constraint checkout_sessions_offer_check check ((course_id is null) <> (plan_id is null)),
  -- Coupons and bumps are a course's: a plan's session never holds them.
  add constraint checkout_sessions_plan_choices_check check (plan_id is null or (not with_bump and coupon_code is null and recovery_coupon_id is null));
comment on column public.checkout_sessions.plan_id is 'The plan whose checkout this is (issue 41); null for a course''s checkout.';
-- One open session per buyer and plan (course sessions have plan_id null and never meet here).
create unique index checkout_sessions_one_open_plan on public.checkout_sessions (user_id, plan_id) where outcome = 'open';
create index checkout_sessions_plan_id_idx on public.checkout_sessions (plan_id) where plan_id is not null;

-- A plan is had while a subscription of it gives access (not a first invoice still unpaid).
create function private.has_plan(p_user_id uuid, p_plan_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.subscriptions s
                  where s.user_id = p_user_id and s.plan_id = p_plan_id
                    and (s.status in ('ACTIVE', 'OVERDUE') or (s.status = 'CANCELLED' and s.paid_until > now())));
$$;
revoke all on function private.has_plan(uuid, uuid) from public, anon, authenticated;

-- As in 20261128009000_resume_continues_session.sql, with plans.
create or replace function private.checkout_session_owned(p_session public.checkout_sessions) returns boolean
language sql stable security definer set search_path = '' as $$
  select case when p_session.plan_id is not null then private.has_plan(p_session.user_id, p_session.plan_id)
              else private.has_active_enrollment(p_session.user_id, p_session.course_id) end;
$$;

-- ── The plan's checkout page ────────────────────────────────────────────────────────────────────
-- The signed-in buyer opened a plan's checkout: their open session of the plan is created (or kept). Refuses
-- a plan that is not on sale to them as create_plan_subscription does; null when they have it or a
-- subscription of it still waits for its first payment (the page sends them to Minha assinatura).
create function public.open_plan_checkout_session(p_plan_id uuid) returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_user uuid := auth.uid();
  v_plan public.plans;
  v_id uuid;
begin
  perform private.refuse_while_password_change_pending();
  if v_user is null or not private.is_active() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_plan from public.plans p
   where p.id = p_plan_id and p.is_active
     and p.school_id = (select pr.school_id from public.profiles pr where pr.id = v_user)
     and exists (select 1 from public.plan_courses pc where pc.plan_id = p.id);
  if v_plan.id is null then
    raise exception 'Plano não encontrado.' using errcode = '22023';
  end if;
  if exists (select 1 from public.subscriptions s where s.user_id = v_user and s.plan_id = v_plan.id
                and s.status in ('PENDING', 'ACTIVE', 'OVERDUE'))
     or private.has_plan(v_user, v_plan.id) then
    return null;
  end if;
  insert into public.checkout_sessions as s (school_id, user_id, plan_id, value)
  values (v_plan.school_id, v_user, v_plan.id, v_plan.price)
  on conflict (user_id, plan_id) where outcome = 'open' do update
     set value = case when s.payment_id is null then excluded.value else s.value end
  returning s.id into v_id;
  return v_id;
end $$;
revoke all on function public.open_plan_checkout_session(uuid) from public, anon, authenticated;
grant execute on function public.open_plan_checkout_session(uuid) to authenticated;

-- ── The subscription is the plan's charge ───────────────────────────────────────────────────────
-- Created (create_plan_subscription, PENDING): the buyer's open session of the plan (one is opened when the
-- page did not) reaches the stage of its method; the first invoice (below) says when it ends. Asaas refused
-- it (FAILED): a card is card_refused, the hour counting again. Bought (ACTIVE, or CANCELLED with access): a
-- paid invoice written in this transaction marks the sessions paid, anything else closes them.
create function private.checkout_sessions_on_subscription() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
begin
  if new.plan_id is null then
    return null;
  end if;
  if tg_op = 'INSERT' and new.status = 'PENDING' then
    insert into public.checkout_sessions as s (school_id, user_id, plan_id, value)
    values (new.school_id, new.user_id, new.plan_id, new.value)
    on conflict (user_id, plan_id) where outcome = 'open' do nothing;
    update public.checkout_sessions s
       set value = new.value, charge_at = now(), payment_id = null, expires_at = null,
           stage = case new.billing_type when 'PIX' then 'pix' when 'BOLETO' then 'boleto' else 'card' end
     where s.user_id = new.user_id and s.plan_id = new.plan_id and s.outcome = 'open';
  elsif new.status = 'FAILED' and old.status is distinct from 'FAILED' then
    update public.checkout_sessions s
       set stage = case when new.billing_type = 'CREDIT_CARD' then 'card_refused' else s.stage end, charge_at = now()
     where s.user_id = new.user_id and s.plan_id = new.plan_id and s.outcome = 'open';
  elsif private.has_plan(new.user_id, new.plan_id) then
    select p.* into v_payment from public.payments p
     where p.subscription_id = new.id and p.status in ('CONFIRMED', 'RECEIVED') and p.updated_at = now()
     order by p.paid_at desc nulls last limit 1;
    if v_payment.id is not null then
      perform private.checkout_sessions_paid(v_payment);
    end if;
    update public.checkout_sessions s
       set outcome = 'closed', ended_at = now(), next_touch_at = null
     where s.user_id = new.user_id and s.plan_id = new.plan_id and s.outcome in ('open', 'abandoned');
  end if;
  return null;
end $$;
revoke all on function private.checkout_sessions_on_subscription() from public, anon, authenticated;
create trigger subscriptions_checkout_sessions after insert or update of status on public.subscriptions
  for each row execute function private.checkout_sessions_on_subscription();

-- As in 20261128007000_checkout_sessions.sql, and a subscription's invoice pays the buyer's sessions of its plan.
create or replace function private.checkout_sessions_paid(p_payment public.payments) returns void
language sql volatile security definer set search_path = '' as $$
  update public.checkout_sessions s
     set outcome = 'paid', ended_at = coalesce(p_payment.paid_at, now()), paid_payment_id = p_payment.id,
         paid_value = p_payment.value, next_touch_at = null
   where s.user_id = p_payment.user_id
     and (s.course_id in (select i.course_id from public.payment_items i where i.payment_id = p_payment.id and i.course_id is not null
                          union select p_payment.course_id where p_payment.course_id is not null)
          or s.plan_id = (select sub.plan_id from public.subscriptions sub where sub.id = p_payment.subscription_id))
     and (s.outcome in ('open', 'abandoned') or (s.outcome = 'closed' and s.ended_at = now()));
$$;

-- As in 20261128009000_resume_continues_session.sql, and a subscription's invoice: the first one gives the
-- plan's session its charge (a later one is a renewal, no checkout); paid, it marks the session paid; overdue
-- or deleted, it abandons it as a course's charge does.
create or replace function private.checkout_sessions_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_session public.checkout_sessions;
  v_plan_id uuid;
begin
  select * into v_payment from public.payments p where p.id = new.id;
  if v_payment.id is null or (v_payment.course_id is null and v_payment.subscription_id is null) then
    return null;
  end if;
  if v_payment.status in ('CONFIRMED', 'RECEIVED') then
    perform private.checkout_sessions_paid(v_payment);
    return null;
  end if;
  if tg_op = 'INSERT' and v_payment.status = 'PENDING' and v_payment.subscription_id is not null then
    select sub.plan_id into v_plan_id from public.subscriptions sub where sub.id = v_payment.subscription_id;
    if not exists (select 1 from public.payments o where o.subscription_id = v_payment.subscription_id and o.id <> v_payment.id) then
      update public.checkout_sessions s
         set payment_id = v_payment.id, value = v_payment.value,
             stage = case v_payment.billing_type when 'PIX' then 'pix' when 'BOLETO' then 'boleto' else 'card' end,
             expires_at = case when v_payment.billing_type <> 'CREDIT_CARD' and v_payment.due_date is not null
                               then ((v_payment.due_date + 1)::timestamp at time zone 'America/Sao_Paulo') end
       where s.user_id = v_payment.user_id and s.plan_id = v_plan_id and s.outcome = 'open';
    end if;
    return null;
  end if;
  if tg_op = 'INSERT' and v_payment.status = 'PENDING' then
    -- A charge generated: the buyer's open session of the course takes it (one is opened when the page did not).
    insert into public.checkout_sessions as s (school_id, user_id, course_id, with_bump, coupon_code, value)
    values (v_payment.school_id, v_payment.user_id, v_payment.course_id,
            exists (select 1 from public.payment_items i where i.payment_id = v_payment.id and i.kind = 'bump'),
            v_payment.coupon_code, v_payment.value)
    on conflict (user_id, course_id) where outcome = 'open' do nothing;
    update public.checkout_sessions s
       set payment_id = v_payment.id, value = v_payment.value, charge_at = now(),
           with_bump = exists (select 1 from public.payment_items i where i.payment_id = v_payment.id and i.kind = 'bump'),
           coupon_code = v_payment.coupon_code,
           stage = case v_payment.billing_type when 'PIX' then 'pix' when 'BOLETO' then 'boleto' else 'card' end,
           expires_at = case when v_payment.billing_type <> 'CREDIT_CARD' and v_payment.due_date is not null
                             then ((v_payment.due_date + 1)::timestamp at time zone 'America/Sao_Paulo') end
     where s.user_id = v_payment.user_id and s.course_id = v_payment.course_id and s.outcome = 'open';
    return null;
  end if;
  select * into v_session from public.checkout_sessions s
   where s.payment_id = v_payment.id and s.outcome = 'open' for update;
  if v_session.id is null then
    return null;
  end if;
  if v_payment.status = 'FAILED' and v_payment.billing_type = 'CREDIT_CARD' then
    update public.checkout_sessions set stage = 'card_refused', charge_at = now() where id = v_session.id;
  elsif v_payment.status in ('OVERDUE', 'DELETED', 'FAILED') and v_payment.replaced_by is null then
    -- The charge can no longer be paid: abandoned now (a replaced one left its session to the new charge).
    update public.checkout_sessions
       set outcome = 'abandoned', abandoned_at = coalesce(abandoned_at, now()),
           next_touch_at = private.checkout_next_touch(school_id, abandoned_at, touches_sent, now())
     where id = v_session.id;
  end if;
  return null;
end $$;

-- ── The reopen link ─────────────────────────────────────────────────────────────────────────────
-- As in 20261128009000_resume_continues_session.sql, for a plan too: /checkout/plano/<slug>?retomar=<id>
-- answers plan_id and plan_slug (course_id and course_slug null), no bump and no coupon, and the first
-- invoice while it can be paid.
create or replace function public.resume_checkout_session(p_session_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
  v_other public.checkout_sessions;
  v_payment public.payments;
  v_coupon public.coupons;
  v_slug text;
  v_plan_slug text;
  v_payable boolean;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_session from public.checkout_sessions s where s.id = p_session_id and s.user_id = auth.uid() for update;
  if v_session.id is null or auth.uid() is null then
    raise exception 'Link de checkout não encontrado.' using errcode = 'P0002';
  end if;
  if v_session.outcome = 'abandoned' and not private.checkout_session_owned(v_session) then
    -- The open session the buyer started meanwhile for this offer (one at most).
    select * into v_other from public.checkout_sessions s
     where s.user_id = v_session.user_id and s.outcome = 'open'
       and (s.course_id = v_session.course_id or s.plan_id = v_session.plan_id) for update;
    if v_other.id is not null and v_other.abandoned_at is null then
      -- A plain opening: folded in. Its charge, when it made one, is the newest: the session takes it.
      if v_other.payment_id is not null or v_other.stage <> 'opened' then
        update public.checkout_sessions
           set payment_id = v_other.payment_id, stage = v_other.stage, charge_at = v_other.charge_at,
               expires_at = v_other.expires_at, value = v_other.value, with_bump = v_other.with_bump,
               coupon_code = v_other.coupon_code
         where id = v_session.id returning * into v_session;
      end if;
      delete from public.checkout_sessions where id = v_other.id;
    elsif v_other.id is not null then
      -- Another reopened session: abandoned again, its sequence where it was.
      update public.checkout_sessions
         set outcome = 'abandoned',
             next_touch_at = private.checkout_next_touch(school_id, abandoned_at, touches_sent, now())
       where id = v_other.id;
    end if;
    -- A charge that can no longer be paid is let go ("Pagar" makes a fresh one, a new PIX); the stage says
    -- how far the buyer got, and with it the method the page pre-selects.
    select * into v_payment from public.payments p where p.id = v_session.payment_id;
    v_payable := v_payment.status = 'PENDING' and v_payment.replaced_by is null
                 and (v_session.expires_at is null or v_session.expires_at > now());
    update public.checkout_sessions
       set outcome = 'open', next_touch_at = null,
           payment_id = case when v_payable then payment_id end,
           expires_at = case when v_payable then expires_at end
     where id = v_session.id;
  end if;
  update public.checkout_sessions set resumed_at = now() where id = v_session.id returning * into v_session;
  select * into v_payment from public.payments p where p.id = v_session.payment_id;
  -- The last touch's coupon while it holds, else the code the buyer had.
  select * into v_coupon from public.coupons c
   where c.id = v_session.recovery_coupon_id and c.is_active and (c.valid_until is null or c.valid_until > now());
  select c.slug into v_slug from public.courses c where c.id = v_session.course_id;
  select p.slug into v_plan_slug from public.plans p where p.id = v_session.plan_id;
  return jsonb_build_object(
    'session_id', v_session.id, 'course_id', v_session.course_id, 'course_slug', v_slug,
    'plan_id', v_session.plan_id, 'plan_slug', v_plan_slug,
    'with_bump', v_session.with_bump, 'coupon_code', coalesce(v_coupon.code, v_session.coupon_code),
    'outcome', v_session.outcome, 'stage', v_session.stage,
    'billing_type', case v_session.stage when 'pix' then 'PIX' when 'boleto' then 'BOLETO' when 'card' then 'CREDIT_CARD' when 'card_refused' then 'CREDIT_CARD' end,
    -- A charge still payable is shown again; otherwise the page makes a fresh one (a new PIX).
    'pending_charge', case when v_payment.status = 'PENDING' and v_payment.replaced_by is null
                            and (v_session.expires_at is null or v_session.expires_at > now()) and v_payment.invoice_url is not null
                           then jsonb_build_object('payment_id', v_payment.id, 'billing_type', v_payment.billing_type,
                                                   'invoice_url', v_payment.invoice_url, 'value', v_payment.value) end,
    'already_enrolled', private.checkout_session_owned(v_session));
end $$;
revoke all on function public.resume_checkout_session(uuid) from public, anon, authenticated;
grant execute on function public.resume_checkout_session(uuid) to authenticated;

-- ── The sequence's e-mail for a plan ────────────────────────────────────────────────────────────
-- As in 20261128009000_resume_continues_session.sql, and a plan's: plan_name, plan_slug, plan_cycle with
-- the price (no coupon, no bump).
create or replace function private.checkout_recovery_payload(p_session public.checkout_sessions, p_touch integer, p_last boolean, p_coupon public.coupons)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
     'name', coalesce(pr.name, ''), 'session_id', p_session.id, 'course_id', c.id, 'course_slug', c.slug,
     'course_title', c.title, 'plan_id', pl.id, 'plan_slug', pl.slug, 'plan_name', pl.name, 'plan_cycle', pl.cycle,
     'amount', p_session.value, 'coupon_code', p_session.coupon_code,
     'with_bump', p_session.with_bump,
     'bump_title', case when p_session.with_bump then (select bc.title from public.course_bumps b join public.courses bc on bc.id = b.bump_course_id where b.course_id = c.id) end,
     'stage', p_session.stage, 'touch', p_touch, 'last_touch', p_last,
     'recovery_coupon', case when p_coupon.id is not null then jsonb_build_object(
        'code', p_coupon.code, 'percent', p_coupon.amount, 'valid_until', p_coupon.valid_until) end)
    from (select 1) one
    left join public.courses c on c.id = p_session.course_id
    left join public.plans pl on pl.id = p_session.plan_id
    left join public.profiles pr on pr.id = p_session.user_id;
$$;

-- No recovery coupon for a plan (coupons discount courses only): as in
-- 20261128007002_recovery_coupon_valid_from.sql otherwise.
create or replace function private.create_recovery_coupon(p_session public.checkout_sessions, p_percent numeric, p_now timestamptz)
returns public.coupons
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_coupon public.coupons;
begin
  if p_session.course_id is null then
    return null;
  end if;
  insert into public.coupons (school_id, code, kind, amount, valid_from, valid_until, max_uses, max_uses_per_buyer, all_courses, buyer_id)
  values (p_session.school_id, 'RECUPERA-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10)), 'percent', p_percent,
          least(p_now, now()) - interval '1 minute', p_now + interval '48 hours', 1, 1, false, p_session.user_id)
  returning * into v_coupon;
  insert into public.coupon_courses (coupon_id, course_id) values (v_coupon.id, p_session.course_id);
  return v_coupon;
end $$;

-- ── Recuperação lists plan sessions ─────────────────────────────────────────────────────────────
-- As in 20261128007000_checkout_sessions.sql, with plan_id, plan_name and plan_slug (a course filter leaves
-- the plans out).
drop function public.admin_checkout_sessions(uuid, date, date, uuid, text, integer, integer);
create function public.admin_checkout_sessions(
  p_school_id uuid default null, p_from date default null, p_to date default null, p_course_id uuid default null,
  p_stage text default null, p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, opened_at timestamptz, abandoned_at timestamptz, ended_at timestamptz, stage text, outcome text,
  buyer_id uuid, buyer_name text, buyer_email text, buyer_phone text, course_id uuid, course_title text, course_slug text,
  plan_id uuid, plan_name text, plan_slug text,
  with_bump boolean, coupon_code text, value numeric, paid_value numeric, touches_sent smallint, last_touch_at timestamptz,
  staff_contacts bigint, do_not_contact boolean, recovered boolean, total_count bigint
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
  select s.id, s.opened_at, s.abandoned_at, s.ended_at, s.stage, s.outcome,
         s.user_id, pr.name, pr.email, pr.phone, s.course_id, c.title, c.slug,
         s.plan_id, pl.name, pl.slug,
         s.with_bump, s.coupon_code, s.value, s.paid_value, s.touches_sent,
         (select max(t.created_at) from public.checkout_session_touches t where t.session_id = s.id),
         (select count(*) from public.checkout_session_touches t where t.session_id = s.id and t.kind <> 'email'),
         s.do_not_contact,
         s.outcome = 'paid' and s.abandoned_at is not null and (private.recovery_touch_before(s.id, s.ended_at)).id is not null,
         count(*) over ()
    from public.checkout_sessions s
    left join public.courses c on c.id = s.course_id
    left join public.plans pl on pl.id = s.plan_id
    left join public.profiles pr on pr.id = s.user_id
   where s.school_id = v_school
     and (p_from is null or s.opened_at >= (p_from::timestamp at time zone 'America/Sao_Paulo'))
     and (p_to is null or s.opened_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'))
     and (p_course_id is null or s.course_id = p_course_id)
     and (p_stage is null or s.stage = p_stage or s.outcome = p_stage)
   order by s.opened_at desc, s.id
   limit least(greatest(coalesce(p_limit, 25), 1), 500)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.admin_checkout_sessions(uuid, date, date, uuid, text, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_checkout_sessions(uuid, date, date, uuid, text, integer, integer) to authenticated;

-- As in 20261128009000_resume_continues_session.sql, saying "o plano" for a plan's session.
create or replace function private.recovery_email_outdated_reason(p_message public.email_outbox) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
begin
  select * into v_session from public.checkout_sessions s
   where s.id = private.uuid_or_null(split_part(p_message.idempotency_key, ':', 2));
  if split_part(p_message.idempotency_key, ':', 1) <> 'checkout_session' then
    return null;
  end if;
  return case
    when v_session.id is null then 'O checkout foi excluído.'
    when v_session.outcome = 'paid' then 'O pagamento já foi confirmado.'
    when v_session.outcome = 'closed' or private.checkout_session_owned(v_session)
      then case when v_session.plan_id is not null then 'O aluno já tem o plano.' else 'O aluno já tem o curso.' end
    when v_session.do_not_contact then 'A escola marcou "Não contatar".'
    when not (private.recovery_settings(v_session.school_id)).enabled then 'A escola desligou a recuperação de vendas.'
  end;
end $$;
revoke all on function private.recovery_email_outdated_reason(public.email_outbox) from public, anon, authenticated;
