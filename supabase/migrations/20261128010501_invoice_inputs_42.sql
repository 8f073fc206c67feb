-- Issue 42, the outside attack's findings on what an invoice says and how staff count them (docs/nota-fiscal.md,
-- docs/security.md):
-- - f5: {comprador} is the buyer's name as it was when the payment was confirmed (invoices.buyer_name, kept by
--   the payments' trigger), not the profile's name when the job issues the note days later (the buyer may
--   rewrite it); the placeholders are filled in one pass (a value is never expanded again), and the values
--   have their control characters and runs of blanks made one space, with a bounded length.
-- - f9: the export (admin_invoices) and the totals take an invoice in the period of its authorization (the
--   note's competence), a cancelled one in that of its cancellation, the others in that of their creation.
-- - f10: the taxes together are at most 100% of the value.
-- - f8: the period is bounded with one end open, as Recuperação's (private.recovery_period_from): no end is
--   today, no start is 366 days before the end. admin_invoices without any bound stays unbounded ("Notas com
--   erro" lists every error, a page at a time).
set local lock_timeout = '5s';

alter table public.invoices add column buyer_name text
  constraint invoices_buyer_name_check check (length(buyer_name) <= 120);
comment on column public.invoices.buyer_name is 'The buyer''s name when the payment was confirmed, as {comprador} writes it (issue 42, f5).';

alter table public.school_invoice_settings add constraint school_invoice_settings_taxes_total_check
  check (iss_rate + cofins_rate + csll_rate + inss_rate + ir_rate + pis_rate <= 100);

-- A value written into the fiscal document: control characters and runs of blanks become one space, bounded.
create function private.invoice_text(p_value text, p_max integer) returns text
language sql immutable set search_path = '' as $$
  select left(btrim(regexp_replace(coalesce(p_value, ''), '[[:cntrl:][:space:]\u2028\u2029]+', ' ', 'g')), p_max);
$$;
revoke all on function private.invoice_text(text, integer) from public, anon, authenticated;

-- As 20261128010500, and the buyer's name is kept with the invoice.
create or replace function private.invoice_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_settings public.school_invoice_settings;
begin
  if new.status in ('CONFIRMED', 'RECEIVED') and (tg_op = 'INSERT' or old.status not in ('CONFIRMED', 'RECEIVED')) then
    select * into v_settings from public.school_invoice_settings s where s.school_id = new.school_id and s.enabled;
    if v_settings.school_id is not null then
      insert into public.invoices (school_id, payment_id, user_id, value, issue_at, buyer_name)
      values (new.school_id, new.id, new.user_id, new.value,
              case when v_settings.issue_on = 'payment' then now()
                   else coalesce(new.paid_at, now()) + make_interval(days => v_settings.guarantee_days) end,
              private.invoice_text((select pr.name from public.profiles pr where pr.id = new.user_id), 120))
      on conflict (payment_id) do nothing;
    end if;
  elsif new.status in ('REFUNDED', 'CHARGEBACK') and tg_op = 'UPDATE' and old.status is distinct from new.status then
    update public.invoices set status = 'not_issued', claimed_at = null
     where payment_id = new.id and (status = 'pending' or (status = 'error' and provider_invoice_id is null));
    update public.invoices set cancel_requested_at = coalesce(cancel_requested_at, now())
     where payment_id = new.id and status not in ('pending', 'not_issued', 'cancelled');
  end if;
  return null;
end $$;
revoke all on function private.invoice_on_payment() from public, anon, authenticated;

-- The service description from the school's template, in one pass: {curso} (what was bought), {comprador}
-- (the name kept at confirmation; the profile's for an invoice made before it was kept), {data_pagamento},
-- {valor}; anything else is the template's own text.
create or replace function private.invoice_description(p_template text, p_payment public.payments) returns text
language sql stable security definer set search_path = '' as $$
  select left(coalesce(string_agg(case t.m[1]
           when '{curso}' then private.invoice_text(coalesce(
             (select string_agg(i.title, ' + ' order by array_position(array['course', 'bump', 'plan'], i.kind))
                from public.payment_items i where i.payment_id = p_payment.id), p_payment.course_title), 500)
           when '{comprador}' then private.invoice_text(coalesce(
             (select inv.buyer_name from public.invoices inv where inv.payment_id = p_payment.id),
             (select pr.name from public.profiles pr where pr.id = p_payment.user_id)), 120)
           when '{data_pagamento}' then to_char(coalesce(p_payment.paid_at, now()) at time zone 'America/Sao_Paulo', 'DD/MM/YYYY')
           when '{valor}' then 'R$ ' || replace(replace(replace(to_char(p_payment.value, 'FM999G999G990D00'), ',', '_'), '.', ','), '_', '.')
           else t.m[1] end, '' order by t.n), ''), 2000)
    from regexp_matches(p_template, '(\{[a-z_]+\}|[^{]+|\{)', 'g') with ordinality as t(m, n);
$$;
revoke all on function private.invoice_description(text, public.payments) from public, anon, authenticated;

-- The school's invoices, newest first: Vendas' "Notas com erro" (p_status 'error'), the monthly CSV (a month as
-- p_from/p_to, page by page), any status. Period (São Paulo dates, inclusive, at most 366 days, one end may be
-- open): an authorized invoice by its authorization, a cancelled one by its cancellation, the rest by its
-- creation (its payment's confirmation); no bound at all: every invoice. A page of at most 500.
create or replace function public.admin_invoices(
  p_school_id uuid default null, p_status text default null, p_from date default null, p_to date default null,
  p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, payment_id uuid, status text, number text, value numeric, iss_rate numeric, iss_value numeric,
  service_description text, error_message text, pdf_url text, xml_url text, issue_at timestamptz,
  authorized_at timestamptz, cancelled_at timestamptz, created_at timestamptz,
  buyer_id uuid, buyer_name text, buyer_email text, buyer_cpf text, course_title text, billing_type text,
  payment_status text, paid_at timestamptz, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_start timestamptz;
  v_end timestamptz;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_from is not null or p_to is not null then
    v_start := private.recovery_period_from(p_from, p_to)::timestamp at time zone 'America/Sao_Paulo';
    v_end := (coalesce(p_to, (now() at time zone 'America/Sao_Paulo')::date) + 1)::timestamp at time zone 'America/Sao_Paulo';
  end if;
  return query
  select i.id, i.payment_id, i.status, i.number, i.value, i.iss_rate, i.iss_value, i.service_description,
         i.error_message, i.pdf_url, i.xml_url, i.issue_at, i.authorized_at, i.cancelled_at, i.created_at,
         i.user_id, pr.name, pr.email, pr.cpf, p.course_title, p.billing_type, p.status, p.paid_at,
         count(*) over ()
    from public.invoices i
    join public.payments p on p.id = i.payment_id
    left join public.profiles pr on pr.id = i.user_id
   where i.school_id = v_school
     and (p_status is null or i.status = p_status)
     and (v_start is null
          or (i.authorized_at >= v_start and i.authorized_at < v_end)
          or (i.cancelled_at >= v_start and i.cancelled_at < v_end)
          or (i.authorized_at is null and i.cancelled_at is null and i.created_at >= v_start and i.created_at < v_end))
   order by i.created_at desc, i.id
   limit least(greatest(coalesce(p_limit, 25), 1), 500)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.admin_invoices(uuid, text, date, date, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_invoices(uuid, text, date, date, integer, integer) to authenticated;

-- "Notas fiscais" totals of the period (São Paulo dates, inclusive, at most 366 days, one end may be open; none:
-- the last 366 days): {issued, issued_value, cancelled, errors, waiting, iss}. issued: authorized or
-- cancellation denied (the note stands), by the authorization's date; iss: the ISS of those; cancelled: by the
-- cancellation's date; errors and waiting: by the creation's.
create or replace function public.admin_invoice_totals(p_school_id uuid default null, p_from date default null, p_to date default null)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_start timestamptz;
  v_end timestamptz;
  v_result jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  v_start := private.recovery_period_from(p_from, p_to)::timestamp at time zone 'America/Sao_Paulo';
  v_end := (coalesce(p_to, (now() at time zone 'America/Sao_Paulo')::date) + 1)::timestamp at time zone 'America/Sao_Paulo';
  select jsonb_build_object(
    'issued', count(*) filter (where i.status in ('authorized', 'cancellation_denied') and i.authorized_at >= v_start and i.authorized_at < v_end),
    'issued_value', coalesce(sum(i.value) filter (where i.status in ('authorized', 'cancellation_denied') and i.authorized_at >= v_start and i.authorized_at < v_end), 0),
    'cancelled', count(*) filter (where i.status = 'cancelled' and i.cancelled_at >= v_start and i.cancelled_at < v_end),
    'errors', count(*) filter (where i.status = 'error' and i.created_at >= v_start and i.created_at < v_end),
    'waiting', count(*) filter (where i.status in ('pending', 'creating', 'scheduled', 'synchronized', 'processing_cancellation')
                                  and i.created_at >= v_start and i.created_at < v_end),
    'iss', coalesce(sum(i.iss_value) filter (where i.status in ('authorized', 'cancellation_denied') and i.authorized_at >= v_start and i.authorized_at < v_end), 0))
    into v_result
    from public.invoices i
   where i.school_id = v_school
     and (i.created_at >= v_start or i.authorized_at >= v_start or i.cancelled_at >= v_start);
  return v_result;
end $$;
revoke all on function public.admin_invoice_totals(uuid, date, date) from public, anon, authenticated;
grant execute on function public.admin_invoice_totals(uuid, date, date) to authenticated;
