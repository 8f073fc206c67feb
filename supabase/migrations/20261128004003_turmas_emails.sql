-- Issue 40: "Sua turma começa amanhã", a new lifecycle e-mail (docs/turmas.md, docs/emails.md), and
-- "Conteúdo liberado" on the turma's calendar.
-- - queue_daily_emails (20261126000700's, run daily at 09:00 in Brasília by the existing job) writes
--   turma_starts_tomorrow for each active student of a turma that starts tomorrow, once per student and
--   turma (key 'turma:<turma>:<student>'). It is an access message like "Acesso liberado": always sent.
-- - "Conteúdo liberado" dates a module by private.enrollment_release_at: from the turma's start and its
--   module dates inside a turma (an IMMEDIATE module opens with the turma's start, so it is news then).
set local lock_timeout = '5s';

alter table public.email_outbox drop constraint email_outbox_kind_check;
alter table public.email_outbox add constraint email_outbox_kind_check check (kind in (
  'access_granted', 'new_enrollment', 'payment_pending', 'payment_reminder', 'payment_confirmed',
  'payment_refunded', 'content_released', 'we_miss_you', 'certificate_available', 'turma_starts_tomorrow'));

create or replace function public.queue_daily_emails(p_now timestamptz default now())
returns integer
language plpgsql volatile security definer set search_path = '' as $function$
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
      join public.modules m on m.course_id = c.id
      left join public.turmas t on t.id = e.turma_id
      join auth.users u on u.id = e.user_id
      left join public.profiles pr on pr.id = e.user_id
     where e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > p_now) and u.email is not null
       -- Outside a turma an IMMEDIATE module opens with the enrollment; inside one, at the turma's start.
       and (m.release_mode <> 'IMMEDIATE' or t.id is not null)
       and private.enrollment_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at, t.starts_on, private.turma_opens_on(t.id, m.id))
           between (v_today::timestamp at time zone 'America/Sao_Paulo') and p_now
     group by e.user_id, c.school_id, u.email, pr.name
  loop
    if private.enqueue_email(r.school_id, r.user_id, r.email, 'content_released', 'content:' || r.user_id || ':' || v_today,
         jsonb_build_object('name', coalesce(r.name, ''), 'modules', r.modules)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;

  -- Sua turma começa amanhã: the students of a turma whose start (00:00 in Brasília) is tomorrow.
  for r in
    select e.user_id, t.id as turma_id, t.name as turma_name, t.starts_on, c.id as course_id, c.title, c.school_id, u.email, pr.name
      from public.turmas t
      join public.enrollments e on e.turma_id = t.id
      join public.courses c on c.id = t.course_id
      join auth.users u on u.id = e.user_id
      left join public.profiles pr on pr.id = e.user_id
     where t.starts_on = v_today + 1 and c.status = 'PUBLISHED'
       and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > p_now) and u.email is not null
  loop
    if private.enqueue_email(r.school_id, r.user_id, r.email, 'turma_starts_tomorrow', 'turma:' || r.turma_id || ':' || r.user_id,
         jsonb_build_object('name', coalesce(r.name, ''), 'course_title', r.title, 'course_id', r.course_id,
                            'turma_name', r.turma_name, 'starts_on', r.starts_on)) is not null then
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
end $function$;
