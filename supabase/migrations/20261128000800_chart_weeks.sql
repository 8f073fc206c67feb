-- Issue 46: the dashboard's 90-day table listed "semana de 30/08" and then "semana de 31/08". The 90 days
-- began on whatever weekday today minus 89 fell on (a Sunday then), and that day opened a bucket of its
-- own before the first Monday, so the first "week" was one day long. Not a time-zone matter: every day
-- was already a São Paulo calendar day. Now the 90-day period is whole ISO weeks: the 13 weeks that end
-- with the current one, each bucket from a Monday (the last one up to today), 85 to 91 days in all. The
-- previous period, the "+12% vs. período anterior" of the card, is the same number of days just before.
-- The rest of private.chart_ranges is that of 20261128000300_analytics_bounds.sql, unchanged.
set local lock_timeout = '5s';

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
    -- The Monday 12 weeks before this week's Monday; the previous period as long as this one.
    when '90d' then v_unit := 'week'; v_first := date_trunc('week', v_today::timestamp)::date - 84;
                    v_prev := v_first - (v_today - v_first + 1);
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
