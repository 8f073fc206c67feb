-- Issue 41: open_checkout_session was an unlimited coupon-code oracle. It kept a code only when it applied,
-- and resume_checkout_session gives the buyer their session's code back: open with a guess, resume, and the
-- answer says whether the code exists, past the guess limit of issue 37 (docs/selling.md). The code is now
-- looked up as checkout_quote looks it up (private.guarded_checkout_price): a miss counts against the
-- account's and the address's budgets, and past them the call is refused (PT429, "Muitas tentativas de
-- cupom…"). The same code in the quote and here counts once. As in 20261128007000_checkout_sessions.sql otherwise.
set local lock_timeout = '5s';

create or replace function public.open_checkout_session(p_course_id uuid, p_coupon_code text default null, p_with_bump boolean default false)
returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_user uuid := auth.uid();
  v_quote jsonb;
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
  v_quote := private.guarded_checkout_price(v_user, p_course_id, p_coupon_code, coalesce(p_with_bump, false), private.request_ip());
  if private.has_active_enrollment(v_user, p_course_id) then
    return null;
  end if;
  insert into public.checkout_sessions as s (school_id, user_id, course_id, with_bump, coupon_code, value)
  select c.school_id, v_user, c.id, coalesce(p_with_bump, false), v_quote->'coupon'->>'code', (v_quote->>'total')::numeric
    from public.courses c where c.id = p_course_id
  on conflict (user_id, course_id) where outcome = 'open' do update
     set with_bump = excluded.with_bump, coupon_code = excluded.coupon_code,
         value = case when s.payment_id is null then excluded.value else s.value end
  returning s.id into v_id;
  return v_id;
end $$;
revoke all on function public.open_checkout_session(uuid, text, boolean) from public, anon, authenticated;
grant execute on function public.open_checkout_session(uuid, text, boolean) to authenticated;
