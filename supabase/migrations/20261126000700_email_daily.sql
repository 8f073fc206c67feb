-- Issue 22: the e-mails that come from the calendar rather than from an event, written once a day
-- (09:00 in Brasília) by queue_daily_emails, scheduled with pg_cron like the sender. Each has a key per
-- student and day, so running the day twice writes nothing new.
-- - "Lembrete de boleto": a boleto still PENDING that falls due tomorrow (its due date is the one the
--   "Pagamento pendente" e-mail carried).
-- - "Conteúdo liberado": drip modules that opened today for an active enrollment, one e-mail per
--   student and day grouping them.
-- - "Sentimos sua falta": 7 days without signing in or studying, with an active, unfinished
--   enrollment; at most once every 30 days.
-- p_now is the clock (tests pass their own).
set local lock_timeout = '5s';

create function public.queue_daily_emails(p_now timestamptz default now())
returns integer
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_today date := (p_now at time zone 'America/Sao_Paulo')::date;
  v_count integer := 0;
  r record;
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;

  -- Lembrete de boleto.
  for r in
    select p.id, p.school_id, p.user_id, o.to_email, o.payload
      from public.payments p
      join public.email_outbox o on o.school_id = p.school_id and o.idempotency_key = 'payment:' || p.id || ':pending'
     where p.status = 'PENDING' and p.billing_type = 'BOLETO'
       and o.payload->>'due_date' ~ '^\d{4}-\d{2}-\d{2}$' and (o.payload->>'due_date')::date = v_today + 1
  loop
    if private.enqueue_email(r.school_id, r.user_id, r.to_email, 'payment_reminder', 'payment:' || r.id || ':reminder', r.payload) is not null then
      v_count := v_count + 1;
    end if;
  end loop;

  -- Conteúdo liberado: what opened between the start of today and now, in Brasília.
  for r in
    select e.user_id, c.school_id, u.email, pr.name,
           jsonb_agg(jsonb_build_object('course_title', c.title, 'course_id', c.id, 'module_title', m.title) order by c.title, m.order_index) as modules
      from public.enrollments e
      join public.courses c on c.id = e.course_id
      join public.modules m on m.course_id = c.id and m.release_mode <> 'IMMEDIATE'
      join auth.users u on u.id = e.user_id
      left join public.profiles pr on pr.id = e.user_id
     where e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > p_now) and u.email is not null
       and private.module_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at)
           between (v_today::timestamp at time zone 'America/Sao_Paulo') and p_now
     group by e.user_id, c.school_id, u.email, pr.name
  loop
    if private.enqueue_email(r.school_id, r.user_id, r.email, 'content_released', 'content:' || r.user_id || ':' || v_today,
         jsonb_build_object('name', coalesce(r.name, ''), 'modules', r.modules)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;

  -- Sentimos sua falta: the unfinished course studied last, for who has been away 7 days.
  for r in
    with last_seen as (
      select u.id as user_id, u.email,
             greatest(u.last_sign_in_at, (select max(p.updated_at) from public.progress p where p.user_id = u.id)) as seen_at
        from auth.users u
    ), unfinished as (
      select e.user_id, c.id as course_id, c.title, c.school_id, e.created_at,
             (select count(*) from public.lessons l where l.course_id = c.id) as total,
             (select count(*) from public.progress p join public.lessons l on l.id = p.lesson_id
               where p.user_id = e.user_id and l.course_id = c.id and p.completed_at is not null) as done
        from public.enrollments e join public.courses c on c.id = e.course_id
       where e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > p_now)
    )
    select distinct on (f.user_id) f.user_id, f.school_id, f.course_id, f.title, s.email, pr.name,
           round(100.0 * f.done / nullif(f.total, 0)) as percent
      from unfinished f
      join last_seen s on s.user_id = f.user_id
      left join public.profiles pr on pr.id = f.user_id
     where f.total > f.done and s.email is not null
       and coalesce(s.seen_at, f.created_at) <= p_now - interval '7 days'
       -- The day each one was for is in its key ('miss:<user>:<date>'): the same clock as p_now.
       and not exists (select 1 from public.email_outbox o where o.user_id = f.user_id and o.kind = 'we_miss_you'
                        and substring(o.idempotency_key from '\d{4}-\d{2}-\d{2}$')::date > v_today - 30)
     order by f.user_id, f.done desc, f.created_at desc
  loop
    if private.enqueue_email(r.school_id, r.user_id, r.email, 'we_miss_you', 'miss:' || r.user_id || ':' || v_today,
         jsonb_build_object('name', coalesce(r.name, ''), 'course_title', r.title, 'course_id', r.course_id, 'progress_percent', coalesce(r.percent, 0))) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end $$;
revoke all on function public.queue_daily_emails(timestamptz) from public, anon, authenticated;
grant execute on function public.queue_daily_emails(timestamptz) to service_role;

-- 09:00 in Brasília (pg_cron reads UTC on Supabase).
select cron.schedule('queue-daily-emails', '0 12 * * *', 'select public.queue_daily_emails()');
