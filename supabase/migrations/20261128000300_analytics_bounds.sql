-- Issue 37, hole 3: one staff call stopped the whole API. admin_chart_new_students(p_now => 'infinity')
-- had private.chart_ranges count buckets up to an infinite day: generate_series never ended, the
-- backend answered no one and its memory grew without bound. Every parameter a staff function sizes
-- its work by is bounded here, checked before any work, refused with a pt-BR message (22023):
--   - the instant a chart is computed at (p_now of the five dashboard charts, through chart_ranges,
--     and of admin_chart_student_activity): a real moment from 2000 to a day from now;
--   - the period: 7d, 30d, 90d or 12m (it was refused in English); the weeks of a student's activity:
--     1..52 (likewise);
--   - the dates of the sales filter (admin_sales, admin_sales_totals, through sales_of): real days from
--     2000 to 2100;
--   - the search term of the staff lists (admin_list_students, admin_comments): at most 200
--     characters, since every row is matched against it (200,000 characters took seconds).
-- Page sizes were bounded already (lists 1..100 rows, reports and sales 1..500) and an offset only
-- skips rows of the school's own. Behind all of it, each API request has its role's statement timeout
-- (authenticated 8 s), which local-supabase enforces on PGlite too. The bodies below are those of
-- 20261126001300_analytics.sql, 20261123000300_students_admin.sql, 20261126001100_selling.sql and
-- 20261126001400_discussions.sql with the checks added.
set local lock_timeout = '5s';

-- ── The bounds ─────────────────────────────────────────────────────────────────────────────────
create function private.check_chart_now(p_now timestamptz) returns void
language plpgsql stable set search_path = '' as $$
begin
  if p_now is null or not isfinite(p_now) or p_now < timestamptz '2000-01-01 00:00:00+00' or p_now > now() + interval '1 day' then
    raise exception 'Data de referência inválida: use um momento entre 01/01/2000 e amanhã.' using errcode = '22023';
  end if;
end $$;
revoke all on function private.check_chart_now(timestamptz) from public, anon, authenticated;

create function private.check_sales_dates(p_from date, p_to date) returns void
language plpgsql immutable set search_path = '' as $$
begin
  if (p_from is not null and p_from not between date '2000-01-01' and date '2100-12-31')
     or (p_to is not null and p_to not between date '2000-01-01' and date '2100-12-31') then
    raise exception 'Data inválida no filtro: use datas entre 01/01/2000 e 31/12/2100.' using errcode = '22023';
  end if;
end $$;
revoke all on function private.check_sales_dates(date, date) from public, anon, authenticated;

-- The term a list searches for (null: none); admin_list_students runs as the caller, hence the grant.
create function private.search_term(p_search text) returns text
language plpgsql immutable set search_path = '' as $$
begin
  if length(p_search) > 200 then
    raise exception 'Busca muito longa: use até 200 caracteres.' using errcode = '22023';
  end if;
  return nullif(btrim(coalesce(p_search, '')), '');
end $$;
revoke all on function private.search_term(text) from public, anon, authenticated;
grant execute on function private.search_term(text) to authenticated, service_role;

-- ── Dashboard charts: chart_ranges checks the instant and the period for all five ─────────────
create or replace function private.chart_ranges(p_period text, p_now timestamptz)
returns table (kind text, unit text, first_day date, last_day date, from_at timestamptz, to_at timestamptz)
language plpgsql stable set search_path = '' as $$
declare
  v_today date := (p_now at time zone 'America/Sao_Paulo')::date;
  v_unit text;
  v_first date;
  v_prev date;
begin
  perform private.check_chart_now(p_now);
  case p_period
    when '7d' then v_unit := 'day'; v_first := v_today - 6; v_prev := v_first - 7;
    when '30d' then v_unit := 'day'; v_first := v_today - 29; v_prev := v_first - 30;
    when '90d' then v_unit := 'week'; v_first := v_today - 89; v_prev := v_first - 90;
    when '12m' then v_unit := 'month'; v_first := (date_trunc('month', v_today::timestamp) - interval '11 months')::date;
                    v_prev := (v_first - interval '12 months')::date;
    else raise exception 'Período inválido: use 7d, 30d, 90d ou 12m.' using errcode = '22023';
  end case;
  return query
  with starts as (
    select v_first as d
    union
    select s::date from generate_series(date_trunc(v_unit, v_first::timestamp) + ('1 ' || v_unit)::interval,
                                        v_today::timestamp, ('1 ' || v_unit)::interval) s
  ), ranges as (
    select 'bucket' as kind, s.d as first_day, coalesce(lead(s.d) over (order by s.d), v_today + 1) - 1 as last_day from starts s
    union all select 'total', v_first, v_today
    union all select 'previous', v_prev, v_first - 1
  )
  select r.kind, v_unit, r.first_day, r.last_day,
         r.first_day::timestamp at time zone 'America/Sao_Paulo', (r.last_day + 1)::timestamp at time zone 'America/Sao_Paulo'
    from ranges r;
end $$;


-- ── A student's weekly activity ─────────────────────────────────────────────────────────────
create or replace function public.admin_chart_student_activity(p_user_id uuid, p_weeks integer default 12, p_now timestamptz default now())
returns table (week_start date, completed bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_monday date := date_trunc('week', (p_now at time zone 'America/Sao_Paulo'))::date;
begin
  perform private.refuse_while_password_change_pending();
  perform private.chart_student_school(p_user_id);
  perform private.check_chart_now(p_now);
  if p_weeks is null or p_weeks not between 1 and 52 then
    raise exception 'Número de semanas inválido: use de 1 a 52.' using errcode = '22023';
  end if;
  return query
  select w.d::date,
         (select count(*) from public.progress p
           where p.user_id = p_user_id
             and p.completed_at >= w.d at time zone 'America/Sao_Paulo'
             and p.completed_at < (w.d + interval '7 days') at time zone 'America/Sao_Paulo')
    from generate_series((v_monday - 7 * (p_weeks - 1))::timestamp, v_monday::timestamp, interval '7 days') w (d)
   order by 1;
end $$;


-- ── Sales: the filter's dates, for admin_sales and admin_sales_totals ─────────────────────────
create or replace function private.sales_of(p_school_id uuid, p_status text, p_method text, p_course_id uuid, p_from date, p_to date)
returns setof public.payments
language sql stable security definer set search_path = '' as $$
  select private.check_sales_dates(p_from, p_to);
  select p.* from public.payments p
   where p.school_id = p_school_id
     and (p_status is null or p.status = p_status)
     and (p_method is null or p.billing_type = p_method)
     and (p_course_id is null or exists (select 1 from public.payment_items i where i.payment_id = p.id and i.course_id = p_course_id))
     and (p_from is null or p.created_at >= p_from::timestamp at time zone 'America/Sao_Paulo')
     and (p_to is null or p.created_at < (p_to + 1)::timestamp at time zone 'America/Sao_Paulo')
$$;


-- ── Staff lists: the search term ────────────────────────────────────────────────────────────
create or replace function public.admin_list_students(
  p_school_id uuid, p_search text default null, p_limit integer default 24, p_offset integer default 0
) returns table (
  id uuid, name text, email text, cpf text, phone text, address text, avatar_url text,
  is_active boolean, must_change_password boolean, created_at timestamptz, total_count bigint
)
language sql stable security invoker set search_path = '' as $$
  with q as (select private.search_term(p_search) as term),
  matches as (
    select p.* from public.profiles p, q
    where p.school_id = p_school_id
      -- A definer helper: the caller may not see every role row (a super admin's has no school).
      and not private.has_any_role(p.id)
      and (q.term is null
           or p.name ilike '%' || q.term || '%'
           or p.email ilike '%' || q.term || '%'
           or (length(regexp_replace(q.term, '\D', '', 'g')) >= 3
               and regexp_replace(coalesce(p.cpf, ''), '\D', '', 'g') like '%' || regexp_replace(q.term, '\D', '', 'g') || '%'))
  )
  select m.id, m.name, m.email, m.cpf, m.phone, m.address, m.avatar_url, m.is_active, m.must_change_password, m.created_at,
         count(*) over () as total_count
  from matches m
  order by m.created_at desc, m.id
  limit least(greatest(coalesce(p_limit, 24), 1), 100) offset greatest(coalesce(p_offset, 0), 0)
$$;


create or replace function public.admin_comments(
  p_school_id uuid default null, p_filter text default 'all', p_course_id uuid default null,
  p_search text default null, p_limit integer default 20, p_offset integer default 0
) returns table (
  id uuid, parent_id uuid, course_id uuid, course_title text, lesson_id uuid, lesson_title text,
  user_id uuid, author_name text, author_avatar_url text, author_role text, comment text, status text,
  created_at timestamptz, edited_at timestamptz, hidden_at timestamptz, hidden_reason text, hidden_by_name text,
  marked_answer_at timestamptz, parent_author_name text, parent_comment text, reply_count bigint,
  answered boolean, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid;
  v_filter text := coalesce(p_filter, 'all');
  v_term text := private.search_term(p_search);
begin
  perform private.refuse_while_password_change_pending();
  v_school := private.staff_school(p_school_id);
  if v_filter not in ('all', 'unanswered', 'hidden', 'pending') then
    raise exception 'Filtro desconhecido: %', v_filter using errcode = '22023';
  end if;
  return query
  with matches as (
    select lc.*, c.title as course_title
      from public.lesson_comments lc join public.courses c on c.id = lc.course_id
     where c.school_id = v_school
       and (p_course_id is null or lc.course_id = p_course_id)
       and (v_filter = 'all'
            or (v_filter = 'hidden' and lc.hidden_at is not null)
            or (v_filter = 'pending' and lc.status = 'pending')
            or (v_filter = 'unanswered' and lc.parent_id is null and lc.author_role is null and lc.status = 'published'
                and lc.hidden_at is null
                and not exists (select 1 from public.lesson_comments r
                                 where r.parent_id = lc.id and r.hidden_at is null
                                   and (r.author_role is not null or r.marked_answer_at is not null))))
       and (v_term is null or lc.comment ilike '%' || v_term || '%' or lc.author_name ilike '%' || v_term || '%')
  ), page as (
    select m.*, count(*) over () as total_count from matches m
     order by m.created_at desc, m.id desc
     limit least(greatest(coalesce(p_limit, 20), 1), 100) offset greatest(coalesce(p_offset, 0), 0)
  )
  select pg.id, pg.parent_id, pg.course_id, pg.course_title, pg.lesson_id, l.title, pg.user_id, pg.author_name,
         pg.author_avatar_url, pg.author_role, pg.comment, pg.status, pg.created_at, pg.edited_at, pg.hidden_at,
         mo.hidden_reason, hb.name, pg.marked_answer_at, q.author_name, q.comment,
         (select count(*) from public.lesson_comments r where r.parent_id = pg.id),
         case when pg.parent_id is null and pg.author_role is null
              then exists (select 1 from public.lesson_comments r
                            where r.parent_id = pg.id and r.hidden_at is null
                              and (r.author_role is not null or r.marked_answer_at is not null)) end,
         pg.total_count
    from page pg
    join public.lessons l on l.id = pg.lesson_id
    left join public.lesson_comments q on q.id = pg.parent_id
    left join public.lesson_comment_moderation mo on mo.comment_id = pg.id
    left join public.profiles hb on hb.id = mo.hidden_by
   order by pg.created_at desc, pg.id desc;
end $$;

