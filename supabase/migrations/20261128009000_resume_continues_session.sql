-- Issue 41: the reopen link continues the abandoned session instead of starting a second one
-- (docs/recovery.md "The reopen link"). Before, resume_checkout_session only read the abandoned session and
-- the page's open_checkout_session (or the charge's trigger) opened a new one beside it, so a recovered
-- sale showed as two cards in Recuperação (the abandoned one and the paid one).
-- - resume_checkout_session: the buyer's abandoned session becomes their open one again (its touches, coupon,
--   bump, abandoned_at and touches_sent kept); a charge that can no longer be paid is let go (Pagar makes a
--   fresh one; the stage stays, so the method is pre-selected). An open session the buyer started meanwhile for the same offer is
--   folded into it (its pending charge taken over, the row deleted): one open session per buyer and offer
--   still holds. One that was itself a reopened session goes back to abandoned.
-- - Abandoning again (run_checkout_recovery, the payment's trigger): the hour without a charge counts from
--   the resume too; a session abandoned before keeps its first abandoned_at (the report's date) and its
--   sequence goes on from the next touch, never before that touch's own delay.
-- - private.checkout_session_owned(session): "the buyer has the offer", one place for the rules that judge a
--   session (…009001 extends it to plans).
set local lock_timeout = '5s';

-- The buyer has what the session sells (then it is closed, and no e-mail goes out).
create function private.checkout_session_owned(p_session public.checkout_sessions) returns boolean
language sql stable security definer set search_path = '' as $$
  select private.has_active_enrollment(p_session.user_id, p_session.course_id);
$$;
revoke all on function private.checkout_session_owned(public.checkout_sessions) from public, anon, authenticated;

-- When the sequence's next e-mail is due after an abandonment at p_at: the first abandonment's clock
-- (abandoned_at, kept when a reopened session is abandoned again) plus the next touch's delay, never
-- before p_at; null when every touch was sent.
create function private.checkout_next_touch(p_school_id uuid, p_abandoned_at timestamptz, p_touches_sent integer, p_at timestamptz)
returns timestamptz
language sql stable security definer set search_path = '' as $$
  select case when p_touches_sent < cardinality(d.delays)
              then greatest(p_at, coalesce(p_abandoned_at, p_at) + make_interval(mins => d.delays[p_touches_sent + 1])) end
    from (select (private.recovery_settings(p_school_id)).delays_minutes as delays) d;
$$;
revoke all on function private.checkout_next_touch(uuid, timestamptz, integer, timestamptz) from public, anon, authenticated;

-- ── The reopen link continues the session ───────────────────────────────────────────────────────
-- As in 20261128007000_checkout_sessions.sql, and: an abandoned session becomes the buyer's open one again.
create or replace function public.resume_checkout_session(p_session_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
  v_other public.checkout_sessions;
  v_payment public.payments;
  v_coupon public.coupons;
  v_slug text;
  v_payable boolean;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_session from public.checkout_sessions s where s.id = p_session_id and s.user_id = auth.uid() for update;
  if v_session.id is null or auth.uid() is null then
    raise exception 'Link de checkout não encontrado.' using errcode = 'P0002';
  end if;
  if v_session.outcome = 'abandoned' and not private.checkout_session_owned(v_session) then
    -- The open session the buyer started meanwhile for this course (one at most).
    select * into v_other from public.checkout_sessions s
     where s.user_id = v_session.user_id and s.course_id = v_session.course_id and s.outcome = 'open' for update;
    if v_other.id is not null and v_other.abandoned_at is null then
      -- A plain opening: folded in. Its charge, when it made one, is the newest: the session takes it.
      if v_other.payment_id is not null then
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
  return jsonb_build_object(
    'session_id', v_session.id, 'course_id', v_session.course_id, 'course_slug', v_slug,
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

-- ── Abandoned again: the charge's own end ───────────────────────────────────────────────────────
-- As in 20261128007000_checkout_sessions.sql, with a reopened session's first abandoned_at and sequence kept.
create or replace function private.checkout_sessions_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_session public.checkout_sessions;
begin
  select * into v_payment from public.payments p where p.id = new.id;
  if v_payment.id is null or v_payment.course_id is null or v_payment.subscription_id is not null then
    return null;
  end if;
  if v_payment.status in ('CONFIRMED', 'RECEIVED') then
    perform private.checkout_sessions_paid(v_payment);
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
revoke all on function private.checkout_sessions_on_payment() from public, anon, authenticated;

-- ── Why a recovery e-mail should no longer go out ───────────────────────────────────────────────
-- As in 20261128007000_checkout_sessions.sql, the offer judged by checkout_session_owned.
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
    when v_session.outcome = 'closed' or private.checkout_session_owned(v_session) then 'O aluno já tem o curso.'
    when v_session.do_not_contact then 'A escola marcou "Não contatar".'
    when not (private.recovery_settings(v_session.school_id)).enabled then 'A escola desligou a recuperação de vendas.'
  end;
end $$;
revoke all on function private.recovery_email_outdated_reason(public.email_outbox) from public, anon, authenticated;

-- ── The sequence's e-mail: what it says (…009001 adds the plan's) ───────────────────────────────
create function private.checkout_recovery_payload(p_session public.checkout_sessions, p_touch integer, p_last boolean, p_coupon public.coupons)
returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
     'name', coalesce(pr.name, ''), 'session_id', p_session.id, 'course_id', c.id, 'course_slug', c.slug,
     'course_title', c.title, 'amount', p_session.value, 'coupon_code', p_session.coupon_code,
     'with_bump', p_session.with_bump,
     'bump_title', case when p_session.with_bump then (select bc.title from public.course_bumps b join public.courses bc on bc.id = b.bump_course_id where b.course_id = c.id) end,
     'stage', p_session.stage, 'touch', p_touch, 'last_touch', p_last,
     'recovery_coupon', case when p_coupon.id is not null then jsonb_build_object(
        'code', p_coupon.code, 'percent', p_coupon.amount, 'valid_until', p_coupon.valid_until) end)
    from public.courses c left join public.profiles pr on pr.id = p_session.user_id
   where c.id = p_session.course_id;
$$;
revoke all on function private.checkout_recovery_payload(public.checkout_sessions, integer, boolean, public.coupons) from public, anon, authenticated;

-- ── The sequence ────────────────────────────────────────────────────────────────────────────────
-- As in 20261128007000_checkout_sessions.sql, and: the hour without a charge counts from the resume too; a
-- reopened session abandoned again keeps its first abandoned_at and goes on from its next touch; a PIX or
-- boleto stage with no charge to pay (one the resume let go, a plan's first invoice that did not arrive) waits
-- an hour like a card (a charge without a due date still waits for its own end, as before); the offer is judged
-- by checkout_session_owned; the e-mail's words come from checkout_recovery_payload.
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
    if not v_settings.enabled or v_session.do_not_contact or v_email is null
       or v_session.touches_sent >= cardinality(v_settings.delays_minutes)
       or exists (select 1 from public.email_unsubscribes u where u.user_id = v_session.user_id and u.kind = 'checkout_recovery') then
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

    v_n := v_session.touches_sent + 1;
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
revoke all on function public.run_checkout_recovery(timestamptz) from public, anon, authenticated;
grant execute on function public.run_checkout_recovery(timestamptz) to service_role;
