-- Issue 41, the outside attack on sales recovery (docs/recovery.md "Rules the attack asked for", docs/security.md):
-- - One payment recovers one sale (attack 1): checkout_sessions_paid marks paid only the session of the payment's
--   own offer (the one holding the charge, else the buyer's newest); the buyer's other sessions of that offer and
--   of the bump's course are closed. The totals count each payment once.
-- - A refunded or charged back sale is no longer recovered (attack 9): the totals count a paid session only while
--   its payment is still confirmed or received.
-- - One sequence per buyer and offer (attacks 4 and 11): a newer session of the same buyer and course (or plan)
--   stops the older ones' sequences, and the e-mails the offer's sessions sent in the last 30 days count, so
--   opening and leaving again continues the sequence instead of starting a new one (at most 3 e-mails and one
--   coupon). "Não contatar" stops every session of the buyer and offer, present and future.
-- - "Seu PIX expira em 1 hora" (attack 3) obeys the school's switch, "Não contatar", the unsubscribe and the one
--   e-mail a day (not written when a recovery e-mail went out in the last 24 h).
-- - A deactivated account gets no recovery e-mail (attack 6): skipped by the run, judged outdated at the send.
-- - Opening a checkout (attack 5) applies the turma rules of the quote and the charge: no session when no turma
--   of the course is on sale, a coupon limited to another turma is not kept, a bump not on sale is not kept.
-- - The reopen link's fold (attack 10) moves the folded session's staff contacts instead of deleting them.
-- - Recuperação's period (attack 8) is bounded with an end open: from defaults to 366 days before the end
--   (or today), and the span up to today is at most 366 days.
set local lock_timeout = '5s';

-- Why the buyer's lead for this offer gets no follow-up (null: none): "Não contatar" on any of the buyer's
-- sessions of the offer, the account deactivated, or the buyer stopped recovery e-mails.
create function private.checkout_lead_stopped(p_session public.checkout_sessions) returns text
language sql stable security definer set search_path = '' as $$
  select case
    when exists (select 1 from public.checkout_sessions s
                  where s.user_id = p_session.user_id and s.do_not_contact
                    and (s.id = p_session.id or s.course_id = p_session.course_id or s.plan_id = p_session.plan_id))
      then 'A escola marcou "Não contatar".'
    when not exists (select 1 from public.profiles p where p.id = p_session.user_id and p.is_active)
      then 'A conta do aluno está desativada.'
    when exists (select 1 from public.email_unsubscribes u where u.user_id = p_session.user_id and u.kind = 'checkout_recovery')
      then 'O aluno pediu para não receber este tipo de e-mail.'
  end;
$$;
revoke all on function private.checkout_lead_stopped(public.checkout_sessions) from public, anon, authenticated;

-- Recuperação's period: the first day, given or 366 days before the last (today when open); refused when the
-- span up to the last day (today when open) is longer than 366 days.
create function private.recovery_period_from(p_from date, p_to date) returns date
language plpgsql stable security definer set search_path = '' as $$
declare
  v_to date := coalesce(p_to, (now() at time zone 'America/Sao_Paulo')::date);
  v_from date := coalesce(p_from, v_to - 366);
begin
  if v_to < v_from or v_to - v_from > 366 then
    raise exception 'Período de até 366 dias.' using errcode = '22023';
  end if;
  return v_from;
end $$;
revoke all on function private.recovery_period_from(date, date) from public, anon, authenticated;

-- ── One payment, one recovered sale ─────────────────────────────────────────────────────────────
-- As in 20261128009001_plan_checkout_sessions.sql, and only one session is marked paid, among the buyer's
-- sessions of the payment's own course or plan (one closed earlier in this transaction counts, as before): the
-- lead that was abandoned (the sale it recovers, whichever session the charge was made from), else the one
-- holding the charge, else the newest. The buyer's other sessions of that offer and of the bump's course are closed: the bump
-- is part of the same sale. Called again for the same payment (the enrollment's trigger), nothing changes.
create or replace function private.checkout_sessions_paid(p_payment public.payments) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_plan_id uuid := (select sub.plan_id from public.subscriptions sub where sub.id = p_payment.subscription_id);
  v_id uuid;
begin
  if not exists (select 1 from public.checkout_sessions s where s.paid_payment_id = p_payment.id) then
    select s.id into v_id from public.checkout_sessions s
     where s.user_id = p_payment.user_id
       and (s.course_id = p_payment.course_id or s.plan_id = v_plan_id)
       and (s.outcome in ('open', 'abandoned') or (s.outcome = 'closed' and s.ended_at = now()))
     order by s.abandoned_at is not null desc, s.payment_id is not distinct from p_payment.id desc, s.opened_at desc
     limit 1
       for update;
    update public.checkout_sessions
       set outcome = 'paid', ended_at = coalesce(p_payment.paid_at, now()), paid_payment_id = p_payment.id,
           paid_value = p_payment.value, next_touch_at = null
     where id = v_id;
  end if;
  update public.checkout_sessions s
     set outcome = 'closed', ended_at = now(), next_touch_at = null
   where s.user_id = p_payment.user_id and s.outcome in ('open', 'abandoned')
     and (s.course_id in (select i.course_id from public.payment_items i where i.payment_id = p_payment.id and i.course_id is not null
                          union select p_payment.course_id where p_payment.course_id is not null)
          or s.plan_id = v_plan_id);
end $$;

-- ── Opening a checkout: the turma rules of the quote and the charge ─────────────────────────────
-- As in 20261128007004_open_checkout_session_guess_limit.sql, and as checkout_quote/create_checkout_payment
-- (20261128004201): null (no session) when the course has turmas and none is on sale to the buyer; a coupon
-- limited to another turma is not kept (the session's value is the quote's without it); the bump is kept
-- only while its own course sells a turma.
create or replace function public.open_checkout_session(p_course_id uuid, p_coupon_code text default null, p_with_bump boolean default false)
returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_user uuid := auth.uid();
  v_quote jsonb;
  v_sale record;
  v_with_bump boolean := coalesce(p_with_bump, false);
  v_id uuid;
begin
  perform private.refuse_while_password_change_pending();
  if v_user is null or not private.is_active() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if length(p_coupon_code) > 40 then
    p_coupon_code := null;
  end if;
  -- Refuses a course that is not on sale to this buyer, as the quote does, and counts a guessed code.
  v_quote := private.guarded_checkout_price(v_user, p_course_id, p_coupon_code, v_with_bump, private.request_ip());
  if private.has_active_enrollment(v_user, p_course_id) then
    return null;
  end if;
  select * into v_sale from private.selling_turma(p_course_id, v_user, false);
  if v_sale.has_turmas and (v_sale.turma).id is null then
    return null;
  end if;
  v_quote := private.without_other_turma_coupon(v_quote, (v_sale.turma).id);
  if v_with_bump and (v_quote -> 'bump' = 'null'::jsonb
       or coalesce(private.turma_offer((v_quote #>> '{bump,course_id}')::uuid, v_user) ->> 'state', 'open') <> 'open') then
    v_with_bump := false;
    v_quote := private.without_other_turma_coupon(
      private.checkout_price(v_user, p_course_id, v_quote -> 'coupon' ->> 'code', false, false), (v_sale.turma).id);
  end if;
  insert into public.checkout_sessions as s (school_id, user_id, course_id, with_bump, coupon_code, value)
  select c.school_id, v_user, c.id, v_with_bump, v_quote->'coupon'->>'code', (v_quote->>'total')::numeric
    from public.courses c where c.id = p_course_id
  on conflict (user_id, course_id) where outcome = 'open' do update
     set with_bump = excluded.with_bump, coupon_code = excluded.coupon_code,
         value = case when s.payment_id is null then excluded.value else s.value end
  returning s.id into v_id;
  return v_id;
end $$;

-- ── "Não contatar": the buyer and the offer ─────────────────────────────────────────────────────
-- As in 20261128007000_checkout_sessions.sql, for every session of the buyer and the card's course or plan
-- (a session opened later is covered by checkout_lead_stopped).
create or replace function public.set_checkout_do_not_contact(p_session_id uuid, p_do_not_contact boolean) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
begin
  perform private.refuse_while_password_change_pending();
  v_session := private.staff_session(p_session_id);
  update public.checkout_sessions s set do_not_contact = coalesce(p_do_not_contact, true)
   where s.id = v_session.id
      or (s.user_id = v_session.user_id and (s.course_id = v_session.course_id or s.plan_id = v_session.plan_id));
  return coalesce(p_do_not_contact, true);
end $$;

-- ── The e-mail judged at the send ───────────────────────────────────────────────────────────────
-- As in 20261128009001_plan_checkout_sessions.sql, with the lead's stops (checkout_lead_stopped).
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
    when not (private.recovery_settings(v_session.school_id)).enabled then 'A escola desligou a recuperação de vendas.'
    else private.checkout_lead_stopped(v_session)
  end;
end $$;

-- ── The numbers: each payment once, and only while it holds ─────────────────────────────────────
-- As in 20261128007000_checkout_sessions.sql, and: the period is bounded with an end open
-- (recovery_period_from); a recovered sale counts once per payment, and only while that payment is confirmed
-- or received (a refund or a chargeback takes it out of recovered and of recovered_revenue).
create or replace function public.admin_recovery_totals(
  p_school_id uuid default null, p_from date default null, p_to date default null, p_course_id uuid default null
) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_result jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  p_from := private.recovery_period_from(p_from, p_to);
  with sessions as (
    select s.*, case when s.outcome = 'paid' then private.recovery_touch_before(s.id, s.ended_at) end as touch
      from public.checkout_sessions s
     where s.school_id = v_school and s.abandoned_at is not null
       and s.abandoned_at >= (p_from::timestamp at time zone 'America/Sao_Paulo')
       and (p_to is null or s.abandoned_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'))
       and (p_course_id is null or s.course_id = p_course_id)
  ), recovered as (
    select distinct on (s.paid_payment_id) s.id, s.paid_value, (s.touch).kind as kind, (s.touch).touch_number as touch_number
      from sessions s join public.payments p on p.id = s.paid_payment_id
     where (s.touch).id is not null and p.status in ('CONFIRMED', 'RECEIVED')
     order by s.paid_payment_id, s.ended_at, s.id
  )
  select jsonb_build_object(
    'abandoned', (select count(*) from sessions),
    'recovered', (select count(*) from recovered),
    'recovered_revenue', (select coalesce(sum(paid_value), 0) from recovered),
    'by_touch', (select jsonb_agg(jsonb_build_object(
                   'touch', n, 'sent', sent, 'recovered', won,
                   'conversion', case when sent > 0 then round(won::numeric / sent, 4) end) order by n)
                   from (select n,
                                (select count(*) from public.checkout_session_touches t join sessions s on s.id = t.session_id
                                  where t.kind = 'email' and t.touch_number = n) as sent,
                                (select count(*) from recovered r where r.kind = 'email' and r.touch_number = n) as won
                           from generate_series(1, 3) n) x),
    'by_staff', jsonb_build_object(
      'contacted', (select count(distinct t.session_id) from public.checkout_session_touches t join sessions s on s.id = t.session_id where t.kind <> 'email'),
      'recovered', (select count(*) from recovered r where r.kind <> 'email'))
  ) into v_result;
  return v_result;
end $$;

-- As in 20261128009001_plan_checkout_sessions.sql, with the period bounded (recovery_period_from).
create or replace function public.admin_checkout_sessions(
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
  p_from := private.recovery_period_from(p_from, p_to);
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
     and s.opened_at >= (p_from::timestamp at time zone 'America/Sao_Paulo')
     and (p_to is null or s.opened_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'))
     and (p_course_id is null or s.course_id = p_course_id)
     and (p_stage is null or s.stage = p_stage or s.outcome = p_stage)
   order by s.opened_at desc, s.id
   limit least(greatest(coalesce(p_limit, 25), 1), 500)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;

-- ── The reopen link's fold keeps the staff's contacts ───────────────────────────────────────────
-- As in 20261128009001_plan_checkout_sessions.sql, and the folded open session's staff contacts and
-- "Não contatar" move to the continued session before its row is deleted.
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
      -- Its staff contacts (and a "Não contatar") stay with the buyer's lead: moved, not deleted with the row.
      update public.checkout_session_touches set session_id = v_session.id where session_id = v_other.id and kind <> 'email';
      update public.checkout_sessions set do_not_contact = do_not_contact or v_other.do_not_contact
       where id = v_session.id returning * into v_session;
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

-- ── The sequence ────────────────────────────────────────────────────────────────────────────────
-- As in 20261128009000_resume_continues_session.sql, and: "Seu PIX expira em 1 hora" only with the school's
-- switch on, no stop on the lead and no recovery e-mail to the buyer in the last 24 h; the sequence's e-mails
-- skip a stopped lead (checkout_lead_stopped: "Não contatar" on any session of the offer, the account
-- deactivated, unsubscribed) and a session a newer one of the same offer took over, and number themselves in
-- the buyer's sequence for the offer (the e-mails of its sessions in the last 30 days).
create or replace function public.run_checkout_recovery(p_now timestamptz default now()) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_abandoned integer := 0;
  v_pix integer := 0;
  v_touches integer := 0;
  v_settings public.school_recovery_settings;
  v_session public.checkout_sessions;
  v_coupon public.coupons;
  v_email text;
  v_last timestamptz;
  v_n integer;
  v_email_id uuid;
  r record;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;

  -- 1. Abandoned: no charge (or a refused card) 1 h after opening, the charge or the resume; a charge unpaid past its end.
  with due as (
    select s.id, private.checkout_session_owned(s) as owned,
           least(p_now, case when s.stage in ('pix', 'boleto') and s.expires_at is not null then s.expires_at
                             else greatest(coalesce(s.charge_at, s.opened_at), s.resumed_at) + interval '1 hour' end) as at
      from public.checkout_sessions s
     where s.outcome = 'open'
       and ((s.stage in ('pix', 'boleto') and s.expires_at <= p_now)
         or ((s.stage in ('opened', 'card', 'card_refused') or (s.expires_at is null and s.payment_id is null))
             and greatest(coalesce(s.charge_at, s.opened_at), s.resumed_at) <= p_now - interval '1 hour'))
  ), gone as (
    update public.checkout_sessions s
       set outcome = case when due.owned then 'closed' else 'abandoned' end,
           ended_at = case when due.owned then p_now end,
           abandoned_at = coalesce(s.abandoned_at, due.at),
           next_touch_at = case when not due.owned then private.checkout_next_touch(s.school_id, s.abandoned_at, s.touches_sent, due.at) end
      from due
     where s.id = due.id and s.outcome = 'open'
    returning s.outcome)
  select count(*) filter (where outcome = 'abandoned') into v_abandoned from gone;

  -- 2. "Seu PIX expira em 1 hora", with the pending message's copia e cola.
  for r in
    select s.school_id, s.user_id, p.id as payment_id, s.expires_at, o.to_email, o.payload
      from public.checkout_sessions s
      join public.payments p on p.id = s.payment_id
      join public.email_outbox o on o.school_id = p.school_id and o.idempotency_key = 'payment:' || p.id || ':pending'
     where s.outcome = 'open' and s.stage = 'pix' and p.status = 'PENDING' and p.replaced_by is null
       and s.expires_at > p_now and s.expires_at <= p_now + interval '1 hour'
       -- Part of the follow-up: the same stops as the sequence, and the day's one e-mail of this kind.
       and (private.recovery_settings(s.school_id)).enabled
       and private.checkout_lead_stopped(s) is null
       and not exists (select 1 from public.checkout_session_touches t join public.checkout_sessions o on o.id = t.session_id
                        where o.user_id = s.user_id and t.kind = 'email' and t.created_at > p_now - interval '24 hours')
  loop
    if private.enqueue_email(r.school_id, r.user_id, r.to_email, 'pix_expiring', 'payment:' || r.payment_id || ':pix_expiring',
         r.payload || jsonb_build_object('expires_at', r.expires_at)) is not null then
      v_pix := v_pix + 1;
    end if;
  end loop;

  -- 3. The sequence's e-mails, each under its session's row lock: a payment's event waits for it (and the
  -- message written is then judged outdated before it is sent), or it skips a session the event holds.
  for r in
    select s.id from public.checkout_sessions s
     where s.outcome = 'abandoned' and s.next_touch_at <= p_now
     order by s.next_touch_at limit 500
  loop
    select * into v_session from public.checkout_sessions s
     where s.id = r.id and s.outcome = 'abandoned' and s.next_touch_at <= p_now
       for update skip locked;
    continue when v_session.id is null;
    v_settings := private.recovery_settings(v_session.school_id);
    v_email := private.account_email(v_session.user_id);
    if not v_settings.enabled or private.checkout_lead_stopped(v_session) is not null or v_email is null
       or v_session.touches_sent >= cardinality(v_settings.delays_minutes)
       -- One sequence per buyer and offer: a newer session of the same offer has taken it over.
       or exists (select 1 from public.checkout_sessions n
                   where n.user_id = v_session.user_id and n.id <> v_session.id and n.opened_at > v_session.opened_at
                     and (n.course_id = v_session.course_id or n.plan_id = v_session.plan_id)) then
      update public.checkout_sessions set next_touch_at = null where id = v_session.id;
      continue;
    end if;
    if private.checkout_session_owned(v_session) then
      update public.checkout_sessions set outcome = 'closed', ended_at = p_now, next_touch_at = null where id = v_session.id;
      continue;
    end if;
    -- At most one a day per buyer, whatever the session: the buyer's lock makes two runs agree.
    perform pg_advisory_xact_lock(hashtext('checkout_recovery:' || v_session.user_id::text));
    select max(x.at) into v_last from (
      select t.created_at as at
        from public.checkout_session_touches t join public.checkout_sessions s on s.id = t.session_id
       where s.user_id = v_session.user_id and t.kind = 'email' and t.created_at > p_now - interval '24 hours'
      union all
      -- The boleto reminder and "Seu PIX expira em 1 hora" take the day's slot too.
      select o.created_at from public.email_outbox o
       where o.user_id = v_session.user_id and o.kind in ('payment_reminder', 'pix_expiring')
         and o.status in ('queued', 'sending', 'sent') and o.created_at > p_now - interval '24 hours') x;
    if v_last is not null then
      update public.checkout_sessions set next_touch_at = v_last + interval '24 hours' where id = v_session.id;
      continue;
    end if;

    -- The buyer's sequence for this offer: the e-mails its other sessions sent in the last 30 days count, so
    -- opening and leaving again continues it (the next touch, at its own delay) instead of starting over.
    select count(*) + 1 into v_n
      from public.checkout_session_touches t join public.checkout_sessions o on o.id = t.session_id
     where o.user_id = v_session.user_id and (o.course_id = v_session.course_id or o.plan_id = v_session.plan_id)
       and t.kind = 'email' and t.created_at > p_now - interval '30 days';
    v_n := greatest(v_n, v_session.touches_sent + 1);
    if v_n > cardinality(v_settings.delays_minutes) then
      update public.checkout_sessions set next_touch_at = null where id = v_session.id;
      continue;
    end if;
    if v_n > v_session.touches_sent + 1 and v_session.abandoned_at + make_interval(mins => v_settings.delays_minutes[v_n]) > p_now then
      update public.checkout_sessions
         set touches_sent = v_n - 1, next_touch_at = abandoned_at + make_interval(mins => v_settings.delays_minutes[v_n])
       where id = v_session.id;
      continue;
    end if;
    v_coupon := null;
    if v_n = cardinality(v_settings.delays_minutes) and v_settings.coupon_percent is not null then
      v_coupon := private.create_recovery_coupon(v_session, v_settings.coupon_percent, p_now);
    end if;
    v_email_id := private.enqueue_email(v_session.school_id, v_session.user_id, v_email, 'checkout_recovery',
      'checkout_session:' || v_session.id || ':' || v_n,
      private.checkout_recovery_payload(v_session, v_n, v_n = cardinality(v_settings.delays_minutes), v_coupon));
    insert into public.checkout_session_touches (session_id, school_id, kind, touch_number, email_id, created_at)
    values (v_session.id, v_session.school_id, 'email', v_n, v_email_id, p_now);
    update public.checkout_sessions
       set touches_sent = v_n, recovery_coupon_id = coalesce(v_coupon.id, recovery_coupon_id),
           next_touch_at = case when v_n < cardinality(v_settings.delays_minutes)
                                then abandoned_at + make_interval(mins => v_settings.delays_minutes[v_n + 1]) end
     where id = v_session.id;
    v_touches := v_touches + 1;
  end loop;

  return jsonb_build_object('abandoned', v_abandoned, 'pix_expiring', v_pix, 'touches', v_touches);
end $$;

