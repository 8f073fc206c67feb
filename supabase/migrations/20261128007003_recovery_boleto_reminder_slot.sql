-- Issue 41: the boleto reminder joins the recovery sequence. "Lembrete de boleto" (queue_daily_emails) and
-- "Seu PIX expira em 1 hora" are e-mails of the same follow-up: a buyer who got one of them in the last 24 hours
-- gets no recovery e-mail before that day is over (the touch waits, as for a recovery e-mail of another
-- session). Both already stop with the payment (private.email_outdated_reason). run_checkout_recovery is as in
-- 20261128007000_checkout_sessions.sql but for the day's slot.
set local lock_timeout = '5s';

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

  -- 1. Abandoned: no charge (or a refused card) 1 h after opening; a charge unpaid past its end.
  with gone as (
    update public.checkout_sessions s
       set outcome = case when private.has_active_enrollment(s.user_id, s.course_id) then 'closed' else 'abandoned' end,
           ended_at = case when private.has_active_enrollment(s.user_id, s.course_id) then p_now end,
           abandoned_at = least(p_now, case when s.stage in ('pix', 'boleto') and s.expires_at is not null then s.expires_at
                                            else coalesce(s.charge_at, s.opened_at) + interval '1 hour' end),
           next_touch_at = least(p_now, case when s.stage in ('pix', 'boleto') and s.expires_at is not null then s.expires_at
                                             else coalesce(s.charge_at, s.opened_at) + interval '1 hour' end)
                           + make_interval(mins => (private.recovery_settings(s.school_id)).delays_minutes[1])
     where s.outcome = 'open'
       and ((s.stage in ('opened', 'card', 'card_refused') and coalesce(s.charge_at, s.opened_at) <= p_now - interval '1 hour')
         or (s.stage in ('pix', 'boleto') and s.expires_at <= p_now))
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
    if private.has_active_enrollment(v_session.user_id, v_session.course_id) then
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
      (select jsonb_build_object(
         'name', coalesce(pr.name, ''), 'session_id', v_session.id, 'course_id', c.id, 'course_slug', c.slug,
         'course_title', c.title, 'amount', v_session.value, 'coupon_code', v_session.coupon_code,
         'with_bump', v_session.with_bump,
         'bump_title', case when v_session.with_bump then (select bc.title from public.course_bumps b join public.courses bc on bc.id = b.bump_course_id where b.course_id = c.id) end,
         'stage', v_session.stage, 'touch', v_n, 'last_touch', v_n = cardinality(v_settings.delays_minutes),
         'recovery_coupon', case when v_coupon.id is not null then jsonb_build_object(
            'code', v_coupon.code, 'percent', v_coupon.amount, 'valid_until', v_coupon.valid_until) end)
         from public.courses c left join public.profiles pr on pr.id = v_session.user_id
        where c.id = v_session.course_id));
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
