-- Issue 41: the recovery coupon was valid only from the run's own clock minus a minute. A run whose clock is
-- ahead of the database's (a test clock; pg_cron's runs pass now()) made a coupon not yet valid at the send,
-- answered as an unknown code. It is valid from the earlier of the two. As in 20261128007000_checkout_sessions.sql
-- otherwise.
set local lock_timeout = '5s';

create or replace function private.create_recovery_coupon(p_session public.checkout_sessions, p_percent numeric, p_now timestamptz)
returns public.coupons
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_coupon public.coupons;
begin
  insert into public.coupons (school_id, code, kind, amount, valid_from, valid_until, max_uses, max_uses_per_buyer, all_courses, buyer_id)
  values (p_session.school_id, 'RECUPERA-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10)), 'percent', p_percent,
          least(p_now, now()) - interval '1 minute', p_now + interval '48 hours', 1, 1, false, p_session.user_id)
  returning * into v_coupon;
  insert into public.coupon_courses (coupon_id, course_id) values (v_coupon.id, p_session.course_id);
  return v_coupon;
end $$;
revoke all on function private.create_recovery_coupon(public.checkout_sessions, numeric, timestamptz) from public, anon, authenticated;
