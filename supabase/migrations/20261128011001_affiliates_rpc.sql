-- Issue 43, the functions of afiliados e coprodução (docs/affiliates.md): applying, staff decisions, the wallet
-- (service role only: the affiliate-wallet function validates it at Asaas first), clicks, attribution at
-- sign-in, the commissions of a checkout (computed here, sent by create-asaas-charge as Asaas's split), the
-- ledger following the payment and the split's events, the affiliate's panel and the staff's lists.
set local lock_timeout = '5s';

-- ── Applying and deciding ───────────────────────────────────────────────────────────────────────
-- "Quero ser afiliado" on a course whose program is on: one affiliate row per account and school, approved at
-- once when the course's approval is automatic. A refused or blocked affiliate stays so (only staff change it).
create function public.apply_as_affiliate(p_course_id uuid) returns public.affiliates
language plpgsql security definer set search_path = '' as $$
declare
  v_program public.affiliate_programs;
  v_affiliate public.affiliates;
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select p.* into v_program from public.affiliate_programs p join public.courses c on c.id = p.course_id
   where p.course_id = p_course_id and p.enabled and c.status = 'PUBLISHED' and p.school_id = private.my_school_id();
  if v_program.course_id is null then
    raise exception 'Este curso não tem programa de afiliados.' using errcode = '22023';
  end if;
  insert into public.affiliates (school_id, user_id, code, status, decided_at)
  values (v_program.school_id, auth.uid(), substr(md5(gen_random_uuid()::text), 1, 8),
          case when v_program.approval = 'automatic' then 'approved' else 'pending' end,
          case when v_program.approval = 'automatic' then now() end)
  on conflict (school_id, user_id) do nothing;
  select * into v_affiliate from public.affiliates a where a.school_id = v_program.school_id and a.user_id = auth.uid();
  -- Applying again to an automatic course approves a pending application; never a refused or blocked one.
  if v_affiliate.status = 'pending' and v_program.approval = 'automatic' then
    update public.affiliates set status = 'approved', decided_at = now() where id = v_affiliate.id returning * into v_affiliate;
  end if;
  return v_affiliate;
end $$;
revoke all on function public.apply_as_affiliate(uuid) from public, anon, authenticated;
grant execute on function public.apply_as_affiliate(uuid) to authenticated;

-- Staff approve, refuse or block (Afiliados). Nobody decides their own application.
create function public.decide_affiliate(p_affiliate_id uuid, p_status text) returns public.affiliates
language plpgsql security definer set search_path = '' as $$
declare
  v_affiliate public.affiliates;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_affiliate from public.affiliates a where a.id = p_affiliate_id for update;
  if v_affiliate.id is null or not private.is_school_staff(v_affiliate.school_id) or v_affiliate.user_id = auth.uid() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_status is null or p_status not in ('approved', 'refused', 'blocked') then
    raise exception 'Situação inválida.' using errcode = '22023';
  end if;
  update public.affiliates set status = p_status, decided_at = now(), decided_by = auth.uid()
   where id = p_affiliate_id returning * into v_affiliate;
  return v_affiliate;
end $$;
revoke all on function public.decide_affiliate(uuid, text) from public, anon, authenticated;
grant execute on function public.decide_affiliate(uuid, text) to authenticated;

-- The affiliate's own wallet, after Asaas accepted it (the affiliate-wallet function, service role only).
create function public.set_affiliate_wallet(p_user_id uuid, p_wallet_id text) returns public.affiliates
language plpgsql security definer set search_path = '' as $$
declare
  v_affiliate public.affiliates;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  update public.affiliates a set wallet_id = lower(p_wallet_id), wallet_validated_at = now()
   where a.user_id = p_user_id and a.school_id = (select pr.school_id from public.profiles pr where pr.id = p_user_id)
  returning * into v_affiliate;
  if v_affiliate.id is null then
    raise exception 'Você ainda não é afiliado.' using errcode = '22023';
  end if;
  return v_affiliate;
end $$;
revoke all on function public.set_affiliate_wallet(uuid, text) from public, anon, authenticated;
grant execute on function public.set_affiliate_wallet(uuid, text) to service_role;

-- ── Clicks and attribution ──────────────────────────────────────────────────────────────────────
-- A visit of an approved affiliate's link to a course with the program on: one more on today's count (São
-- Paulo), up to 10,000 a day per link. Anyone may call it; it records nothing about the caller.
create function public.record_affiliate_click(p_course_id uuid, p_code text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v_affiliate_id uuid;
  v_school_id uuid;
begin
  -- Anonymous visitors too (nothing pending for them); a signed-in account with a password change pending is refused.
  perform private.refuse_while_password_change_pending();
  if p_code is null or p_code !~ '^[a-z0-9]{8}$' then
    return false;
  end if;
  select a.id, a.school_id into v_affiliate_id, v_school_id
    from public.affiliates a
    join public.affiliate_programs p on p.school_id = a.school_id and p.course_id = p_course_id and p.enabled
   where a.code = p_code and a.status = 'approved';
  if v_affiliate_id is null then
    return false;
  end if;
  insert into public.affiliate_clicks as k (affiliate_id, course_id, school_id, day)
  values (v_affiliate_id, p_course_id, v_school_id, (now() at time zone 'America/Sao_Paulo')::date)
  on conflict (affiliate_id, course_id, day) do update set clicks = least(k.clicks + 1, 10000);
  return true;
end $$;
revoke all on function public.record_affiliate_click(uuid, text) from public, anon, authenticated;
grant execute on function public.record_affiliate_click(uuid, text) to anon, authenticated;

-- At sign-in (and at the checkout), the code kept in first-party storage becomes the account's attribution:
-- the last one wins. p_clicked_at is when the link was opened, never later than now; the window is checked
-- at the purchase. Not one's own code, nor a code that is not approved in the caller's school.
create function public.attach_affiliate_attribution(p_code text, p_clicked_at timestamptz) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v_affiliate public.affiliates;
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_code is null or p_code !~ '^[a-z0-9]{8}$' or p_clicked_at is null then
    return false;
  end if;
  select * into v_affiliate from public.affiliates a
   where a.code = p_code and a.school_id = private.my_school_id() and a.status = 'approved' and a.user_id <> auth.uid();
  if v_affiliate.id is null then
    return false;
  end if;
  insert into public.affiliate_attributions as t (user_id, school_id, affiliate_id, clicked_at)
  values (auth.uid(), v_affiliate.school_id, v_affiliate.id, least(p_clicked_at, now()))
  on conflict (user_id) do update
    set affiliate_id = excluded.affiliate_id, school_id = excluded.school_id,
        clicked_at = excluded.clicked_at, attached_at = now()
    -- An older click never replaces a newer one (two tabs, an old storage).
    where t.clicked_at <= excluded.clicked_at;
  return true;
end $$;
revoke all on function public.attach_affiliate_attribution(text, timestamptz) from public, anon, authenticated;
grant execute on function public.attach_affiliate_attribution(text, timestamptz) to authenticated;

-- ── The commissions of one checkout (create-asaas-charge, service role) ─────────────────────────
-- Writes the payment's shares, pending, and returns them for the charge's split: the attributed affiliate's
-- (approved, with a wallet, not the buyer, clicked within the course's window) and every co-producer's, each a
-- percentage of the amount paid for the course (after its coupon), rounded down to the cent. Called again for
-- the same payment it writes nothing new and returns the same shares.
create function public.checkout_commissions(p_payment_id uuid)
returns table (kind text, wallet_id text, value numeric)
language plpgsql security definer set search_path = '' as $$
#variable_conflict use_column
declare
  v_payment public.payments;
  v_base numeric(10, 2);
  v_program public.affiliate_programs;
  v_affiliate public.affiliates;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_payment from public.payments p where p.id = p_payment_id;
  if v_payment.id is null then
    raise exception 'payment not found' using errcode = '22023';
  end if;
  select i.value into v_base from public.payment_items i where i.payment_id = p_payment_id and i.kind = 'course';
  if v_payment.status = 'PENDING' and v_base is not null
     and not exists (select 1 from public.commissions c where c.payment_id = p_payment_id) then
    select * into v_program from public.affiliate_programs p where p.course_id = v_payment.course_id and p.enabled;
    if v_program.course_id is not null then
      select a.* into v_affiliate
        from public.affiliate_attributions t join public.affiliates a on a.id = t.affiliate_id
       where t.user_id = v_payment.user_id and a.school_id = v_payment.school_id
         and a.status = 'approved' and a.wallet_id is not null and a.user_id <> v_payment.user_id
         and t.clicked_at >= v_payment.created_at - make_interval(days => v_program.cookie_days);
      if v_affiliate.id is not null and trunc(v_base * v_program.commission_percent / 100, 2) > 0 then
        insert into public.commissions (school_id, payment_id, course_id, kind, affiliate_id, wallet_id, base, percent, value)
        values (v_payment.school_id, p_payment_id, v_payment.course_id, 'affiliate', v_affiliate.id, v_affiliate.wallet_id,
                v_base, v_program.commission_percent, trunc(v_base * v_program.commission_percent / 100, 2))
        on conflict (payment_id, wallet_id) do nothing;
      end if;
    end if;
    insert into public.commissions (school_id, payment_id, course_id, kind, coproducer_id, wallet_id, base, percent, value)
    select v_payment.school_id, p_payment_id, v_payment.course_id, 'coproducer', cp.id, cp.wallet_id, v_base, cp.percent,
           trunc(v_base * cp.percent / 100, 2)
      from public.course_coproducers cp
     where cp.course_id = v_payment.course_id and trunc(v_base * cp.percent / 100, 2) > 0
    on conflict (payment_id, wallet_id) do nothing;
  end if;
  return query select c.kind, c.wallet_id, c.value from public.commissions c
    where c.payment_id = p_payment_id and c.status <> 'reversed' order by c.kind, c.wallet_id;
end $$;
revoke all on function public.checkout_commissions(uuid) from public, anon, authenticated;
grant execute on function public.checkout_commissions(uuid) to service_role;

-- The split ids Asaas answered the charge with ([{ id, walletId, status }]), matched by wallet.
create function public.record_commission_splits(p_payment_id uuid, p_splits jsonb) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_count integer;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if jsonb_typeof(p_splits) <> 'array' then
    return 0;
  end if;
  update public.commissions c
     set provider_split_id = s ->> 'id', split_status = coalesce(left(s ->> 'status', 40), c.split_status)
    from jsonb_array_elements(p_splits) s
   where c.payment_id = p_payment_id and c.wallet_id = lower(s ->> 'walletId') and c.provider_split_id is null
     and length(s ->> 'id') between 1 and 100;
  get diagnostics v_count = row_count;
  return v_count;
end $$;
revoke all on function public.record_commission_splits(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.record_commission_splits(uuid, jsonb) to service_role;

-- ── The ledger follows the payment ──────────────────────────────────────────────────────────────
-- Paid: confirmed. Refunded, charged back, removed or failed: reversed (Asaas reverses or cancels the split).
-- Available comes from the split's own event (apply_split_event), when Asaas settles it.
create function private.commissions_follow_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status in ('CONFIRMED', 'RECEIVED') and old.status not in ('CONFIRMED', 'RECEIVED') then
    update public.commissions set status = 'confirmed', confirmed_at = now()
     where payment_id = new.id and status = 'pending';
  elsif new.status in ('REFUNDED', 'CHARGEBACK', 'DELETED', 'FAILED') and old.status is distinct from new.status then
    update public.commissions set status = 'reversed', reversed_at = now()
     where payment_id = new.id and status <> 'reversed';
  end if;
  return null;
end $$;
revoke all on function private.commissions_follow_payment() from public, anon, authenticated;
create trigger payments_commissions after update of status on public.payments
  for each row execute function private.commissions_follow_payment();

-- ── The split's events (asaas-webhook, after the school's token) ────────────────────────────────
-- PAYMENT_SPLIT_DONE (additionalInfo.splitId), PAYMENT_SPLIT_CANCELLED, PAYMENT_SPLIT_DIVERGENCE_BLOCK and
-- _FINISHED carry the payment and its `split` list ([{ id, walletId, status }]). Only a split we recorded (its
-- id, on a payment of this school found by Asaas's id) changes: DONE on a paid payment makes the share
-- available, CANCELLED or REFUNDED reverses it; anything else is recorded as 'mismatch' and changes nothing.
create function public.apply_split_event(
  p_school_id uuid, p_event_id text, p_event text, p_provider_payment_id text, p_splits jsonb, p_split_id text
) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_changed integer := 0;
  v_outcome text;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select * into v_payment from public.payments p
   where p.school_id = p_school_id and p.provider = 'asaas' and p.provider_payment_id = p_provider_payment_id;
  insert into private.payment_events (provider, event_id, event, provider_payment_id, payment_id, school_id, outcome)
  values ('asaas', p_event_id, p_event, p_provider_payment_id, v_payment.id, p_school_id, 'pending')
  on conflict (school_id, provider, event_id) do nothing;
  if not found then
    return 'duplicate';
  end if;
  if v_payment.id is not null then
    with reported as (
      select s ->> 'id' as split_id, upper(s ->> 'status') as status
        from jsonb_array_elements(case when jsonb_typeof(p_splits) = 'array' then p_splits else '[]' end) s
      union all
      select p_split_id, 'DONE' where p_event = 'PAYMENT_SPLIT_DONE' and p_split_id is not null
    ), applied as (
      update public.commissions c
         set split_status = left(r.status, 40),
             status = case when r.status = 'DONE' and c.status in ('confirmed', 'pending') and v_payment.status in ('CONFIRMED', 'RECEIVED') then 'available'
                           when r.status in ('CANCELLED', 'REFUNDED') then 'reversed'
                           else c.status end,
             available_at = case when r.status = 'DONE' and c.status in ('confirmed', 'pending') and v_payment.status in ('CONFIRMED', 'RECEIVED') then now() else c.available_at end,
             reversed_at = case when r.status in ('CANCELLED', 'REFUNDED') and c.status <> 'reversed' then now() else c.reversed_at end
        from (select distinct on (split_id) split_id, status from reported where status is not null order by split_id, status = 'DONE' desc) r
       where c.payment_id = v_payment.id and c.provider_split_id = r.split_id
         -- A reversed share stays reversed.
         and c.status <> 'reversed'
      returning 1
    )
    select count(*) into v_changed from applied;
  end if;
  v_outcome := case when v_changed > 0 then 'split_updated' else 'mismatch' end;
  update private.payment_events set outcome = v_outcome where school_id = p_school_id and provider = 'asaas' and event_id = p_event_id;
  return v_outcome;
end $$;
revoke all on function public.apply_split_event(uuid, text, text, text, jsonb, text) from public, anon, authenticated;
grant execute on function public.apply_split_event(uuid, text, text, text, jsonb, text) to service_role;

-- ── The affiliate's panel ───────────────────────────────────────────────────────────────────────
-- The caller's affiliation in their school and, once approved, per course with the program on: the link's
-- parts, the materials, and in the period (São Paulo dates, inclusive, at most 366 days; the last 30 by
-- default) clicks, sales and commissions by state.
create function public.affiliate_panel(p_from date default null, p_to date default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_to date := coalesce(p_to, (now() at time zone 'America/Sao_Paulo')::date);
  v_from date := coalesce(p_from, coalesce(p_to, (now() at time zone 'America/Sao_Paulo')::date) - 29);
  v_affiliate public.affiliates;
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if v_to < v_from or v_to - v_from > 366 then
    raise exception 'Período de até 366 dias.' using errcode = '22023';
  end if;
  select * into v_affiliate from public.affiliates a where a.user_id = auth.uid() and a.school_id = private.my_school_id();
  if v_affiliate.id is null then
    return jsonb_build_object('affiliate', null, 'courses', '[]'::jsonb);
  end if;
  return jsonb_build_object(
    'affiliate', jsonb_build_object('id', v_affiliate.id, 'code', v_affiliate.code, 'status', v_affiliate.status,
                                    'wallet_id', v_affiliate.wallet_id, 'wallet_validated_at', v_affiliate.wallet_validated_at),
    'school_slug', (select s.slug from public.schools s where s.id = v_affiliate.school_id),
    'from', v_from, 'to', v_to,
    'courses', coalesce((
      select jsonb_agg(jsonb_build_object(
               'course_id', c.id, 'title', c.title, 'slug', c.slug,
               'commission_percent', p.commission_percent, 'cookie_days', p.cookie_days,
               'materials_text', p.materials_text, 'materials_links', p.materials_links,
               'clicks', coalesce((select sum(k.clicks) from public.affiliate_clicks k
                                    where k.affiliate_id = v_affiliate.id and k.course_id = c.id and k.day between v_from and v_to), 0),
               'sales', (select count(*) from public.commissions m
                          where m.affiliate_id = v_affiliate.id and m.course_id = c.id and m.status in ('confirmed', 'available')
                            and m.created_at >= (v_from::timestamp at time zone 'America/Sao_Paulo')
                            and m.created_at < ((v_to + 1)::timestamp at time zone 'America/Sao_Paulo')),
               'commissions', (select jsonb_build_object(
                                 'pending', coalesce(sum(m.value) filter (where m.status = 'pending'), 0),
                                 'confirmed', coalesce(sum(m.value) filter (where m.status = 'confirmed'), 0),
                                 'available', coalesce(sum(m.value) filter (where m.status = 'available'), 0),
                                 'reversed', coalesce(sum(m.value) filter (where m.status = 'reversed'), 0))
                                 from public.commissions m
                                where m.affiliate_id = v_affiliate.id and m.course_id = c.id
                                  and m.created_at >= (v_from::timestamp at time zone 'America/Sao_Paulo')
                                  and m.created_at < ((v_to + 1)::timestamp at time zone 'America/Sao_Paulo')))
             order by c.title)
        from public.affiliate_programs p join public.courses c on c.id = p.course_id
       where v_affiliate.status = 'approved' and p.school_id = v_affiliate.school_id and p.enabled and c.status = 'PUBLISHED'), '[]'::jsonb));
end $$;
revoke all on function public.affiliate_panel(date, date) from public, anon, authenticated;
grant execute on function public.affiliate_panel(date, date) to authenticated;

-- ── Staff: Afiliados and the commissions of Vendas (also the CSV's source, page by page) ────────
create function public.admin_affiliates(
  p_school_id uuid default null, p_status text default null, p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, user_id uuid, name text, email text, code text, status text, has_wallet boolean, created_at timestamptz,
  decided_at timestamptz, clicks bigint, sales bigint, pending numeric, confirmed numeric, available numeric,
  reversed numeric, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
#variable_conflict use_column
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select a.id, a.user_id, pr.name, pr.email, a.code, a.status, a.wallet_id is not null, a.created_at, a.decided_at,
         coalesce((select sum(k.clicks) from public.affiliate_clicks k where k.affiliate_id = a.id), 0)::bigint,
         (select count(*) from public.commissions m where m.affiliate_id = a.id and m.status in ('confirmed', 'available')),
         (select coalesce(sum(m.value), 0) from public.commissions m where m.affiliate_id = a.id and m.status = 'pending'),
         (select coalesce(sum(m.value), 0) from public.commissions m where m.affiliate_id = a.id and m.status = 'confirmed'),
         (select coalesce(sum(m.value), 0) from public.commissions m where m.affiliate_id = a.id and m.status = 'available'),
         (select coalesce(sum(m.value), 0) from public.commissions m where m.affiliate_id = a.id and m.status = 'reversed'),
         count(*) over ()
    from public.affiliates a join public.profiles pr on pr.id = a.user_id
   where a.school_id = v_school and (p_status is null or a.status = p_status)
   order by a.created_at desc, a.id
   limit least(greatest(coalesce(p_limit, 25), 1), 500)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.admin_affiliates(uuid, text, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_affiliates(uuid, text, integer, integer) to authenticated;

-- Every share of the school's sales in the period (São Paulo dates of the charge, inclusive, at most 366 days):
-- Vendas' commissions per sale and the commissions CSV (formula-safe through src/utils/csv.ts), page by page.
create function public.admin_commissions(
  p_school_id uuid default null, p_from date default null, p_to date default null, p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, payment_id uuid, created_at timestamptz, course_title text, buyer_name text, payment_value numeric,
  payment_status text, kind text, beneficiary text, wallet_id text, base numeric, percent numeric, value numeric,
  status text, split_status text, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
#variable_conflict use_column
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
  select m.id, m.payment_id, m.created_at, p.course_title, buyer.name, p.value, p.status, m.kind,
         coalesce(ap.name, cp.name), m.wallet_id, m.base, m.percent, m.value, m.status, m.split_status, count(*) over ()
    from public.commissions m
    join public.payments p on p.id = m.payment_id
    left join public.profiles buyer on buyer.id = p.user_id
    left join public.affiliates a on a.id = m.affiliate_id
    left join public.profiles ap on ap.id = a.user_id
    left join public.course_coproducers cp on cp.id = m.coproducer_id
   where m.school_id = v_school
     and (p_from is null or m.created_at >= (p_from::timestamp at time zone 'America/Sao_Paulo'))
     and (p_to is null or m.created_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'))
   order by m.created_at desc, m.id
   limit least(greatest(coalesce(p_limit, 25), 1), 500)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.admin_commissions(uuid, date, date, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_commissions(uuid, date, date, integer, integer) to authenticated;
