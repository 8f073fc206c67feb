-- Issue 41: recovering lost sales (docs/recovery.md).
-- - public.checkout_sessions: a signed-in buyer's checkout of a course, from opening to paid or abandoned
--   (no charge 1 h after opening, or a charge unpaid past its PIX expiry / boleto due date). One open
--   session per buyer and course. Written only by the database: the checkout page's open_checkout_session,
--   the payments' own events (a trigger on public.payments: charge generated, card refused, paid) and the
--   enrollments (a purchase of the course by any path closes it). Staff of the school read theirs; a buyer
--   reaches their own only through resume_checkout_session (the reopen link); nobody else.
-- - public.checkout_session_touches: what followed a session up (the sequence's e-mails, staff contacts by
--   WhatsApp or the copied link), the base of the recovery numbers.
-- - public.school_recovery_settings: "Recuperação de vendas" (existing schools get a row with it off; a
--   school without a row has it on, so new schools start with it on), its delays and the last touch's coupon.
-- - run_checkout_recovery (pg_cron every 5 minutes): abandons, writes "Seu PIX expira em 1 hora" and the
--   sequence's e-mails through the outbox, under the session's row lock, at most one a day per buyer.
-- - Two new e-mail kinds: checkout_recovery (optional: the student may stop it) and pix_expiring.
-- - "Pagamento pendente" for a new subscription's first invoice (it was missing).
set local lock_timeout = '5s';

-- ── The school's setting ────────────────────────────────────────────────────────────────────────
-- Delays in minutes after the abandonment: 1 to 3 of them, ascending, from 15 minutes to 14 days.
create function private.recovery_delays_ok(p_delays integer[]) returns boolean
language sql immutable set search_path = '' as $$
  select cardinality(p_delays) between 1 and 3
     and not exists (select 1 from unnest(p_delays) with ordinality d(m, i)
                      where d.m is null or d.m not between 15 and 20160
                         or (d.i > 1 and d.m <= p_delays[d.i - 1]));
$$;

create table public.school_recovery_settings (
  school_id uuid primary key references public.schools (id) on delete cascade,
  enabled boolean not null default true,
  delays_minutes integer[] not null default '{60,1440,4320}'
    constraint school_recovery_settings_delays_check check (private.recovery_delays_ok(delays_minutes)),
  -- The last touch's coupon: null (none) or a percentage, single-use, for that buyer and course, 48 h.
  coupon_percent numeric(5, 2)
    constraint school_recovery_settings_coupon_percent_check check (coupon_percent between 1 and 90),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.school_recovery_settings is 'Recuperação de vendas (issue 41): on/off, the e-mails'' delays after an abandoned checkout, the last touch''s coupon. No row: on, with the defaults.';
alter table public.school_recovery_settings enable row level security;
revoke all on public.school_recovery_settings from public, anon, authenticated;
grant select, insert, update on public.school_recovery_settings to authenticated;
grant all on public.school_recovery_settings to service_role;
create policy school_recovery_settings_select on public.school_recovery_settings for select to authenticated
  using ((select private.is_school_staff(school_id)));
create policy school_recovery_settings_insert on public.school_recovery_settings for insert to authenticated
  with check ((select private.is_school_staff(school_id)));
create policy school_recovery_settings_update on public.school_recovery_settings for update to authenticated
  using ((select private.is_school_staff(school_id))) with check ((select private.is_school_staff(school_id)));
create policy school_recovery_settings_password_change on public.school_recovery_settings as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));
create trigger school_recovery_settings_touch before update on public.school_recovery_settings
  for each row execute function private.touch_timestamps();
-- Off for the schools that exist today: their students never agreed to a new kind of e-mail.
insert into public.school_recovery_settings (school_id, enabled) select id, false from public.schools on conflict do nothing;

-- The school's effective setting (defaults when it has no row).
create function private.recovery_settings(p_school_id uuid) returns public.school_recovery_settings
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select s from public.school_recovery_settings s where s.school_id = p_school_id),
    row(p_school_id, true, '{60,1440,4320}'::integer[], null::numeric, now(), now())::public.school_recovery_settings);
$$;
revoke all on function private.recovery_settings(uuid) from public, anon, authenticated;

-- ── Coupons bound to one buyer (the recovery coupon) ───────────────────────────────────────────
alter table public.coupons add column buyer_id uuid references public.profiles (id) on delete cascade;
comment on column public.coupons.buyer_id is 'Only this account may use the coupon (a recovery coupon, issue 41); null: anyone.';
create index coupons_buyer_id_idx on public.coupons (buyer_id) where buyer_id is not null;

-- ── Sessions ────────────────────────────────────────────────────────────────────────────────────
create table public.checkout_sessions (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  -- The buyer's choices, as the reopen link restores them.
  with_bump boolean not null default false,
  coupon_code text constraint checkout_sessions_coupon_code_check check (coupon_code ~ '^[A-Za-z0-9_-]{3,40}$'),
  -- How far the buyer got: opened, a PIX or boleto generated, a card charged (pending) or refused.
  stage text not null default 'opened'
    constraint checkout_sessions_stage_check check (stage in ('opened', 'pix', 'boleto', 'card', 'card_refused')),
  -- open → paid | abandoned (→ paid later, recovered or not) | closed (the course was had another way).
  outcome text not null default 'open'
    constraint checkout_sessions_outcome_check check (outcome in ('open', 'abandoned', 'paid', 'closed')),
  -- The checkout's total at its last step (the quote, then the charge's value).
  value numeric(10, 2) not null constraint checkout_sessions_value_check check (value > 0),
  payment_id uuid references public.payments (id) on delete set null,
  opened_at timestamptz not null default now(),
  charge_at timestamptz,
  -- The charge's end: a PIX's or boleto's due date ends at 24:00 in São Paulo.
  expires_at timestamptz,
  abandoned_at timestamptz,
  -- When the buyer last used the reopen link.
  resumed_at timestamptz,
  ended_at timestamptz,
  paid_payment_id uuid references public.payments (id) on delete set null,
  paid_value numeric(10, 2) constraint checkout_sessions_paid_value_check check (paid_value > 0),
  do_not_contact boolean not null default false,
  touches_sent smallint not null default 0 constraint checkout_sessions_touches_sent_check check (touches_sent between 0 and 3),
  next_touch_at timestamptz,
  recovery_coupon_id uuid references public.coupons (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint checkout_sessions_abandoned_check check (outcome <> 'abandoned' or abandoned_at is not null),
  constraint checkout_sessions_ended_check check ((outcome in ('paid', 'closed')) = (ended_at is not null)),
  constraint checkout_sessions_paid_check check ((outcome = 'paid') = (paid_value is not null))
);
comment on table public.checkout_sessions is 'A buyer''s checkout of a course, opened → charge → paid | abandoned (issue 41); written by the database only; staff of the school read it.';
-- One open session per buyer and course.
create unique index checkout_sessions_one_open on public.checkout_sessions (user_id, course_id) where outcome = 'open';
create index checkout_sessions_user_course_idx on public.checkout_sessions (user_id, course_id, opened_at desc);
create index checkout_sessions_school_opened_idx on public.checkout_sessions (school_id, opened_at desc);
create index checkout_sessions_school_abandoned_idx on public.checkout_sessions (school_id, abandoned_at) where abandoned_at is not null;
create index checkout_sessions_course_id_idx on public.checkout_sessions (course_id);
create index checkout_sessions_payment_id_idx on public.checkout_sessions (payment_id) where payment_id is not null;
create index checkout_sessions_paid_payment_id_idx on public.checkout_sessions (paid_payment_id) where paid_payment_id is not null;
create index checkout_sessions_recovery_coupon_id_idx on public.checkout_sessions (recovery_coupon_id) where recovery_coupon_id is not null;
-- What the job looks for: open sessions to abandon, abandoned ones due a touch.
create index checkout_sessions_open_idx on public.checkout_sessions (opened_at) where outcome = 'open';
create index checkout_sessions_due_idx on public.checkout_sessions (next_touch_at) where outcome = 'abandoned' and next_touch_at is not null;
create trigger checkout_sessions_touch before update on public.checkout_sessions
  for each row execute function private.touch_timestamps();

alter table public.checkout_sessions enable row level security;
revoke all on public.checkout_sessions from public, anon, authenticated;
-- Staff read their school's; nobody writes through the API (the RPCs below and the triggers do).
grant select on public.checkout_sessions to authenticated;
grant all on public.checkout_sessions to service_role;
create policy checkout_sessions_select on public.checkout_sessions for select to authenticated
  using ((select private.is_school_staff(school_id)));
create policy checkout_sessions_password_change on public.checkout_sessions as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

create table public.checkout_session_touches (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references public.checkout_sessions (id) on delete cascade,
  school_id uuid not null references public.schools (id) on delete cascade,
  -- email: the sequence's e-mail number touch_number; staff_whatsapp / staff_link: staff reached out.
  kind text not null constraint checkout_session_touches_kind_check check (kind in ('email', 'staff_whatsapp', 'staff_link')),
  touch_number smallint constraint checkout_session_touches_number_check check (touch_number between 1 and 3),
  email_id uuid references public.email_outbox (id) on delete set null,
  staff_id uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint checkout_session_touches_shape_check check ((kind = 'email') = (touch_number is not null))
);
comment on table public.checkout_session_touches is 'What followed an abandoned checkout up (issue 41): the recovery e-mails and staff contacts; staff of the school read it.';
create unique index checkout_session_touches_email_key on public.checkout_session_touches (session_id, touch_number) where kind = 'email';
create index checkout_session_touches_session_idx on public.checkout_session_touches (session_id, created_at);
create index checkout_session_touches_school_idx on public.checkout_session_touches (school_id, created_at);
create index checkout_session_touches_email_id_idx on public.checkout_session_touches (email_id) where email_id is not null;
create index checkout_session_touches_staff_id_idx on public.checkout_session_touches (staff_id) where staff_id is not null;
alter table public.checkout_session_touches enable row level security;
revoke all on public.checkout_session_touches from public, anon, authenticated;
grant select on public.checkout_session_touches to authenticated;
grant all on public.checkout_session_touches to service_role;
create policy checkout_session_touches_select on public.checkout_session_touches for select to authenticated
  using ((select private.is_school_staff(school_id)));
create policy checkout_session_touches_password_change on public.checkout_session_touches as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── E-mail kinds ────────────────────────────────────────────────────────────────────────────────
alter table public.email_outbox drop constraint email_outbox_kind_check;
alter table public.email_outbox add constraint email_outbox_kind_check check (kind in (
  'access_granted', 'new_enrollment', 'payment_pending', 'payment_reminder', 'payment_confirmed',
  'payment_refunded', 'content_released', 'we_miss_you', 'certificate_available', 'turma_starts_tomorrow',
  'checkout_recovery', 'pix_expiring'));

-- The recovery e-mails are optional: the student stops them with the e-mail's Descadastrar link. The
-- school's switch is "Recuperação de vendas", not Configurações → E-mails (disabled_kinds stays as it is).
create or replace function private.is_optional_email_kind(p_kind text) returns boolean
language sql immutable set search_path = '' as $$
  select p_kind in ('new_enrollment', 'content_released', 'we_miss_you', 'certificate_available', 'checkout_recovery');
$$;

-- ── What the buyer has ──────────────────────────────────────────────────────────────────────────
create function private.has_active_enrollment(p_user_id uuid, p_course_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.enrollments e
                  where e.user_id = p_user_id and e.course_id = p_course_id and e.status = 'ACTIVE'
                    and (e.expires_at is null or e.expires_at > now()));
$$;
revoke all on function private.has_active_enrollment(uuid, uuid) from public, anon, authenticated;

-- ── The checkout page: opening a checkout (one write) ───────────────────────────────────────────
-- The signed-in buyer opened (or changed) the checkout of a course: the open session is created or takes
-- the new choices. A coupon is kept only when it applies (the quote's own rules); the code is never judged
-- here for the caller (the answer is the session's id either way). A buyer who has the course gets null.
create function public.open_checkout_session(p_course_id uuid, p_coupon_code text default null, p_with_bump boolean default false)
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
  -- Refuses a course that is not on sale to this buyer, as the quote does.
  v_quote := private.checkout_price(v_user, p_course_id, p_coupon_code, coalesce(p_with_bump, false), false);
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

-- ── The payments' events ────────────────────────────────────────────────────────────────────────
-- Marks paid every open or abandoned session of the buyer for the courses of a confirmed payment (the
-- course and its bump), and a session an enrollment closed earlier in this same transaction.
create function private.checkout_sessions_paid(p_payment public.payments) returns void
language sql volatile security definer set search_path = '' as $$
  update public.checkout_sessions s
     set outcome = 'paid', ended_at = coalesce(p_payment.paid_at, now()), paid_payment_id = p_payment.id,
         paid_value = p_payment.value, next_touch_at = null
   where s.user_id = p_payment.user_id
     and s.course_id in (select i.course_id from public.payment_items i where i.payment_id = p_payment.id and i.course_id is not null
                         union select p_payment.course_id where p_payment.course_id is not null)
     and (s.outcome in ('open', 'abandoned') or (s.outcome = 'closed' and s.ended_at = now()));
$$;
revoke all on function private.checkout_sessions_paid(public.payments) from public, anon, authenticated;

-- Deferred to the end of the transaction: the checkout writes the payment's items after the payment.
create function private.checkout_sessions_on_payment() returns trigger
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
       set outcome = 'abandoned', abandoned_at = now(),
           next_touch_at = now() + make_interval(mins => (private.recovery_settings(school_id)).delays_minutes[1])
     where id = v_session.id;
  end if;
  return null;
end $$;
revoke all on function private.checkout_sessions_on_payment() from public, anon, authenticated;
create constraint trigger payments_checkout_sessions after insert or update of status on public.payments
  deferrable initially deferred for each row execute function private.checkout_sessions_on_payment();

-- A purchase of the course by any path (staff, a plan, student-webhook, the checkout) closes its sessions;
-- a paid charge of the course makes it paid (whichever of the two the transaction wrote first).
create function private.checkout_sessions_on_enrollment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
begin
  if new.status <> 'ACTIVE' or (new.expires_at is not null and new.expires_at <= now()) then
    return null;
  end if;
  select p.* into v_payment from public.payments p
   where p.user_id = new.user_id and p.status in ('CONFIRMED', 'RECEIVED') and p.updated_at = now()
     and (p.course_id = new.course_id or exists (select 1 from public.payment_items i where i.payment_id = p.id and i.course_id = new.course_id))
   order by p.paid_at desc nulls last limit 1;
  if v_payment.id is not null then
    perform private.checkout_sessions_paid(v_payment);
  end if;
  update public.checkout_sessions s
     set outcome = 'closed', ended_at = now(), next_touch_at = null
   where s.user_id = new.user_id and s.course_id = new.course_id and s.outcome in ('open', 'abandoned');
  return null;
end $$;
revoke all on function private.checkout_sessions_on_enrollment() from public, anon, authenticated;
create trigger enrollments_checkout_sessions after insert or update of status, expires_at on public.enrollments
  for each row execute function private.checkout_sessions_on_enrollment();

-- ── The reopen link ─────────────────────────────────────────────────────────────────────────────
-- `/checkout/<course slug>?retomar=<session id>`: only the session's buyer, signed in, gets the choices
-- back; for anyone else the link does not exist. Records that the buyer came back (one write).
create function public.resume_checkout_session(p_session_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
  v_payment public.payments;
  v_coupon public.coupons;
  v_slug text;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_session from public.checkout_sessions s where s.id = p_session_id and s.user_id = auth.uid();
  if v_session.id is null or auth.uid() is null then
    raise exception 'Link de checkout não encontrado.' using errcode = 'P0002';
  end if;
  update public.checkout_sessions set resumed_at = now() where id = v_session.id;
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
    'already_enrolled', private.has_active_enrollment(v_session.user_id, v_session.course_id));
end $$;
revoke all on function public.resume_checkout_session(uuid) from public, anon, authenticated;
grant execute on function public.resume_checkout_session(uuid) to authenticated;

-- ── Why a recovery e-mail should no longer go out (claim time, and again just before SMTP) ───────
create function private.recovery_email_outdated_reason(p_message public.email_outbox) returns text
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
    when v_session.outcome = 'closed' or private.has_active_enrollment(v_session.user_id, v_session.course_id) then 'O aluno já tem o curso.'
    when v_session.do_not_contact then 'A escola marcou "Não contatar".'
    when not (private.recovery_settings(v_session.school_id)).enabled then 'A escola desligou a recuperação de vendas.'
  end;
end $$;
revoke all on function private.recovery_email_outdated_reason(public.email_outbox) from public, anon, authenticated;

-- email_outdated_reason as in 20261128000610_email_outdated_skip.sql, with the two new kinds:
-- pix_expiring as the other "how to pay" kinds, checkout_recovery by its session.
create or replace function private.email_outdated_reason(p_message public.email_outbox) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_id uuid := private.uuid_or_null(substring(p_message.idempotency_key from '^[a-z]+:([0-9a-fA-F-]{36})(?::|$)'));
  v_subject text := split_part(p_message.idempotency_key, ':', 1);
  v_payment public.payments;
begin
  -- Optional kinds: the school turned the kind off, or the student stopped it, after it was written.
  if private.is_optional_email_kind(p_message.kind) then
    if exists (select 1 from public.school_email_settings s where s.school_id = p_message.school_id and p_message.kind = any (s.disabled_kinds)) then
      return 'A escola desligou este tipo de e-mail.';
    end if;
    if exists (select 1 from public.email_unsubscribes u where u.user_id = p_message.user_id and u.kind = p_message.kind) then
      return 'O aluno pediu para não receber este tipo de e-mail.';
    end if;
  end if;

  case p_message.kind
    when 'access_granted' then
      -- The link to choose a password is made for the account when the message is sent.
      if p_message.user_id is null then
        return 'A conta do aluno foi excluída.';
      end if;
    when 'payment_pending', 'payment_reminder', 'payment_confirmed', 'payment_refunded', 'pix_expiring' then
      if v_subject = 'payment' then
        select * into v_payment from public.payments p where p.id = v_id;
        if v_payment.id is null then
          return 'A cobrança foi excluída.';
        end if;
        if p_message.kind in ('payment_pending', 'payment_reminder', 'pix_expiring') then
          -- How to pay: only while the charge still waits for its payment.
          return case
            when v_payment.status in ('CONFIRMED', 'RECEIVED') then 'O pagamento já foi confirmado.'
            when v_payment.status in ('REFUNDED', 'CHARGEBACK') then 'O pagamento já foi estornado.'
            when v_payment.status = 'DELETED' then 'A cobrança foi cancelada.'
            when v_payment.status = 'FAILED' then 'A cobrança não foi criada.'
            when v_payment.status = 'OVERDUE' then 'A cobrança venceu.'
            when v_payment.replaced_by is not null then 'A cobrança foi substituída por outra.'
          end;
        elsif p_message.kind = 'payment_confirmed' and v_payment.status not in ('CONFIRMED', 'RECEIVED') then
          -- "Já está liberado" no longer holds; the refund's own message tells what happened.
          return 'O pagamento foi estornado antes do envio.';
        end if;
      end if;
    when 'checkout_recovery' then
      return private.recovery_email_outdated_reason(p_message);
    when 'new_enrollment' then
      if v_subject = 'enrollment' and not exists (
           select 1 from public.enrollments e
            where e.id = v_id and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())) then
        return 'A matrícula não está mais ativa.';
      end if;
    when 'certificate_available' then
      if v_subject = 'certificate' and not exists (select 1 from public.certificates c where c.id = v_id) then
        return 'O certificado foi excluído.';
      end if;
    when 'we_miss_you' then
      -- Back since the message was written: signed in or studied.
      if exists (select 1 from auth.users u where u.id = p_message.user_id and u.last_sign_in_at > p_message.created_at)
         or exists (select 1 from public.progress p where p.user_id = p_message.user_id and p.updated_at > p_message.created_at) then
        return 'O aluno voltou a estudar.';
      end if;
    else
      null;
  end case;
  return null;
end $$;

-- ── The sequence (pg_cron every 5 minutes; tests pass their own clock) ──────────────────────────
-- The recovery coupon of a last touch: RECUPERA-XXXXXXXX, percent, one use, that buyer and course, 48 h.
create function private.create_recovery_coupon(p_session public.checkout_sessions, p_percent numeric, p_now timestamptz)
returns public.coupons
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_coupon public.coupons;
begin
  insert into public.coupons (school_id, code, kind, amount, valid_from, valid_until, max_uses, max_uses_per_buyer, all_courses, buyer_id)
  values (p_session.school_id, 'RECUPERA-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10)), 'percent', p_percent,
          p_now - interval '1 minute', p_now + interval '48 hours', 1, 1, false, p_session.user_id)
  returning * into v_coupon;
  insert into public.coupon_courses (coupon_id, course_id) values (v_coupon.id, p_session.course_id);
  return v_coupon;
end $$;
revoke all on function private.create_recovery_coupon(public.checkout_sessions, numeric, timestamptz) from public, anon, authenticated;

-- The boleto reminder joins the sequence: "Lembrete de boleto" (queue_daily_emails) and "Seu PIX expira em 1 hora"
-- are e-mails of the same follow-up, so a buyer who got one of them in the last 24 hours gets no recovery e-mail
-- before that day is over (the touch waits, as for a recovery e-mail of another session).
create function public.run_checkout_recovery(p_now timestamptz default now()) returns jsonb
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
grant execute on function public.run_checkout_recovery(timestamptz) to service_role;

select cron.schedule('checkout-recovery', '*/5 * * * *', 'select public.run_checkout_recovery()');

-- ── The coupon bound to a buyer: checkout_price as in 20261128001000_staff_edits_and_coupon_limits.sql,
-- where a coupon of another buyer is looked up as an unknown one ("Cupom não encontrado.").
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
         and (cp.buyer_id is null or cp.buyer_id = p_user_id)
         for update;
    else
      select * into v_coupon from public.coupons cp
       where cp.school_id = v_course.school_id and upper(cp.code) = upper(v_code)
         and cp.is_active and (cp.valid_from is null or cp.valid_from <= now()) and (cp.valid_until is null or cp.valid_until > now())
         and (cp.buyer_id is null or cp.buyer_id = p_user_id);
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
                  and not (u.user_id = p_user_id and p.status = 'PENDING')));
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

-- ── Staff: Recuperação (/admin/recovery) ────────────────────────────────────────────────────────
-- A session is recovered when it was abandoned and then paid within 7 days after a touch (a recovery
-- e-mail or a staff contact) made before the payment.
create function private.recovery_touch_before(p_session_id uuid, p_paid_at timestamptz) returns public.checkout_session_touches
language sql stable security definer set search_path = '' as $$
  select t.* from public.checkout_session_touches t
   where t.session_id = p_session_id and t.created_at <= p_paid_at and p_paid_at <= t.created_at + interval '7 days'
   order by t.created_at desc limit 1;
$$;
revoke all on function private.recovery_touch_before(uuid, timestamptz) from public, anon, authenticated;

create function private.staff_session(p_session_id uuid) returns public.checkout_sessions
language plpgsql stable security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_session from public.checkout_sessions s where s.id = p_session_id;
  if v_session.id is null or not private.is_school_staff(v_session.school_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return v_session;
end $$;
revoke all on function private.staff_session(uuid) from public, anon, authenticated;

-- The list: period (São Paulo dates of opened_at, inclusive, at most 366 days), course, stage (a stage or
-- an outcome), newest first, a page of at most 500 (the CSV reads it page by page).
create function public.admin_checkout_sessions(
  p_school_id uuid default null, p_from date default null, p_to date default null, p_course_id uuid default null,
  p_stage text default null, p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, opened_at timestamptz, abandoned_at timestamptz, ended_at timestamptz, stage text, outcome text,
  buyer_id uuid, buyer_name text, buyer_email text, buyer_phone text, course_id uuid, course_title text, course_slug text,
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
         s.with_bump, s.coupon_code, s.value, s.paid_value, s.touches_sent,
         (select max(t.created_at) from public.checkout_session_touches t where t.session_id = s.id),
         (select count(*) from public.checkout_session_touches t where t.session_id = s.id and t.kind <> 'email'),
         s.do_not_contact,
         s.outcome = 'paid' and s.abandoned_at is not null and (private.recovery_touch_before(s.id, s.ended_at)).id is not null,
         count(*) over ()
    from public.checkout_sessions s
    join public.courses c on c.id = s.course_id
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

-- The period's numbers over the sessions abandoned in it (São Paulo dates of abandoned_at, inclusive):
-- {abandoned, recovered, recovered_revenue, by_touch: [{touch, sent, recovered, conversion}], by_staff}.
-- A recovered sale counts for the last touch before its payment (an e-mail's number, or by_staff).
create function public.admin_recovery_totals(
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
  if p_from is not null and p_to is not null and (p_to < p_from or p_to - p_from > 366) then
    raise exception 'Período de até 366 dias.' using errcode = '22023';
  end if;
  with sessions as (
    select s.*, case when s.outcome = 'paid' then private.recovery_touch_before(s.id, s.ended_at) end as touch
      from public.checkout_sessions s
     where s.school_id = v_school and s.abandoned_at is not null
       and (p_from is null or s.abandoned_at >= (p_from::timestamp at time zone 'America/Sao_Paulo'))
       and (p_to is null or s.abandoned_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'))
       and (p_course_id is null or s.course_id = p_course_id)
  ), recovered as (
    select s.id, s.paid_value, (s.touch).kind as kind, (s.touch).touch_number as touch_number
      from sessions s where (s.touch).id is not null
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
revoke all on function public.admin_recovery_totals(uuid, date, date, uuid) from public, anon, authenticated;
grant execute on function public.admin_recovery_totals(uuid, date, date, uuid) to authenticated;

-- "Não contatar" (and back): the sequence stops at once, including a message already written.
create function public.set_checkout_do_not_contact(p_session_id uuid, p_do_not_contact boolean) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
begin
  perform private.refuse_while_password_change_pending();
  v_session := private.staff_session(p_session_id);
  update public.checkout_sessions set do_not_contact = coalesce(p_do_not_contact, true) where id = v_session.id;
  return coalesce(p_do_not_contact, true);
end $$;
revoke all on function public.set_checkout_do_not_contact(uuid, boolean) from public, anon, authenticated;
grant execute on function public.set_checkout_do_not_contact(uuid, boolean) to authenticated;

-- Staff reached the buyer ("Chamar no WhatsApp" or "Copiar link"): a touch, which counts for the numbers.
create function public.record_checkout_staff_contact(p_session_id uuid, p_channel text) returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_session public.checkout_sessions;
  v_id uuid;
begin
  perform private.refuse_while_password_change_pending();
  v_session := private.staff_session(p_session_id);
  if p_channel is null or p_channel not in ('whatsapp', 'link') then
    raise exception 'Canal deve ser whatsapp ou link.' using errcode = '22023';
  end if;
  insert into public.checkout_session_touches (session_id, school_id, kind, staff_id)
  values (v_session.id, v_session.school_id, 'staff_' || p_channel, auth.uid())
  returning id into v_id;
  return v_id;
end $$;
revoke all on function public.record_checkout_staff_contact(uuid, text) from public, anon, authenticated;
grant execute on function public.record_checkout_staff_contact(uuid, text) to authenticated;

-- ── "Pagamento pendente" for a new subscription's first invoice ─────────────────────────────────
-- The invoice's plan item is written right after its payment (apply_subscription_event): then the message,
-- as create-asaas-charge writes it for a course (no copia e cola: the invoice shows it). A card is charged
-- at once: its receipt comes from the confirmation.
create function private.email_on_subscription_invoice() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_email text;
begin
  select * into v_payment from public.payments p where p.id = new.payment_id;
  if new.kind <> 'plan' or v_payment.subscription_id is null or v_payment.status <> 'PENDING'
     or v_payment.billing_type = 'CREDIT_CARD'
     or exists (select 1 from public.payments o where o.subscription_id = v_payment.subscription_id and o.id <> v_payment.id) then
    return null;
  end if;
  v_email := private.account_email(v_payment.user_id);
  if v_email is null then
    return null;
  end if;
  perform private.enqueue_email(v_payment.school_id, v_payment.user_id, v_email, 'payment_pending', 'payment:' || v_payment.id || ':pending',
    jsonb_build_object('name', coalesce((select pr.name from public.profiles pr where pr.id = v_payment.user_id), ''),
      'course_title', v_payment.course_title, 'amount', v_payment.value, 'method', v_payment.billing_type,
      'invoice_url', v_payment.invoice_url, 'due_date', v_payment.due_date,
      'items', private.payment_email_items(v_payment.id))
    || coalesce((select jsonb_build_object('plan_cycle', s.cycle) from public.subscriptions s where s.id = v_payment.subscription_id), '{}'));
  return null;
end $$;
revoke all on function private.email_on_subscription_invoice() from public, anon, authenticated;
create trigger payment_items_subscription_pending after insert on public.payment_items
  for each row when (new.kind = 'plan') execute function private.email_on_subscription_invoice();
