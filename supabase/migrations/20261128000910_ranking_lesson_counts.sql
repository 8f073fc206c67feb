-- Issue 38: a lesson completed adds one to its student's month in private.ranking_months instead of
-- recounting that month. The progress triggers called private.ranking_refresh, which counts the
-- student's completed lessons of the month, first quiz passes and marked answers all over again on
-- every first completion (75 of the 161 buffer pages of 'complete lesson' on the bench school,
-- tests/budgets). Now the progress rows that come, go or change add or take their lesson from
-- (school of the course, student, São Paulo month of completed_at), and a row left with no points is
-- removed, so ranking_months means what it meant: the counts a recount would give.
-- Kept exact as before: a batch of a few students still takes their 'ranking:' locks, so a recount
-- (a quiz passed, an answer marked) and a count of the same student never overwrite each other; a
-- batch with rows of a course deleted in the same transaction (its row is gone, so its school is
-- unknown here) is recounted instead; rows of a deleted account are not counted (ranking_months loses
-- the account's rows with it).
-- The pairs of trigger functions (one per statement for insert/delete, one per row for update; issue 45)
-- are folded: one function per table serves its three triggers. Quiz passes keep their recount: the
-- first pass of a quiz may move when an attempt changes.
set local lock_timeout = '5s';

-- Adds p_deltas (±1 per row) of lessons completed at p_completed in p_courses by p_users.
create function private.ranking_count_lessons(p_courses uuid[], p_users uuid[], p_completed timestamptz[], p_deltas integer[])
returns void language plpgsql volatile security definer set search_path = '' as $$
declare
  v_schools uuid[];
  v_users uuid[];
  v_months date[];
begin
  if cardinality(p_users) <= 20 then
    perform pg_advisory_xact_lock(hashtextextended('ranking:' || u::text, 0))
       from (select distinct u from unnest(p_users) as x(u) where u is not null order by u) s;
  end if;
  -- Rows of a course deleted in this transaction: their school is unknown here, so the batch's months
  -- are recounted from what is left.
  if exists (select 1 from unnest(p_courses, p_deltas) as k(course_id, delta)
              where k.delta < 0 and not exists (select 1 from public.courses c where c.id = k.course_id)) then
    perform private.ranking_refresh(array_agg(k.user_id), array_agg(private.sp_month(k.completed_at)))
       from unnest(p_users, p_completed) as k(user_id, completed_at) where k.completed_at is not null;
    return;
  end if;
  with changes as (
    select c.school_id, k.user_id, private.sp_month(k.completed_at) as month, sum(k.delta)::integer as lessons
      from unnest(p_courses, p_users, p_completed, p_deltas) as k(course_id, user_id, completed_at, delta)
      join public.courses c on c.id = k.course_id
     where k.completed_at is not null
       -- An account being deleted takes its ranking rows with it.
       and (k.delta > 0 or exists (select 1 from public.profiles p where p.id = k.user_id))
     group by c.school_id, k.user_id, private.sp_month(k.completed_at)
    having sum(k.delta) <> 0
  ),
  counted as (
    insert into private.ranking_months as rm (school_id, user_id, month, lessons)
    select ch.school_id, ch.user_id, ch.month, ch.lessons from changes ch
    on conflict (school_id, month, user_id) do update set lessons = rm.lessons + excluded.lessons
    returning rm.school_id, rm.user_id, rm.month, rm.lessons, rm.quizzes, rm.answers
  )
  select array_agg(n.school_id), array_agg(n.user_id), array_agg(n.month) into v_schools, v_users, v_months
    from counted n where n.lessons = 0 and n.quizzes = 0 and n.answers = 0;
  -- A month left without points is no row (a statement of its own: it must see the counts above).
  if v_schools is not null then
    delete from private.ranking_months rm using unnest(v_schools, v_users, v_months) as e(school_id, user_id, month)
     where rm.school_id = e.school_id and rm.user_id = e.user_id and rm.month = e.month
       and rm.lessons = 0 and rm.quizzes = 0 and rm.answers = 0;
  end if;
end $$;

-- progress: inserted and deleted rows (a statement's, a seed's 100,000 at once), and a row whose
-- completion, student or course changed.
create function private.progress_ranking_count() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_level = 'ROW' then
    perform private.ranking_count_lessons(array[old.course_id, new.course_id], array[old.user_id, new.user_id],
                                          array[old.completed_at, new.completed_at], array[-1, 1]);
  elsif tg_op = 'INSERT' then
    perform private.ranking_count_lessons(array_agg(n.course_id), array_agg(n.user_id), array_agg(n.completed_at), array_agg(1))
       from new_rows n where n.completed_at is not null having count(*) > 0;
  else
    perform private.ranking_count_lessons(array_agg(o.course_id), array_agg(o.user_id), array_agg(o.completed_at), array_agg(-1))
       from old_rows o where o.completed_at is not null having count(*) > 0;
  end if;
  return null;
end $$;

drop trigger progress_ranking_insert on public.progress;
drop trigger progress_ranking_delete on public.progress;
drop trigger progress_ranking_update on public.progress;
create trigger progress_ranking_insert after insert on public.progress
  referencing new table as new_rows for each statement execute function private.progress_ranking_count();
create trigger progress_ranking_delete after delete on public.progress
  referencing old table as old_rows for each statement execute function private.progress_ranking_count();
create trigger progress_ranking_update after update on public.progress
  for each row when (old.completed_at is distinct from new.completed_at or old.user_id is distinct from new.user_id
                     or old.course_id is distinct from new.course_id)
  execute function private.progress_ranking_count();
drop function private.progress_ranking_rows();
drop function private.progress_ranking_row();

-- quiz_attempts: the same three triggers, one function.
create function private.quiz_attempts_ranking() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_level = 'ROW' then
    perform private.quiz_ranking_refresh(array[old.user_id, new.user_id], array[old.quiz_id, new.quiz_id],
                                         array[case when old.passed then private.sp_month(old.submitted_at) end,
                                               case when new.passed then private.sp_month(new.submitted_at) end]);
  elsif tg_op = 'INSERT' then
    perform private.quiz_ranking_refresh(array_agg(n.user_id), array_agg(n.quiz_id), array_agg(private.sp_month(n.submitted_at)))
       from new_rows n where n.passed;
  else
    perform private.quiz_ranking_refresh(array_agg(o.user_id), array_agg(o.quiz_id), array_agg(private.sp_month(o.submitted_at)))
       from old_rows o where o.passed;
  end if;
  return null;
end $$;

drop trigger quiz_attempts_ranking_insert on public.quiz_attempts;
drop trigger quiz_attempts_ranking_delete on public.quiz_attempts;
drop trigger quiz_attempts_ranking_update on public.quiz_attempts;
create trigger quiz_attempts_ranking_insert after insert on public.quiz_attempts
  referencing new table as new_rows for each statement execute function private.quiz_attempts_ranking();
create trigger quiz_attempts_ranking_delete after delete on public.quiz_attempts
  referencing old table as old_rows for each statement execute function private.quiz_attempts_ranking();
create trigger quiz_attempts_ranking_update after update on public.quiz_attempts
  for each row when (old.passed is distinct from new.passed or old.submitted_at is distinct from new.submitted_at
                     or old.user_id is distinct from new.user_id or old.course_id is distinct from new.course_id)
  execute function private.quiz_attempts_ranking();
drop function private.quiz_attempts_ranking_rows();
drop function private.quiz_attempts_ranking_row();

revoke all on function private.ranking_count_lessons(uuid[], uuid[], timestamptz[], integer[]), private.progress_ranking_count(),
  private.quiz_attempts_ranking() from public, anon, authenticated;
