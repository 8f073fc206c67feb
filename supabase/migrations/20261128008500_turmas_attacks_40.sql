-- Issue 40, the outside attack's findings on turmas (docs/turmas.md "Seats", docs/security.md):
-- 1. Unpaid charges drained a launch: a PENDING charge held a seat until its due date ended (a boleto: 3
--    days) and was counted per account, so one person with a few free sign-ups and one CPF sold a turma
--    out. A hold now lasts the charge's payable life as a PIX (the QR's expiry: its due date, the next
--    day), never longer for a boleto or a pending card (private.seat_hold_ends_at), and counts once per
--    buyer identity: a charge holds a seat only if no earlier live hold in the turma has the same account
--    or the same Asaas customer (found by CPF, payments.provider_customer_id). A charge that holds no seat
--    is still payable; at payment it gets a seat only if one is free (5).
-- 2. A refunded, paused or expired enrollment no longer takes a seat (turma_seats_taken, admin_turmas'
--    students). A staff write that gives such an enrollment access back takes a seat again (checked).
--    The waiting list is told when a student leaves that way too.
-- 3. An enrollment whose turma has ended and whose expiry is cleared (a subscription, a new purchase, the
--    webhook re-activating it) leaves the ended turma instead of having the end written back; a plan
--    cannot be limited to an ended turma, and a plan's turma that has ended since is ignored.
-- 4. public.turma_ended for student-webhook: its old cohort_id maps only to a turma not ended, an
--    explicit ended turma answers 409 "Turma encerrada".
-- 5. A payment enrolls into its item's turma only while it has a seat and has not ended; else into the
--    turma the course sells now (private.selling_turma, under its lock); with none, the buyer is kept
--    PAUSED outside any turma (no access, no seat) for staff to place or refund. Never over the seats.
-- 6. Turma announcements and "Ranking por turma" use active, unexpired membership
--    (private.my_active_turma_ids), the rule of the turma announcement e-mail (…008001).
-- 7. announcement-videos: staff of the school read every file; a student only the video of an
--    announcement they may read (announcements_select's rule), so list and sign show nothing else.
set local lock_timeout = '5s';

-- ── Holds ─────────────────────────────────────────────────────────────────────────────────────
-- Until when an unpaid charge holds its seat: 24:00 (São Paulo) of its due date, and never past the day
-- after it was created (a PIX's QR; a boleto's 3 days are cut to that).
create function private.seat_hold_ends_at(p_due_date date, p_created_at timestamptz) returns timestamptz
language sql immutable set search_path = '' as $$
  select (least(p_due_date, (p_created_at at time zone 'America/Sao_Paulo')::date + 1) + 1)::timestamp at time zone 'America/Sao_Paulo'
$$;
revoke all on function private.seat_hold_ends_at(date, timestamptz) from public, anon, authenticated;
grant execute on function private.seat_hold_ends_at(date, timestamptz) to service_role;

-- Seats held in a turma by charges (not its students): a PENDING charge within its hold, or a paid one
-- whose buyer has no enrollment in the course yet; each counted only when it is the earliest live hold of
-- its account and of its Asaas customer (one hold per buyer identity). The given buyer's own are left out.
create function private.turma_seats_held(p_turma_id uuid, p_except_user uuid) returns integer
language plpgsql stable security definer set search_path = '' as $$
begin
  return (
    with live as (
      select p.id, p.user_id, p.created_at, coalesce(p.provider_customer_id, p.user_id::text) as payer
        from public.payment_items i join public.payments p on p.id = i.payment_id
       where i.turma_id = p_turma_id
         and ((p.status = 'PENDING' and p.replaced_by is null and private.seat_hold_ends_at(p.due_date, p.created_at) > now()
               and not exists (select 1 from public.enrollments e
                                where e.user_id = p.user_id and e.course_id = i.course_id and e.status = 'ACTIVE'
                                  and (e.expires_at is null or e.expires_at > now())))
              or (p.status in ('CONFIRMED', 'RECEIVED')
                  and not exists (select 1 from public.enrollments e where e.user_id = p.user_id and e.course_id = i.course_id)))
    )
    select count(*)::integer from live l
     where l.user_id is distinct from p_except_user
       and not exists (select 1 from live o
                        where (o.created_at, o.id) < (l.created_at, l.id) and (o.user_id = l.user_id or o.payer = l.payer)));
end $$;
revoke all on function private.turma_seats_held(uuid, uuid) from public, anon, authenticated;
grant execute on function private.turma_seats_held(uuid, uuid) to service_role;

-- The seats a turma has given: its students with access (ACTIVE, unexpired) plus the holds.
create or replace function private.turma_seats_taken(p_turma_id uuid, p_except_user uuid) returns integer
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select count(*)::integer from public.enrollments e
           where e.turma_id = p_turma_id and e.user_id is distinct from p_except_user
             and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now()))
       + private.turma_seats_held(p_turma_id, p_except_user);
end $$;

-- ── Ended turmas ──────────────────────────────────────────────────────────────────────────────
create function private.turma_ended(p_turma_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select t.ends_on is not null and now() >= private.turma_ends_at(t.ends_on)
                     from public.turmas t where t.id = p_turma_id), false)
$$;
revoke all on function private.turma_ended(uuid) from public, anon, authenticated;
grant execute on function private.turma_ended(uuid) to service_role;

-- For student-webhook (service role only): has this turma ended?
create function public.turma_ended(p_turma_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return private.turma_ended(p_turma_id);
end $$;
revoke all on function public.turma_ended(uuid) from public, anon, authenticated;
grant execute on function public.turma_ended(uuid) to service_role;

-- 20261128004000's trigger, with two changes:
-- - an expiry cleared while the turma has ended takes the enrollment out of the turma (otherwise the
--   ended turma's end is written back and whoever gave access back, a subscription, a purchase or the
--   webhook, gives nothing);
-- - a staff write takes a seat whenever the enrollment comes to hold one (a new one, a move, or a paused
--   or expired one given access again), under the turma's row lock.
create or replace function private.enrollments_turma() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_turma public.turmas;
  v_old_end timestamptz;
  v_had_seat boolean;
begin
  if new.turma_id is null then
    return new;
  end if;
  select * into v_turma from public.turmas t where t.id = new.turma_id;
  if v_turma.course_id is distinct from new.course_id then
    raise exception 'A turma é de outro curso.' using errcode = '23514';
  end if;
  if tg_op = 'UPDATE' and old.turma_id is not distinct from new.turma_id and new.expires_at is null and old.expires_at is not null
     and private.turma_ended(new.turma_id) then
    new.turma_id := null;
    return new;
  end if;
  if tg_op = 'UPDATE' and new.turma_id is distinct from old.turma_id and new.expires_at is not distinct from old.expires_at then
    select private.turma_ends_at(t.ends_on) into v_old_end from public.turmas t where t.id = old.turma_id;
    if old.expires_at is not distinct from v_old_end then
      new.expires_at := private.turma_ends_at(v_turma.ends_on);
    end if;
  end if;
  if new.expires_at is null then
    new.expires_at := private.turma_ends_at(v_turma.ends_on);
  end if;
  v_had_seat := tg_op = 'UPDATE' and old.turma_id is not distinct from new.turma_id
                and old.status = 'ACTIVE' and (old.expires_at is null or old.expires_at > now());
  if not v_had_seat and new.status = 'ACTIVE' and (new.expires_at is null or new.expires_at > now())
     and v_turma.seats is not null and coalesce(auth.role(), 'service_role') = 'authenticated' then
    perform 1 from public.turmas t where t.id = new.turma_id for update;
    select * into v_turma from public.turmas t where t.id = new.turma_id;
    if private.turma_seats_taken(new.turma_id, new.user_id) >= v_turma.seats then
      raise exception 'Turma esgotada.' using errcode = 'PT409';
    end if;
  end if;
  return new;
end $$;
drop trigger enrollments_turma on public.enrollments;
create trigger enrollments_turma before insert or update of turma_id, expires_at, course_id, status on public.enrollments
  for each row execute function private.enrollments_turma();

-- A student who stops holding a seat (a refund's pause) frees it: the waiting list is told (…008000).
create trigger enrollments_turma_waitlist_pause after update of status on public.enrollments
  for each row when (old.turma_id is not null and old.status = 'ACTIVE' and new.status <> 'ACTIVE')
  execute function private.turma_waitlist_event();

-- ── A plan's turma ────────────────────────────────────────────────────────────────────────────
create function private.plans_turma_not_ended() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if private.turma_ended(new.turma_id) then
    raise exception 'Esta turma já foi encerrada.' using errcode = '23514';
  end if;
  return new;
end $$;
revoke all on function private.plans_turma_not_ended() from public, anon, authenticated;
create trigger plans_turma_not_ended before insert or update of turma_id on public.plans
  for each row when (new.turma_id is not null) execute function private.plans_turma_not_ended();

-- 20261128004201's access of a subscription: a plan's turma that has ended since is not used.
create or replace function private.set_subscription_access(p_subscription public.subscriptions, p_active boolean) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if p_active then
    insert into public.enrollments (user_id, course_id, status, subscription_id, turma_id)
    select p_subscription.user_id, pc.course_id, 'ACTIVE', p_subscription.id, t.id
      from public.plan_courses pc
      join public.plans pl on pl.id = pc.plan_id
      left join public.turmas t on t.id = pl.turma_id and t.course_id = pc.course_id and not private.turma_ended(t.id)
     where pc.plan_id = p_subscription.plan_id
    on conflict (user_id, course_id) do update
      -- An expired enrollment taken over would stay closed by its old expires_at: cleared, as enroll_bought
      -- does (an ended turma is then left: enrollments_turma).
      set status = 'ACTIVE', subscription_id = excluded.subscription_id,
          turma_id = coalesce(excluded.turma_id, public.enrollments.turma_id),
          expires_at = case when public.enrollments.expires_at is not null and public.enrollments.expires_at <= now()
                            then null else public.enrollments.expires_at end
      where public.enrollments.subscription_id is not null or public.enrollments.status <> 'ACTIVE'
         or (public.enrollments.expires_at is not null and public.enrollments.expires_at <= now());
  else
    update public.enrollments set status = 'PAUSED'
     where subscription_id = p_subscription.id and status = 'ACTIVE';
  end if;
end $$;

-- ── The paid event ────────────────────────────────────────────────────────────────────────────
-- Where a paid item of a course with turmas gets its seat: its own turma while it has one and has not
-- ended (its hold may have lapsed, or never counted: one hold per buyer identity), else the turma the
-- course sells now; null when no turma has a seat. Under the turmas' row locks.
create function private.turma_seat_at_payment(p_turma_id uuid, p_course_id uuid, p_user_id uuid) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  v_turma public.turmas;
  v_sale record;
begin
  select * into v_turma from public.turmas t where t.id = p_turma_id for update;
  if v_turma.id is not null and not private.turma_ended(v_turma.id)
     and (v_turma.seats is null or private.turma_seats_taken(v_turma.id, p_user_id) < v_turma.seats) then
    return v_turma.id;
  end if;
  select * into v_sale from private.selling_turma(p_course_id, p_user_id, true);
  return (v_sale.turma).id;
end $$;
revoke all on function private.turma_seat_at_payment(uuid, uuid, uuid) from public, anon, authenticated;

-- 20261128004001's enrollment of a paid purchase, each item into the turma where it has a seat (the
-- item's turma_id follows, so the payment holds nothing elsewhere). An item sold in a turma with no seat
-- left anywhere: the buyer is kept PAUSED outside any turma (no access, no seat; an enrollment they
-- already have with access is left as it is), for staff to place in a turma or refund.
create or replace function private.enroll_bought(p_payment public.payments) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  r record;
  v_turma uuid;
  v_any boolean := false;
begin
  for r in select i.id, i.course_id, i.turma_id from public.payment_items i
            where i.payment_id = p_payment.id and i.course_id is not null order by i.id
  loop
    v_turma := case when r.turma_id is not null then private.turma_seat_at_payment(r.turma_id, r.course_id, p_payment.user_id) end;
    if v_turma is distinct from r.turma_id then
      update public.payment_items set turma_id = v_turma where id = r.id;
    end if;
    if r.turma_id is not null and v_turma is null then
      insert into public.enrollments (user_id, course_id, status)
      values (p_payment.user_id, r.course_id, 'PAUSED')
      on conflict (user_id, course_id) do update set status = 'PAUSED', subscription_id = null, turma_id = null
        where not (public.enrollments.status = 'ACTIVE'
                   and (public.enrollments.expires_at is null or public.enrollments.expires_at > now()));
      continue;
    end if;
    insert into public.enrollments (user_id, course_id, status, turma_id)
    values (p_payment.user_id, r.course_id, 'ACTIVE', v_turma)
    on conflict (user_id, course_id) do update
      set status = 'ACTIVE', subscription_id = null,
          turma_id = coalesce(excluded.turma_id, public.enrollments.turma_id),
          expires_at = case when public.enrollments.expires_at is not null and public.enrollments.expires_at <= now()
                            then null else public.enrollments.expires_at end;
    v_any := true;
  end loop;
  return v_any;
end $$;

-- ── Turma membership for announcements and the ranking ───────────────────────────────────────
-- The caller's turmas where they have access now (ACTIVE, unexpired). my_turma_ids (any status) stays for
-- reading the turma's own row and dates ("expirado" on the pages).
create function private.my_active_turma_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query select e.turma_id from public.enrollments e
                where e.user_id = (select auth.uid()) and e.turma_id is not null
                  and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now());
end $$;
revoke all on function private.my_active_turma_ids() from public, anon, authenticated;
grant execute on function private.my_active_turma_ids() to authenticated, service_role;

drop policy announcements_select on public.announcements;
create policy announcements_select on public.announcements for select to authenticated
  using ((is_active and school_id = (select private.my_school_id())
          and (turma_id is null or turma_id in (select private.my_active_turma_ids())))
         or school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));

-- 20261128004002's ranking: by turma, the caller's active turmas and mates with access.
create or replace function public.school_ranking(p_school_id uuid default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
  v_month date := private.sp_month(now());
  v_enabled boolean;
  v_by_turma boolean;
  v_opted_out boolean;
  v_is_student boolean;
  v_told boolean;
  v_mates uuid[];
  v_result jsonb;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not (v_school is not distinct from private.my_school_id() or private.is_school_staff(v_school)) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  select s.ranking_enabled, s.ranking_by_turma into v_enabled, v_by_turma
    from public.school_discussion_settings s where s.school_id = v_school;
  select exists (select 1 from public.ranking_opt_outs o where o.user_id = p.id),
         p.school_id = v_school and not private.has_any_role(p.id),
         exists (select 1 from public.ranking_notices n where n.user_id = p.id)
    into v_opted_out, v_is_student, v_told
    from public.profiles p where p.id = auth.uid();
  -- By turma, for a student: who shares one of their active turmas and has access there (none: nobody).
  if coalesce(v_by_turma, false) and not private.is_school_staff(v_school) then
    select coalesce(array_agg(distinct e.user_id), '{}') into v_mates
      from public.enrollments e
     where e.turma_id in (select private.my_active_turma_ids())
       and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now());
  end if;
  v_result := jsonb_build_object(
    'enabled', coalesce(v_enabled, false), 'month', v_month, 'opted_out', coalesce(v_opted_out, false),
    'by_turma', v_mates is not null,
    'weights', jsonb_build_object('lesson', 10, 'quiz', 30, 'answer', 20));
  if not coalesce(v_enabled, false) then
    return v_result || jsonb_build_object('top', '[]'::jsonb, 'me', null);
  end if;
  with ranked as (
    select rm.user_id, p.name, p.avatar_url, rm.lessons, rm.quizzes, rm.answers, rm.points,
           rank() over (order by rm.points desc) as pos,
           row_number() over (order by rm.points desc, p.name, rm.user_id) as rn
      from private.ranking_months rm
      join public.profiles p on p.id = rm.user_id
     where rm.school_id = v_school and rm.month = v_month and rm.points > 0
       and p.school_id = v_school and p.is_active
       and (v_mates is null or rm.user_id = any (v_mates))
       and not exists (select 1 from public.ranking_opt_outs o where o.user_id = rm.user_id)
       and not exists (select 1 from public.user_roles r where r.user_id = rm.user_id)
  )
  select v_result || jsonb_build_object(
           'top', coalesce((select jsonb_agg(jsonb_build_object('position', t.pos, 'user_id', t.user_id,
                                                                'name', private.ranking_display_name(t.name),
                                                                'avatar_url', t.avatar_url, 'points', t.points, 'lessons', t.lessons,
                                                                'quizzes', t.quizzes, 'answers', t.answers) order by t.rn)
                              from ranked t where t.rn <= 10), '[]'::jsonb),
           'me', case when v_is_student and not v_opted_out then
                   coalesce((select jsonb_build_object('position', m.pos, 'points', m.points, 'lessons', m.lessons,
                                                       'quizzes', m.quizzes, 'answers', m.answers,
                                                       'notice', m.rn <= 10 and not v_told)
                               from ranked m where m.user_id = auth.uid()),
                            jsonb_build_object('position', null, 'points', 0, 'lessons', 0, 'quizzes', 0, 'answers', 0, 'notice', false))
                 end)
    into v_result;
  return v_result;
end $$;

-- ── Turmas > a course: students with access and held seats apart ─────────────────────────────
drop function public.admin_turmas(uuid);
create function public.admin_turmas(p_course_id uuid)
returns table (id uuid, course_id uuid, name text, starts_on date, ends_on date, enroll_from timestamptz,
               enroll_until timestamptz, seats integer, waitlist_enabled boolean, status text,
               students integer, seats_taken integer, waiting integer, created_at timestamptz, held integer)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  if not private.is_course_staff(p_course_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select t.id, t.course_id, t.name, t.starts_on, t.ends_on, t.enroll_from, t.enroll_until, t.seats, t.waitlist_enabled,
         private.turma_status(t.starts_on, t.ends_on),
         (select count(*)::integer from public.enrollments e
           where e.turma_id = t.id and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())),
         private.turma_seats_taken(t.id, null),
         (select count(*)::integer from public.turma_waitlist w where w.turma_id = t.id),
         t.created_at,
         private.turma_seats_held(t.id, null)
    from public.turmas t
   where t.course_id = p_course_id
   order by t.starts_on, t.name;
end $$;
revoke all on function public.admin_turmas(uuid) from public, anon, authenticated;
grant execute on function public.admin_turmas(uuid) to authenticated, service_role;

-- ── announcement-videos ───────────────────────────────────────────────────────────────────────
-- Staff of the school (the first folder) read every file; anyone else only the file of an announcement
-- they may read (announcements_select's student rule: active, their school, for everyone or their active turma).
create function private.can_read_announcement_video(p_name text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(private.is_school_staff(private.uuid_or_null((storage.foldername(p_name))[1])), false)
      or exists (select 1 from public.announcements a
                  where a.video_url = p_name and a.video_type = 'direct' and a.is_active
                    and a.school_id = private.my_school_id()
                    and (a.turma_id is null or a.turma_id in (select private.my_active_turma_ids())))
$$;
revoke all on function private.can_read_announcement_video(text) from public, anon, authenticated;
grant execute on function private.can_read_announcement_video(text) to authenticated, service_role;
create index announcements_video_url_idx on public.announcements (video_url) where video_type = 'direct';

drop policy announcement_videos_select_members on storage.objects;
create policy announcement_videos_select on storage.objects for select to authenticated
  using (bucket_id = 'announcement-videos' and (select private.can_read_announcement_video(name)));
