-- Issue 40: turmas, the classes of a course (docs/turmas.md has the design and the API the screens use).
-- - public.turmas: a course's classes (start, end or "sem término", enrollment window, seats, waiting
--   list on or off). The status (aberta, em andamento, encerrada) is derived from the dates, never stored
--   (private.turma_status), so it cannot drift from them.
-- - public.turma_module_dates: a turma's own opening date for a module, overriding the course's rule.
-- - enrollments.turma_id: the student's turma in that course (one enrollment per student and course, so
--   at most one turma per student and course). A turma's end is stored in the enrollment's expires_at
--   (private.enrollments_turma), so every place that already honours an expiry (lessons, materials,
--   quizzes, signed files, video playback, the catalog, certificates, e-mails) ends access with the
--   turma, with the same messages; staff extend it by setting a later expires_at, which wins.
-- - Drip inside a turma counts from the turma's start (00:00 in São Paulo), a turma's module date opens
--   the module at 00:00 in São Paulo that day, and nothing of a lesson opens before the start:
--   private.enrollment_release_at, used where module_release_at was (accessible_lesson_ids,
--   has_lesson_access, is_module_released). has_lesson_access keeps its signature.
-- - public.turma_waitlist: who waits for a seat of a course whose turmas are full.
-- - RPCs for staff: admin_turmas (the list with status and seats taken), move_enrollment_to_turma,
--   turma_for (a turma by id or name: the webhook and the CSV import); for students: join_turma_waitlist.
set local lock_timeout = '5s';

-- ── The turma's moments ──────────────────────────────────────────────────────────────────────
-- The start: 00:00 of starts_on in São Paulo. The end: access lasts through the whole ends_on day.
create function private.turma_starts_at(p_starts_on date) returns timestamptz
language sql immutable set search_path = '' as $$
  select p_starts_on::timestamp at time zone 'America/Sao_Paulo'
$$;
revoke all on function private.turma_starts_at(date) from public, anon, authenticated;
grant execute on function private.turma_starts_at(date) to authenticated, service_role;

create function private.turma_ends_at(p_ends_on date) returns timestamptz
language sql immutable set search_path = '' as $$
  select (p_ends_on + 1)::timestamp at time zone 'America/Sao_Paulo'
$$;
revoke all on function private.turma_ends_at(date) from public, anon, authenticated;
grant execute on function private.turma_ends_at(date) to authenticated, service_role;

-- 'aberta' before the start, 'em andamento' from the start through the end day, 'encerrada' after it.
create function private.turma_status(p_starts_on date, p_ends_on date, p_now timestamptz default now()) returns text
language sql stable set search_path = '' as $$
  select case when p_now < private.turma_starts_at(p_starts_on) then 'aberta'
              when p_ends_on is not null and p_now >= private.turma_ends_at(p_ends_on) then 'encerrada'
              else 'em andamento' end
$$;
revoke all on function private.turma_status(date, date, timestamptz) from public, anon, authenticated;
grant execute on function private.turma_status(date, date, timestamptz) to authenticated, service_role;

-- ── public.turmas ────────────────────────────────────────────────────────────────────────────
create table public.turmas (
  id uuid primary key default gen_random_uuid(),
  -- Set from the course by the trigger below (what the policies filter on).
  school_id uuid not null references public.schools (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  name text not null,
  starts_on date not null,
  -- null: "sem término".
  ends_on date,
  -- The checkout sells the turma only inside this window (null: no bound on that side).
  enroll_from timestamptz,
  enroll_until timestamptz,
  -- null: no limit.
  seats integer,
  waitlist_enabled boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint turmas_name_length check (length(btrim(name)) between 1 and 120 and name = btrim(name)),
  constraint turmas_starts_on_range check (starts_on between date '2000-01-01' and date '2999-12-31'),
  constraint turmas_ends_on_range check (ends_on between date '2000-01-01' and date '2999-12-31'),
  constraint turmas_ends_after_start check (ends_on >= starts_on),
  constraint turmas_enroll_window check (enroll_until > enroll_from),
  constraint turmas_seats_check check (seats between 1 and 100000)
);
comment on table public.turmas is 'A class of a course (issue 40): start, end or none, enrollment window, seats and waiting list; its students start together, follow its calendar and lose access at its end.';
-- One name per course, whatever its case (the webhook and the CSV import find a turma by name).
create unique index turmas_course_name_key on public.turmas (course_id, lower(name));
create index turmas_school_id_idx on public.turmas (school_id);
create index turmas_course_starts_idx on public.turmas (course_id, starts_on);
alter table public.turmas enable row level security;
revoke all on public.turmas from public, anon, authenticated;
grant select, insert, delete on public.turmas to authenticated;
grant update (name, starts_on, ends_on, enroll_from, enroll_until, seats, waitlist_enabled) on public.turmas to authenticated;
grant all on public.turmas to service_role;

-- ── enrollments.turma_id ─────────────────────────────────────────────────────────────────────
alter table public.enrollments add column turma_id uuid references public.turmas (id) on delete set null;
create index enrollments_turma_id_idx on public.enrollments (turma_id) where turma_id is not null;
-- The checkout's seat: the turma a purchased course was sold in.
alter table public.payment_items add column turma_id uuid references public.turmas (id) on delete set null;
create index payment_items_turma_id_idx on public.payment_items (turma_id) where turma_id is not null;
-- Staff set a turma on insert (the Enrollments screen, the CSV import) and move a student with
-- move_enrollment_to_turma; no update grant on the column.

-- The caller's turmas (any status of the enrollment): what a student may read of turmas.
create function private.my_turma_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query select e.turma_id from public.enrollments e
                where e.user_id = (select auth.uid()) and e.turma_id is not null;
end $$;
revoke all on function private.my_turma_ids() from public, anon, authenticated;
grant execute on function private.my_turma_ids() to authenticated, service_role;


-- Staff of the school manage; a student reads the turmas they are in (name and dates for the pages).
create policy turmas_select on public.turmas for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin())
         or id in (select private.my_turma_ids()));
create policy turmas_insert on public.turmas for insert to authenticated
  with check ((select private.is_school_staff(turmas.school_id)));
create policy turmas_update on public.turmas for update to authenticated
  using ((select private.is_school_staff(turmas.school_id)))
  with check ((select private.is_school_staff(turmas.school_id)));
create policy turmas_delete on public.turmas for delete to authenticated
  using ((select private.is_school_staff(turmas.school_id)));
create policy turmas_password_change on public.turmas as restrictive for all to authenticated
  using (not (select private.password_change_pending()))
  with check (not (select private.password_change_pending()));

-- school_id follows the course (a staff member of another school cannot file a turma under their own
-- school for this school's course: the policy then checks the course's school).
create function private.turmas_prepare() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.school_id := (select c.school_id from public.courses c where c.id = new.course_id);
  return new;
end $$;
revoke all on function private.turmas_prepare() from public, anon, authenticated;
create trigger turmas_prepare before insert on public.turmas
  for each row execute function private.turmas_prepare();
create trigger turmas_touch before update on public.turmas
  for each row execute function private.touch_timestamps();

-- ── public.turma_module_dates ────────────────────────────────────────────────────────────────
create table public.turma_module_dates (
  turma_id uuid not null references public.turmas (id) on delete cascade,
  module_id uuid not null references public.modules (id) on delete cascade,
  -- Set from the turma by the trigger below.
  school_id uuid not null references public.schools (id) on delete cascade,
  -- The module opens at 00:00 in São Paulo on this day for the turma's students (never before the turma's start).
  opens_on date not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (turma_id, module_id),
  constraint turma_module_dates_opens_on_range check (opens_on between date '2000-01-01' and date '2999-12-31')
);
comment on table public.turma_module_dates is 'A turma''s own opening date for a module of its course, overriding the module''s release rule for the turma''s students.';
create index turma_module_dates_module_id_idx on public.turma_module_dates (module_id);
create index turma_module_dates_school_id_idx on public.turma_module_dates (school_id);
alter table public.turma_module_dates enable row level security;
revoke all on public.turma_module_dates from public, anon, authenticated;
grant select, insert, delete on public.turma_module_dates to authenticated;
grant update (opens_on) on public.turma_module_dates to authenticated;
grant all on public.turma_module_dates to service_role;
create policy turma_module_dates_select on public.turma_module_dates for select to authenticated
  using (school_id in (select private.staff_school_ids()) or (select private.is_super_admin())
         or turma_id in (select private.my_turma_ids()));
create policy turma_module_dates_insert on public.turma_module_dates for insert to authenticated
  with check ((select private.is_school_staff(turma_module_dates.school_id)));
create policy turma_module_dates_update on public.turma_module_dates for update to authenticated
  using ((select private.is_school_staff(turma_module_dates.school_id)))
  with check ((select private.is_school_staff(turma_module_dates.school_id)));
create policy turma_module_dates_delete on public.turma_module_dates for delete to authenticated
  using ((select private.is_school_staff(turma_module_dates.school_id)));
create policy turma_module_dates_password_change on public.turma_module_dates as restrictive for all to authenticated
  using (not (select private.password_change_pending()))
  with check (not (select private.password_change_pending()));

create function private.turma_module_dates_prepare() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.turmas t join public.modules m on m.course_id = t.course_id
                  where t.id = new.turma_id and m.id = new.module_id) then
    raise exception 'O módulo não é do curso da turma.' using errcode = '23514';
  end if;
  new.school_id := (select t.school_id from public.turmas t where t.id = new.turma_id);
  return new;
end $$;
revoke all on function private.turma_module_dates_prepare() from public, anon, authenticated;
create trigger turma_module_dates_prepare before insert on public.turma_module_dates
  for each row execute function private.turma_module_dates_prepare();
create trigger turma_module_dates_touch before update on public.turma_module_dates
  for each row execute function private.touch_timestamps();

-- Seats a turma has given: its students, plus the checkouts holding one (a charge still payable, or
-- paid and not enrolled yet), except the given buyer's own.
create function private.turma_seats_taken(p_turma_id uuid, p_except_user uuid) returns integer
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select count(*) from public.enrollments e
           where e.turma_id = p_turma_id and e.user_id is distinct from p_except_user)
       + (select count(distinct p.user_id) from public.payment_items i join public.payments p on p.id = i.payment_id
           where i.turma_id = p_turma_id and p.user_id is distinct from p_except_user
             and ((p.status = 'PENDING' and p.replaced_by is null
                   and p.due_date >= (now() at time zone 'America/Sao_Paulo')::date)
                  or p.status in ('CONFIRMED', 'RECEIVED'))
             and not exists (select 1 from public.enrollments e where e.turma_id = p_turma_id and e.user_id = p.user_id));
end $$;
revoke all on function private.turma_seats_taken(uuid, uuid) from public, anon, authenticated;
grant execute on function private.turma_seats_taken(uuid, uuid) to service_role;

-- ── An enrollment in a turma ─────────────────────────────────────────────────────────────────
-- The turma is of the enrollment's course. Its end becomes the enrollment's expires_at: on insert
-- when none is given, when the expiry is cleared, and on a move when the expiry was the old turma's
-- end (a later date staff set stays: that is how staff extend a student past the turma). A staff
-- write (the API's authenticated role, move_enrollment_to_turma included) into a turma with seats
-- takes one under the turma's row lock, or is refused with "Turma esgotada."; a paid checkout (its
-- seat was held since the charge, see create_checkout_payment) and the school's own webhook
-- (service role) are never refused.
create function private.enrollments_turma() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_turma public.turmas;
  v_old_end timestamptz;
begin
  if new.turma_id is null then
    return new;
  end if;
  select * into v_turma from public.turmas t where t.id = new.turma_id;
  if v_turma.course_id is distinct from new.course_id then
    raise exception 'A turma é de outro curso.' using errcode = '23514';
  end if;
  if tg_op = 'INSERT' or new.turma_id is distinct from old.turma_id then
    if v_turma.seats is not null and coalesce(auth.role(), 'service_role') = 'authenticated' then
      perform 1 from public.turmas t where t.id = new.turma_id for update;
      select * into v_turma from public.turmas t where t.id = new.turma_id;
      if private.turma_seats_taken(new.turma_id, new.user_id) >= v_turma.seats then
        raise exception 'Turma esgotada.' using errcode = 'PT409';
      end if;
    end if;
    if tg_op = 'UPDATE' and new.expires_at is not distinct from old.expires_at then
      select private.turma_ends_at(t.ends_on) into v_old_end from public.turmas t where t.id = old.turma_id;
      if old.expires_at is not distinct from v_old_end then
        new.expires_at := private.turma_ends_at(v_turma.ends_on);
      end if;
    end if;
  end if;
  if new.expires_at is null then
    new.expires_at := private.turma_ends_at(v_turma.ends_on);
  end if;
  return new;
end $$;
revoke all on function private.enrollments_turma() from public, anon, authenticated;
create trigger enrollments_turma before insert or update of turma_id, expires_at, course_id on public.enrollments
  for each row execute function private.enrollments_turma();

-- A turma's new end moves the expiry of its students whose expiry was the old end (not the ones staff extended).
create function private.turmas_end_moved() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.enrollments e set expires_at = private.turma_ends_at(new.ends_on)
   where e.turma_id = new.id and e.expires_at is not distinct from private.turma_ends_at(old.ends_on);
  return null;
end $$;
revoke all on function private.turmas_end_moved() from public, anon, authenticated;
create trigger turmas_end_moved after update of ends_on on public.turmas
  for each row when (new.ends_on is distinct from old.ends_on) execute function private.turmas_end_moved();

-- ── Drip inside a turma ──────────────────────────────────────────────────────────────────────
-- When a module opens for an enrollment: outside a turma, the module's rule from the enrollment
-- (module_release_at, as before); inside one, the turma's date for the module, or else the module's
-- rule counted from the turma's start; never before the turma's start. Inlined SQL: the callers join
-- the turma (its primary key, by a null id outside a turma: no page read) and pass its date for the module.
create function private.enrollment_release_at(p_mode text, p_days integer, p_on date, p_enrolled_at timestamptz,
                                              p_turma_starts_on date, p_turma_opens_on date)
returns timestamptz language sql stable as $$
  select case when p_turma_starts_on is null then private.module_release_at(p_mode, p_days, p_on, p_enrolled_at)
              else greatest(p_turma_starts_on::timestamp at time zone 'America/Sao_Paulo',
                            coalesce(p_turma_opens_on::timestamp at time zone 'America/Sao_Paulo',
                                     private.module_release_at(p_mode, p_days, p_on,
                                                               p_turma_starts_on::timestamp at time zone 'America/Sao_Paulo')))
         end
$$;
revoke all on function private.enrollment_release_at(text, integer, date, timestamptz, date, date) from public, anon, authenticated;
grant execute on function private.enrollment_release_at(text, integer, date, timestamptz, date, date) to authenticated, service_role;

-- A turma's date for a module: an inlined CASE, so its look-up (the primary key) runs only for an
-- enrollment in a turma; a student outside any turma reads nothing more than before.
create function private.turma_opens_on(p_turma_id uuid, p_module_id uuid) returns date
language sql stable as $$
  select case when p_turma_id is not null then
    (select d.opens_on from public.turma_module_dates d where d.turma_id = p_turma_id and d.module_id = p_module_id)
  end
$$;
revoke all on function private.turma_opens_on(uuid, uuid) from public, anon, authenticated;
grant execute on function private.turma_opens_on(uuid, uuid) to authenticated, service_role;

-- Same rule as 20261128000920's, the release moment now from enrollment_release_at.
create or replace function private.has_lesson_access(p_lesson_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1
      from public.lessons l
      join public.courses c on c.id = l.course_id
      join public.modules m on m.id = l.module_id
      left join public.enrollments e on e.course_id = l.course_id and e.user_id = auth.uid()
      left join public.turmas t on t.id = e.turma_id
     where l.id = p_lesson_id
       and (private.is_school_staff(c.school_id)
            or (c.status = 'PUBLISHED' and c.school_id = private.my_school_id()
                and (l.is_preview
                     or (e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())
                         and private.enrollment_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at,
                                                           t.starts_on, private.turma_opens_on(t.id, m.id)) <= now()))))
  );
end $$;

create or replace function private.accessible_lesson_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
  select l.id from public.lessons l where l.course_id in (select private.staff_course_ids())
  union
  select l.id
  from public.lessons l
  join public.modules m on m.id = l.module_id
  join public.enrollments e on e.course_id = l.course_id and e.user_id = (select auth.uid())
  left join public.turmas t on t.id = e.turma_id
  where l.course_id in (select private.accessible_course_ids())
    and private.enrollment_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at,
                                      t.starts_on, private.turma_opens_on(t.id, m.id)) <= now()
  union
  select id from private.preview_lesson_ids() as p(id);
end $$;

create or replace function private.is_module_released(p_module_id uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.modules m
    left join public.enrollments e on e.course_id = m.course_id and e.user_id = auth.uid()
    left join public.turmas t on t.id = e.turma_id
    where m.id = p_module_id
      and private.enrollment_release_at(m.release_mode, m.release_after_days, m.release_on, e.created_at,
                                        t.starts_on, private.turma_opens_on(t.id, m.id)) <= now()
  );
end $$;

-- ── public.turma_waitlist ────────────────────────────────────────────────────────────────────
create table public.turma_waitlist (
  id uuid primary key default gen_random_uuid(),
  school_id uuid not null references public.schools (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  -- The full turma the student asked for (null once it is gone).
  turma_id uuid references public.turmas (id) on delete set null,
  user_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  constraint turma_waitlist_course_user_key unique (course_id, user_id)
);
comment on table public.turma_waitlist is 'Students waiting for a seat in a course whose open turmas are full (issue 40), in the order they asked.';
create index turma_waitlist_school_created_idx on public.turma_waitlist (school_id, created_at);
create index turma_waitlist_turma_id_idx on public.turma_waitlist (turma_id) where turma_id is not null;
create index turma_waitlist_user_id_idx on public.turma_waitlist (user_id);
alter table public.turma_waitlist enable row level security;
revoke all on public.turma_waitlist from public, anon, authenticated;
-- Joining is join_turma_waitlist's (it checks the turma is full and allows a list); leaving is a delete.
grant select, delete on public.turma_waitlist to authenticated;
grant all on public.turma_waitlist to service_role;
create policy turma_waitlist_select on public.turma_waitlist for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy turma_waitlist_delete on public.turma_waitlist for delete to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));
create policy turma_waitlist_password_change on public.turma_waitlist as restrictive for all to authenticated
  using (not (select private.password_change_pending()))
  with check (not (select private.password_change_pending()));

-- ── Which turma a course sells now ───────────────────────────────────────────────────────────
-- The turmas on sale: enrollment window open and not ended, by start date. The first with a seat for
-- this buyer is sold (p_lock: under its row lock, taken in start order so two buyers never wait on
-- each other crosswise). has_turmas false: the course sells without turmas, as before.
create function private.selling_turma(p_course_id uuid, p_user_id uuid, p_lock boolean,
                                      out turma public.turmas, out has_turmas boolean, out sold_out boolean,
                                      out waitlist_enabled boolean)
language plpgsql security definer set search_path = '' as $$
declare
  r public.turmas;
begin
  has_turmas := exists (select 1 from public.turmas t where t.course_id = p_course_id);
  sold_out := false;
  waitlist_enabled := false;
  for r in
    select * from public.turmas t
     where t.course_id = p_course_id
       and (t.enroll_from is null or t.enroll_from <= now()) and (t.enroll_until is null or t.enroll_until > now())
       and (t.ends_on is null or now() < private.turma_ends_at(t.ends_on))
     order by t.starts_on, t.id
  loop
    if p_lock and r.seats is not null then
      select * into r from public.turmas t where t.id = r.id for update;
    end if;
    if r.seats is null or private.turma_seats_taken(r.id, p_user_id) < r.seats then
      turma := r;
      sold_out := false;
      return;
    end if;
    sold_out := true;
    waitlist_enabled := waitlist_enabled or r.waitlist_enabled;
  end loop;
end $$;
revoke all on function private.selling_turma(uuid, uuid, boolean) from public, anon, authenticated;
grant execute on function private.selling_turma(uuid, uuid, boolean) to service_role;

-- ── RPCs ─────────────────────────────────────────────────────────────────────────────────────
-- Turmas > a course: each turma with its derived status, seats taken and the waiting list's length.
create function public.admin_turmas(p_course_id uuid)
returns table (id uuid, course_id uuid, name text, starts_on date, ends_on date, enroll_from timestamptz,
               enroll_until timestamptz, seats integer, waitlist_enabled boolean, status text,
               students integer, seats_taken integer, waiting integer, created_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  if not private.is_course_staff(p_course_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select t.id, t.course_id, t.name, t.starts_on, t.ends_on, t.enroll_from, t.enroll_until, t.seats, t.waitlist_enabled,
         private.turma_status(t.starts_on, t.ends_on),
         (select count(*)::integer from public.enrollments e where e.turma_id = t.id),
         private.turma_seats_taken(t.id, null),
         (select count(*)::integer from public.turma_waitlist w where w.turma_id = t.id),
         t.created_at
    from public.turmas t
   where t.course_id = p_course_id
   order by t.starts_on, t.name;
end $$;
revoke all on function public.admin_turmas(uuid) from public, anon, authenticated;
grant execute on function public.admin_turmas(uuid) to authenticated, service_role;

-- A turma of a course by its id or its name (case and surrounding spaces aside): the student webhook,
-- the CSV import, and the old cohort_id. Staff of the course or the service role; null when none.
create function public.turma_for(p_course_id uuid, p_turma text) returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  v_text text := btrim(coalesce(p_turma, ''));
begin
  if coalesce(auth.role(), 'service_role') <> 'service_role' then
    perform private.refuse_while_password_change_pending();
    if not private.is_course_staff(p_course_id) then
      raise exception 'not allowed' using errcode = '42501';
    end if;
  end if;
  if v_text = '' or length(v_text) > 200 then
    return null;
  end if;
  return (select t.id from public.turmas t
           where t.course_id = p_course_id
             and (t.id = private.uuid_or_null(v_text) or lower(t.name) = lower(v_text))
           order by t.id = private.uuid_or_null(v_text) desc
           limit 1);
end $$;
revoke all on function public.turma_for(uuid, text) from public, anon, authenticated;
grant execute on function public.turma_for(uuid, text) to authenticated, service_role;

-- Staff move a student to another turma of the same course (null: out of any turma). Only the
-- enrollment changes: progress, quiz attempts, comments, ratings and certificates key on the student
-- and the lesson or course, never on the turma. The expiry follows the new turma's end unless staff
-- had set another (enrollments_turma); a full turma refuses ("Turma esgotada.").
create function public.move_enrollment_to_turma(p_enrollment_id uuid, p_turma_id uuid)
returns public.enrollments
language plpgsql security definer set search_path = '' as $$
declare
  v_enrollment public.enrollments;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_enrollment from public.enrollments e where e.id = p_enrollment_id;
  if v_enrollment.id is null or not private.is_course_staff(v_enrollment.course_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_turma_id is not null and not exists (select 1 from public.turmas t where t.id = p_turma_id and t.course_id = v_enrollment.course_id) then
    raise exception 'A turma é de outro curso.' using errcode = '23514';
  end if;
  update public.enrollments set turma_id = p_turma_id where id = p_enrollment_id returning * into v_enrollment;
  return v_enrollment;
end $$;
revoke all on function public.move_enrollment_to_turma(uuid, uuid) from public, anon, authenticated;
grant execute on function public.move_enrollment_to_turma(uuid, uuid) to authenticated, service_role;

-- "Entrar na lista de espera": a student of the school, for a published course whose turmas on sale
-- are all full and allow a list. Once per course (again: the same row). Returns the row.
create function public.join_turma_waitlist(p_course_id uuid) returns public.turma_waitlist
language plpgsql security definer set search_path = '' as $$
declare
  v_course public.courses;
  v_sale record;
  v_row public.turma_waitlist;
  v_full uuid;
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'Entre na sua conta para entrar na lista de espera.' using errcode = '42501';
  end if;
  select * into v_course from public.courses c
   where c.id = p_course_id and c.status = 'PUBLISHED' and c.school_id = private.my_school_id();
  if v_course.id is null then
    raise exception 'Curso não encontrado.' using errcode = '42501';
  end if;
  select * into v_sale from private.selling_turma(p_course_id, auth.uid(), false);
  if not (v_sale.sold_out and v_sale.waitlist_enabled) or (v_sale.turma).id is not null then
    raise exception 'Esta turma não tem lista de espera agora.' using errcode = '22023';
  end if;
  select t.id into v_full from public.turmas t
   where t.course_id = p_course_id and t.waitlist_enabled
     and (t.enroll_from is null or t.enroll_from <= now()) and (t.enroll_until is null or t.enroll_until > now())
     and (t.ends_on is null or now() < private.turma_ends_at(t.ends_on))
   order by t.starts_on, t.id limit 1;
  insert into public.turma_waitlist (school_id, course_id, turma_id, user_id)
  values (v_course.school_id, p_course_id, v_full, auth.uid())
  on conflict (course_id, user_id) do nothing;
  select * into v_row from public.turma_waitlist w where w.course_id = p_course_id and w.user_id = auth.uid();
  return v_row;
end $$;
revoke all on function public.join_turma_waitlist(uuid) from public, anon, authenticated;
grant execute on function public.join_turma_waitlist(uuid) to authenticated, service_role;
