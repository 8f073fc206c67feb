-- Issue 43: afiliados e coprodução (docs/affiliates.md). Other people sell a course for a commission that
-- Asaas's split pays at settlement; co-producers get a fixed share of every sale of a course.
-- - public.affiliate_programs: per course (on/off, commission %, cookie window, approval, materials). Staff
--   of the school read and write it over REST.
-- - public.affiliates: one per account and school (code, status, Asaas wallet). Nobody writes it over REST:
--   apply_as_affiliate, decide_affiliate and set_affiliate_wallet (service role: the affiliate-wallet
--   function, after Asaas) do, so no one approves themselves or changes someone's wallet.
-- - public.affiliate_clicks: a count per affiliate, course and day; nothing about the visitor.
-- - public.affiliate_attributions: the account's last affiliate code (from first-party storage at sign-in).
-- - public.course_coproducers: wallet and fixed percentage per course (staff over REST).
-- - public.commissions: the ledger, one row per share of a payment; written by checkout_commissions
--   (create-asaas-charge), the payments' trigger and apply_split_event (asaas-webhook) only.
-- The cap: a course's commission plus its co-producers' percentages never pass 80% of the amount paid, so the
-- school keeps at least 20%, more than Asaas's fees (which the split's fixedValue must leave: Asaas refuses a
-- split above the charge's netValue).
set local lock_timeout = '5s';

-- ── Per course: the program ─────────────────────────────────────────────────────────────────────
create table public.affiliate_programs (
  course_id uuid primary key references public.courses (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  enabled boolean not null default false,
  -- Percentage of the amount paid for the course (after its coupon).
  commission_percent numeric(5, 2) not null default 30
    constraint affiliate_programs_commission_check check (commission_percent > 0 and commission_percent <= 80),
  cookie_days smallint not null default 60 constraint affiliate_programs_cookie_days_check check (cookie_days between 1 and 365),
  approval text not null default 'manual' constraint affiliate_programs_approval_check check (approval in ('automatic', 'manual')),
  materials_text text constraint affiliate_programs_materials_text_length check (length(materials_text) <= 20000),
  -- [{ "kind": "image" | "link", "title": text, "url": "https://..." }], at most 50.
  materials_links jsonb not null default '[]'
    constraint affiliate_programs_materials_links_check check (jsonb_typeof(materials_links) = 'array' and jsonb_array_length(materials_links) <= 50),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.affiliate_programs is 'Afiliados (issue 43): a course''s program: on/off, commission % of the amount paid, cookie window in days, automatic or manual approval, materials for affiliates. No row: off.';
alter table public.affiliate_programs enable row level security;
create index affiliate_programs_school_id_idx on public.affiliate_programs (school_id);
revoke all on public.affiliate_programs from public, anon, authenticated;
grant select, insert, update, delete on public.affiliate_programs to authenticated;
grant all on public.affiliate_programs to service_role;
create policy affiliate_programs_staff on public.affiliate_programs for all to authenticated
  using ((select private.is_school_staff(school_id)))
  with check ((select private.is_school_staff(school_id)) and private.is_course_staff(course_id)
              and school_id = (select c.school_id from public.courses c where c.id = course_id));
create policy affiliate_programs_password_change on public.affiliate_programs as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create trigger affiliate_programs_touch before update on public.affiliate_programs
  for each row execute function private.touch_timestamps();

-- ── Per course: co-producers ────────────────────────────────────────────────────────────────────
create table public.course_coproducers (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  name text not null constraint course_coproducers_name_length check (length(btrim(name)) between 1 and 200),
  -- Asaas's walletId of the co-producer's account.
  wallet_id text not null constraint course_coproducers_wallet_check
    check (wallet_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  percent numeric(5, 2) not null constraint course_coproducers_percent_check check (percent > 0 and percent <= 80),
  created_at timestamptz not null default now(),
  constraint course_coproducers_course_wallet_key unique (course_id, wallet_id)
);
comment on table public.course_coproducers is 'Coprodução (issue 43): a co-producer''s Asaas wallet and fixed percentage of every sale of the course.';
alter table public.course_coproducers enable row level security;
create index course_coproducers_school_id_idx on public.course_coproducers (school_id);
revoke all on public.course_coproducers from public, anon, authenticated;
grant select, insert, update, delete on public.course_coproducers to authenticated;
grant all on public.course_coproducers to service_role;
create policy course_coproducers_staff on public.course_coproducers for all to authenticated
  using ((select private.is_school_staff(school_id)))
  with check ((select private.is_school_staff(school_id))
              and school_id = (select c.school_id from public.courses c where c.id = course_id));
create policy course_coproducers_password_change on public.course_coproducers as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- The cap, whichever table changes: the course's row is locked so two staff saving at once are checked in turn.
create function private.check_course_share_cap() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_total numeric;
begin
  perform 1 from public.courses c where c.id = new.course_id for no key update;
  select coalesce((select p.commission_percent from public.affiliate_programs p where p.course_id = new.course_id and p.enabled), 0)
       + coalesce((select sum(cp.percent) from public.course_coproducers cp where cp.course_id = new.course_id), 0)
    into v_total;
  if v_total > 80 then
    raise exception 'Comissão e coprodutores somam mais de 80%% do valor pago.' using errcode = '22023';
  end if;
  return null;
end $$;
revoke all on function private.check_course_share_cap() from public, anon, authenticated;
create constraint trigger affiliate_programs_share_cap after insert or update on public.affiliate_programs
  for each row execute function private.check_course_share_cap();
create constraint trigger course_coproducers_share_cap after insert or update on public.course_coproducers
  for each row execute function private.check_course_share_cap();

-- ── Affiliates ──────────────────────────────────────────────────────────────────────────────────
create table public.affiliates (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- The link's ?afiliado=<code>.
  code text not null constraint affiliates_code_format check (code ~ '^[a-z0-9]{8}$'),
  status text not null default 'pending' constraint affiliates_status_check check (status in ('pending', 'approved', 'refused', 'blocked')),
  -- Set only by set_affiliate_wallet (the affiliate-wallet function, after Asaas accepted it).
  wallet_id text constraint affiliates_wallet_check check (wallet_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  wallet_validated_at timestamptz,
  decided_at timestamptz,
  decided_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint affiliates_school_user_key unique (school_id, user_id),
  constraint affiliates_school_code_key unique (school_id, code)
);
comment on table public.affiliates is 'Afiliados (issue 43): an account of the school that sells its courses for a commission; its code, status and validated Asaas wallet. Written by RPCs only.';
alter table public.affiliates enable row level security;
create index affiliates_user_id_idx on public.affiliates (user_id);
create index affiliates_school_status_idx on public.affiliates (school_id, status, created_at desc);
create index affiliates_decided_by_idx on public.affiliates (decided_by);
revoke all on public.affiliates from public, anon, authenticated;
grant select on public.affiliates to authenticated;
grant all on public.affiliates to service_role;
create policy affiliates_select on public.affiliates for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy affiliates_password_change on public.affiliates as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── Clicks: a count, never who ──────────────────────────────────────────────────────────────────
create table public.affiliate_clicks (
  affiliate_id uuid not null references public.affiliates (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  day date not null,
  -- Bounded: a flood of visits stops counting at 10,000 a day per link.
  clicks integer not null default 1 constraint affiliate_clicks_clicks_check check (clicks between 1 and 10000),
  primary key (affiliate_id, course_id, day)
);
comment on table public.affiliate_clicks is 'Afiliados (issue 43): visits of an affiliate''s link, counted per course and São Paulo day; no visitor data.';
alter table public.affiliate_clicks enable row level security;
create index affiliate_clicks_course_id_idx on public.affiliate_clicks (course_id);
create index affiliate_clicks_school_day_idx on public.affiliate_clicks (school_id, day);
revoke all on public.affiliate_clicks from public, anon, authenticated;
grant select on public.affiliate_clicks to authenticated;
grant all on public.affiliate_clicks to service_role;
create policy affiliate_clicks_select on public.affiliate_clicks for select to authenticated
  using (affiliate_id in (select a.id from public.affiliates a where a.user_id = (select auth.uid()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy affiliate_clicks_password_change on public.affiliate_clicks as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── Attribution: the account's last affiliate code ──────────────────────────────────────────────
create table public.affiliate_attributions (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  affiliate_id uuid not null references public.affiliates (id) on delete cascade,
  -- When the visitor opened the link (first-party storage), never later than the attach.
  clicked_at timestamptz not null,
  attached_at timestamptz not null default now()
);
comment on table public.affiliate_attributions is 'Afiliados (issue 43): the last affiliate whose link the account opened, and when; a purchase within the program''s window pays that affiliate.';
alter table public.affiliate_attributions enable row level security;
create index affiliate_attributions_affiliate_id_idx on public.affiliate_attributions (affiliate_id);
create index affiliate_attributions_school_id_idx on public.affiliate_attributions (school_id);
revoke all on public.affiliate_attributions from public, anon, authenticated;
grant select on public.affiliate_attributions to authenticated;
grant all on public.affiliate_attributions to service_role;
create policy affiliate_attributions_select on public.affiliate_attributions for select to authenticated
  using (user_id = (select auth.uid()) or school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy affiliate_attributions_password_change on public.affiliate_attributions as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── The ledger ──────────────────────────────────────────────────────────────────────────────────
create table public.commissions (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  payment_id uuid not null references public.payments (id) on delete cascade,
  course_id uuid references public.courses (id) on delete set null,
  kind text not null constraint commissions_kind_check check (kind in ('affiliate', 'coproducer')),
  affiliate_id uuid references public.affiliates (id) on delete set null,
  coproducer_id uuid references public.course_coproducers (id) on delete set null,
  wallet_id text not null,
  -- What the share was computed on (the course's amount paid, after its coupon), the percentage, the share.
  base numeric(10, 2) not null constraint commissions_base_check check (base > 0),
  percent numeric(5, 2) not null constraint commissions_percent_check check (percent > 0 and percent <= 80),
  value numeric(10, 2) not null constraint commissions_value_check check (value > 0 and value <= base),
  status text not null default 'pending' constraint commissions_status_check check (status in ('pending', 'confirmed', 'available', 'reversed')),
  -- Asaas's split: its id (from the charge's answer) and status (PENDING, AWAITING_CREDIT, DONE, CANCELLED,
  -- REFUNDED, BLOCKED_BY_VALUE_DIVERGENCE) as its events report it.
  provider_split_id text constraint commissions_provider_split_id_length check (length(provider_split_id) between 1 and 100),
  split_status text constraint commissions_split_status_length check (length(split_status) between 1 and 40),
  confirmed_at timestamptz,
  available_at timestamptz,
  reversed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint commissions_kind_beneficiary check ((kind = 'affiliate' or affiliate_id is null) and (kind = 'coproducer' or coproducer_id is null)),
  constraint commissions_payment_wallet_key unique (payment_id, wallet_id)
);
comment on table public.commissions is 'Afiliados e coprodução (issue 43): one share of a payment (affiliate or co-producer), pending -> confirmed -> available, or reversed, with Asaas''s split status. Written by the checkout, the payments'' trigger and the split''s events only.';
alter table public.commissions enable row level security;
create index commissions_school_created_idx on public.commissions (school_id, created_at desc);
create index commissions_affiliate_created_idx on public.commissions (affiliate_id, created_at desc);
create index commissions_coproducer_id_idx on public.commissions (coproducer_id);
create index commissions_course_id_idx on public.commissions (course_id);
revoke all on public.commissions from public, anon, authenticated;
grant select on public.commissions to authenticated;
grant all on public.commissions to service_role;
create policy commissions_select on public.commissions for select to authenticated
  using (affiliate_id in (select a.id from public.affiliates a where a.user_id = (select auth.uid()))
         or school_id in (select private.staff_school_ids())
         or (select private.is_super_admin()));
create policy commissions_password_change on public.commissions as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create trigger commissions_touch before update on public.commissions
  for each row execute function private.touch_timestamps();
