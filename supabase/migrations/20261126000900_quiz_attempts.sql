-- Issue 23, Avaliações, part 2: what students do. docs/quizzes.md has the design and the shape of
-- what these functions answer.
-- - quiz_attempts: one row per start, written only by the functions below; a student reads their own.
-- - quiz_attempt_answers: how each question of an attempt was graded (staff only: it says which
--   options were right).
-- - Grading, the attempt limit, the wait between attempts and the time limit are all decided here,
--   under a per-student-and-quiz lock, whatever the browser sends.
-- - A quiz lesson completes only when the quiz is passed (progress triggers), and a certificate needs
--   every published quiz of the course passed (issue_certificate).
set local lock_timeout = '5s';

-- ── quiz_attempts ────────────────────────────────────────────────────────────────────────────
create table public.quiz_attempts (
  id uuid primary key default gen_random_uuid(),
  quiz_id uuid not null references public.quizzes (id) on delete cascade,
  version_id uuid not null references public.quiz_versions (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  lesson_id uuid not null references public.lessons (id) on delete cascade,
  number integer not null constraint quiz_attempts_number_check check (number >= 1),
  -- The order this student sees: [{question_id, option_ids: [...]}].
  layout jsonb not null constraint quiz_attempts_layout_array check (jsonb_typeof(layout) = 'array'),
  -- The student's answers as last saved or submitted: {question_id: [option_id, ...]}.
  answers jsonb not null default '{}' constraint quiz_attempts_answers_object check (jsonb_typeof(answers) = 'object'),
  started_at timestamptz not null default now(),
  -- started_at + the time limit at start; null: no limit.
  deadline_at timestamptz,
  submitted_at timestamptz,
  -- open: being answered; graded: scored; expired: refused after its deadline (score 0).
  status text not null default 'open' constraint quiz_attempts_status_check check (status in ('open', 'graded', 'expired')),
  -- Percent of the points, 2 decimals.
  score numeric(5, 2) constraint quiz_attempts_score_check check (score between 0 and 100),
  passed boolean,
  -- The pass mark this attempt was graded against (the setting may change later).
  pass_mark integer constraint quiz_attempts_pass_mark_check check (pass_mark between 1 and 100),
  constraint quiz_attempts_quiz_user_number_key unique (quiz_id, user_id, number),
  constraint quiz_attempts_graded_shape check (
    (status = 'open') = (submitted_at is null)
    and (status = 'open') = (score is null)
    and (status = 'open') = (passed is null)
    and (status = 'open') = (pass_mark is null))
);
alter table public.quiz_attempts enable row level security;
-- At most one attempt being answered per student and quiz.
create unique index quiz_attempts_one_open_key on public.quiz_attempts (quiz_id, user_id) where status = 'open';
create index quiz_attempts_user_id_idx on public.quiz_attempts (user_id, quiz_id);
create index quiz_attempts_course_id_idx on public.quiz_attempts (course_id, submitted_at desc);
create index quiz_attempts_version_id_idx on public.quiz_attempts (version_id);
create index quiz_attempts_lesson_id_idx on public.quiz_attempts (lesson_id);

revoke all on public.quiz_attempts from public, anon, authenticated;
grant select on public.quiz_attempts to authenticated;
grant all on public.quiz_attempts to service_role;
create policy quiz_attempts_select on public.quiz_attempts for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_active()))
         or course_id in (select private.staff_course_ids())
         or (select private.is_super_admin()));
create policy quiz_attempts_password_change on public.quiz_attempts as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── quiz_attempt_answers: the grading, per question ──────────────────────────────────────────
create table public.quiz_attempt_answers (
  attempt_id uuid not null references public.quiz_attempts (id) on delete cascade,
  -- The question's id in the attempt's version (the draft question's id when published).
  question_id uuid not null,
  course_id uuid not null references public.courses (id) on delete cascade,
  chosen text[] not null default '{}',
  -- Share of the question's point earned, 0..1.
  earned numeric(5, 4) not null constraint quiz_attempt_answers_earned_check check (earned between 0 and 1),
  is_correct boolean not null,
  primary key (attempt_id, question_id)
);
alter table public.quiz_attempt_answers enable row level security;
create index quiz_attempt_answers_question_id_idx on public.quiz_attempt_answers (question_id);
create index quiz_attempt_answers_course_id_idx on public.quiz_attempt_answers (course_id);

revoke all on public.quiz_attempt_answers from public, anon, authenticated;
grant select on public.quiz_attempt_answers to authenticated;
grant all on public.quiz_attempt_answers to service_role;
-- Staff only: a student's own review comes from quiz_for_student, as the quiz's setting allows.
create policy quiz_attempt_answers_select on public.quiz_attempt_answers for select to authenticated
  using (course_id in (select private.staff_course_ids()) or (select private.is_super_admin()));
create policy quiz_attempt_answers_password_change on public.quiz_attempt_answers as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── Lesson completion follows the quiz ──────────────────────────────────────────────────────
-- A lesson with a published quiz completes only for a student with a passed attempt: a completion
-- written any other way (the student's own progress upsert, a "mark complete") is dropped.
create function private.progress_requires_quiz_pass() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.completed_at is not null
     and (tg_op = 'INSERT' or old.completed_at is null)
     and exists (select 1 from public.quizzes q where q.lesson_id = new.lesson_id and q.published_version_id is not null)
     and not exists (select 1 from public.quiz_attempts a join public.quizzes q on q.id = a.quiz_id
                      where q.lesson_id = new.lesson_id and a.user_id = new.user_id and a.passed) then
    new.completed_at := null;
  end if;
  return new;
end $$;
revoke all on function private.progress_requires_quiz_pass() from public, anon, authenticated;
create trigger progress_requires_quiz_pass before insert or update on public.progress
  for each row execute function private.progress_requires_quiz_pass();

-- A completion stays, whoever of the API writes (as before); the platform's own functions may clear
-- it (publish_quiz re-opens a lesson that now asks for a quiz). Invoker: current_user is the caller's
-- role here, the owner inside a security definer function.
create or replace function private.progress_keep_completion() returns trigger
language plpgsql set search_path = '' as $$
begin
  if old.completed_at is not null and new.completed_at is distinct from old.completed_at
     and current_user in ('anon', 'authenticated', 'service_role') then
    new.completed_at := old.completed_at;
  end if;
  return new;
end $$;

-- ── Helpers of the student's functions ─────────────────────────────────────────────────────
-- A submission this long after the deadline still counts as on time (the request's trip).
create function private.quiz_grace() returns interval
language sql immutable set search_path = '' as $$ select interval '15 seconds' $$;

-- dd/mm/aaaa às hh:mm in the schools' time zone, for the refusals.
create function private.br_datetime(p_at timestamptz) returns text
language sql stable set search_path = '' as $$
  select to_char(p_at at time zone 'America/Sao_Paulo', 'DD/MM/YYYY "às" HH24:MI')
$$;

-- The published quiz of a lesson the caller may open (enrollment, drip release, preview), locked
-- against concurrent starts and submissions of the same student.
create function private.student_quiz(p_quiz_id uuid, p_lesson_id uuid) returns public.quizzes
language plpgsql security definer set search_path = '' as $$
declare
  v_quiz public.quizzes;
begin
  perform private.refuse_while_password_change_pending();
  if auth.uid() is null or not private.is_active() then
    raise exception 'Entre na sua conta para fazer a avaliação.' using errcode = '42501';
  end if;
  select * into v_quiz from public.quizzes q
   where (q.id = p_quiz_id or (p_quiz_id is null and q.lesson_id = p_lesson_id))
     and q.published_version_id is not null;
  if not found or not private.has_lesson_access(v_quiz.lesson_id) then
    raise exception 'Avaliação não encontrada.' using errcode = '42501';
  end if;
  -- One student's starts and submissions of one quiz run one at a time.
  perform pg_advisory_xact_lock(hashtextextended('quiz:' || v_quiz.id::text || ':' || auth.uid()::text, 0));
  return v_quiz;
end $$;

-- Grade an open attempt: p_answers is what counts ({question_id: [option_id]}, filtered to the
-- attempt's questions and options). Writes the attempt's score and each question's grading; a pass
-- completes the lesson.
create function private.grade_quiz_attempt(p_attempt public.quiz_attempts, p_answers jsonb, p_submitted_at timestamptz)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_pass_mark integer := (select q.pass_mark from public.quizzes q where q.id = p_attempt.quiz_id);
  v_total numeric := 0;
  v_count integer := 0;
  v_score numeric(5, 2);
  r record;
begin
  for r in
    select vq.value as question, vq.value ->> 'id' as question_id,
           coalesce((select array_agg(distinct c) from jsonb_array_elements_text(
                       case when jsonb_typeof(p_answers -> (vq.value ->> 'id')) = 'array'
                            then p_answers -> (vq.value ->> 'id') else '[]'::jsonb end) c
                      where exists (select 1 from jsonb_array_elements(vq.value -> 'options') o where o ->> 'id' = c)),
                    '{}') as chosen,
           (select array_agg(o ->> 'id') from jsonb_array_elements(vq.value -> 'options') o
             where (o ->> 'correct')::boolean) as correct
      from public.quiz_versions v, jsonb_array_elements(v.questions) vq
     where v.id = p_attempt.version_id
  loop
    declare
      k integer := cardinality(r.correct);
      hits integer := (select count(*) from unnest(r.chosen) c where c = any (r.correct));
      misses integer := (select count(*) from unnest(r.chosen) c where not (c = any (r.correct)));
      v_earned numeric;
    begin
      if r.question ->> 'kind' = 'multiple' and r.question ->> 'scoring' = 'partial' then
        v_earned := greatest(0, (hits - misses)::numeric / k);
      else
        v_earned := case when hits = k and misses = 0 then 1 else 0 end;
      end if;
      insert into public.quiz_attempt_answers (attempt_id, question_id, course_id, chosen, earned, is_correct)
      values (p_attempt.id, r.question_id::uuid, p_attempt.course_id, r.chosen, round(v_earned, 4), v_earned = 1);
      v_total := v_total + v_earned;
      v_count := v_count + 1;
    end;
  end loop;

  v_score := round(100 * v_total / greatest(v_count, 1), 2);
  update public.quiz_attempts
     set status = 'graded', answers = p_answers, submitted_at = p_submitted_at, score = v_score,
         passed = v_score >= v_pass_mark, pass_mark = v_pass_mark
   where id = p_attempt.id;

  if v_score >= v_pass_mark then
    insert into public.progress (user_id, lesson_id, course_id, completed_at)
    values (p_attempt.user_id, p_attempt.lesson_id, p_attempt.course_id, p_submitted_at)
    on conflict (user_id, lesson_id) do update set completed_at = coalesce(public.progress.completed_at, excluded.completed_at);
  end if;
end $$;

-- The answers as sent, kept to the attempt's questions and options: {question_id: [option_id]}.
-- Anything else is refused (a malformed request, not a wrong answer).
create function private.clean_quiz_answers(p_attempt public.quiz_attempts, p_answers jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  v_clean jsonb := '{}';
  r record;
begin
  if p_answers is null then
    return p_attempt.answers;
  end if;
  if jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Respostas inválidas.' using errcode = '22023';
  end if;
  for r in select key, value from jsonb_each(p_answers) loop
    if jsonb_typeof(r.value) <> 'array'
       or not exists (select 1 from jsonb_array_elements(p_attempt.layout) l where l ->> 'question_id' = r.key)
       or exists (select 1 from jsonb_array_elements(r.value) c
                   where jsonb_typeof(c) <> 'string'
                      or not exists (select 1 from jsonb_array_elements(p_attempt.layout) l,
                                              jsonb_array_elements_text(l -> 'option_ids') o
                                      where l ->> 'question_id' = r.key and o = c #>> '{}')) then
      raise exception 'Respostas inválidas.' using errcode = '22023';
    end if;
    v_clean := v_clean || jsonb_build_object(r.key, r.value);
  end loop;
  return v_clean;
end $$;

-- An open attempt whose time is over ends: graded on the answers saved before the deadline, or
-- expired with score 0 when the quiz refuses late work. Returns whether it ended.
create function private.end_overdue_attempt(p_attempt public.quiz_attempts) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  if p_attempt.status <> 'open' or p_attempt.deadline_at is null
     or now() <= p_attempt.deadline_at + private.quiz_grace() then
    return false;
  end if;
  if (select q.late_policy from public.quizzes q where q.id = p_attempt.quiz_id) = 'refuse' then
    update public.quiz_attempts
       set status = 'expired', submitted_at = p_attempt.deadline_at, score = 0, passed = false,
           pass_mark = (select q.pass_mark from public.quizzes q where q.id = p_attempt.quiz_id)
     where id = p_attempt.id;
  else
    perform private.grade_quiz_attempt(p_attempt, p_attempt.answers, p_attempt.deadline_at);
  end if;
  return true;
end $$;

-- Everything the student's quiz screen shows (docs/quizzes.md, QuizForStudent). Never a `correct`
-- flag, but in the review of a graded attempt when the quiz's show_answers allows it.
create function private.quiz_state_json(p_quiz public.quizzes, p_notice text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_used integer;
  v_passed boolean;
  v_best numeric;
  v_last timestamptz;
  v_open public.quiz_attempts;
  v_left integer;
  v_next timestamptz;
  v_state text;
  v_reveal boolean;
  v_open_json jsonb;
begin
  select count(*), coalesce(bool_or(a.passed), false), max(a.score), max(a.submitted_at)
    into v_used, v_passed, v_best, v_last
    from public.quiz_attempts a where a.quiz_id = p_quiz.id and a.user_id = v_uid and a.status <> 'open';
  select * into v_open from public.quiz_attempts a where a.quiz_id = p_quiz.id and a.user_id = v_uid and a.status = 'open';
  v_left := case when p_quiz.max_attempts is null then null else greatest(p_quiz.max_attempts - v_used, 0) end;
  v_next := case when v_passed or v_open.id is not null or v_left = 0 or v_last is null then null
                 when v_last + p_quiz.wait_hours * interval '1 hour' > now() then v_last + p_quiz.wait_hours * interval '1 hour'
                 else null end;
  v_state := case when v_passed then 'passed' when v_open.id is not null then 'in_progress'
                  when v_used > 0 then 'failed' else 'not_started' end;
  v_reveal := p_quiz.show_answers = 'after_each_attempt' or (p_quiz.show_answers = 'after_passing' and v_passed);

  if v_open.id is not null then
    v_open_json := jsonb_build_object(
      'id', v_open.id, 'number', v_open.number, 'started_at', v_open.started_at, 'deadline_at', v_open.deadline_at,
      'now', now(), 'answers', v_open.answers,
      'questions', (
        select jsonb_agg(jsonb_build_object(
                 'id', vq.value ->> 'id', 'kind', vq.value ->> 'kind', 'statement', vq.value ->> 'statement',
                 'image_path', vq.value -> 'image_path',
                 'options', (select jsonb_agg(jsonb_build_object('id', o.value ->> 'id', 'text', o.value ->> 'text') order by oi.i)
                               from jsonb_array_elements_text(li.value -> 'option_ids') with ordinality as oi(id, i)
                               join jsonb_array_elements(vq.value -> 'options') o on o.value ->> 'id' = oi.id))
               order by li.i)
          from jsonb_array_elements(v_open.layout) with ordinality as li(value, i)
          join public.quiz_versions v on v.id = v_open.version_id
          cross join lateral jsonb_array_elements(v.questions) vq
         where vq.value ->> 'id' = li.value ->> 'question_id'));
  end if;

  return jsonb_build_object(
    'quiz_id', p_quiz.id, 'lesson_id', p_quiz.lesson_id,
    'settings', jsonb_build_object(
      'pass_mark', p_quiz.pass_mark, 'max_attempts', p_quiz.max_attempts, 'wait_hours', p_quiz.wait_hours,
      'time_limit_minutes', p_quiz.time_limit_minutes, 'show_answers', p_quiz.show_answers,
      'late_policy', p_quiz.late_policy,
      'question_count', (select jsonb_array_length(v.questions) from public.quiz_versions v where v.id = p_quiz.published_version_id)),
    'state', v_state, 'attempts_used', v_used, 'attempts_left', v_left, 'next_attempt_at', v_next,
    'best_score', v_best, 'notice', p_notice, 'open_attempt', v_open_json,
    'attempts', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', a.id, 'number', a.number, 'started_at', a.started_at, 'submitted_at', a.submitted_at,
               'status', a.status, 'score', a.score, 'passed', a.passed,
               'review', case when v_reveal and a.status = 'graded' then (
                 select jsonb_agg(jsonb_build_object(
                          'question_id', vq.value ->> 'id', 'kind', vq.value ->> 'kind',
                          'statement', vq.value ->> 'statement', 'image_path', vq.value -> 'image_path',
                          'options', vq.value -> 'options', 'chosen', to_jsonb(g.chosen),
                          'is_correct', g.is_correct, 'earned', g.earned, 'explanation', vq.value -> 'explanation')
                        order by li.i)
                   from jsonb_array_elements(a.layout) with ordinality as li(value, i)
                   join public.quiz_versions v on v.id = a.version_id
                   cross join lateral jsonb_array_elements(v.questions) vq
                   join public.quiz_attempt_answers g on g.attempt_id = a.id and g.question_id::text = vq.value ->> 'id'
                  where vq.value ->> 'id' = li.value ->> 'question_id') end)
             order by a.number desc)
        from public.quiz_attempts a
       where a.quiz_id = p_quiz.id and a.user_id = v_uid and a.status <> 'open'), '[]'::jsonb));
end $$;

revoke all on function private.quiz_grace(), private.br_datetime(timestamptz), private.student_quiz(uuid, uuid),
  private.grade_quiz_attempt(public.quiz_attempts, jsonb, timestamptz),
  private.clean_quiz_answers(public.quiz_attempts, jsonb), private.end_overdue_attempt(public.quiz_attempts),
  private.quiz_state_json(public.quizzes, text) from public, anon, authenticated;

-- ── The student's RPCs ───────────────────────────────────────────────────────────────────────
-- The quiz of a lesson: null when it has none published (or the caller may not open the lesson).
create function public.quiz_for_student(p_lesson_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_quiz public.quizzes;
  v_open public.quiz_attempts;
begin
  perform private.refuse_while_password_change_pending();
  if not exists (select 1 from public.quizzes q where q.lesson_id = p_lesson_id and q.published_version_id is not null)
     or not private.has_lesson_access(p_lesson_id) then
    return null;
  end if;
  v_quiz := private.student_quiz(null, p_lesson_id);
  select * into v_open from public.quiz_attempts a where a.quiz_id = v_quiz.id and a.user_id = auth.uid() and a.status = 'open';
  if found then
    perform private.end_overdue_attempt(v_open);
  end if;
  return private.quiz_state_json(v_quiz, null);
end $$;

create function public.start_quiz_attempt(p_quiz_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_quiz public.quizzes := private.student_quiz(p_quiz_id, null);
  v_uid uuid := auth.uid();
  v_open public.quiz_attempts;
  v_used integer;
  v_last timestamptz;
  v_layout jsonb;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_open from public.quiz_attempts a where a.quiz_id = v_quiz.id and a.user_id = v_uid and a.status = 'open';
  if found and not private.end_overdue_attempt(v_open) then
    return private.quiz_state_json(v_quiz, null);
  end if;

  if exists (select 1 from public.quiz_attempts a where a.quiz_id = v_quiz.id and a.user_id = v_uid and a.passed) then
    raise exception 'Você já foi aprovado nesta avaliação.' using errcode = '22023';
  end if;
  select count(*), max(a.submitted_at) into v_used, v_last
    from public.quiz_attempts a where a.quiz_id = v_quiz.id and a.user_id = v_uid;
  if v_quiz.max_attempts is not null and v_used >= v_quiz.max_attempts then
    raise exception 'Você já usou todas as tentativas desta avaliação.' using errcode = '22023';
  end if;
  if v_last is not null and v_last + v_quiz.wait_hours * interval '1 hour' > now() then
    raise exception 'A próxima tentativa abre em %.', private.br_datetime(v_last + v_quiz.wait_hours * interval '1 hour')
      using errcode = '22023';
  end if;

  -- This student's order of questions and options (true/false keeps Verdadeiro before Falso).
  select jsonb_agg(jsonb_build_object(
           'question_id', vq.value ->> 'id',
           'option_ids', (select jsonb_agg(o.value ->> 'id' order by
                                  case when v_quiz.shuffle_options and vq.value ->> 'kind' <> 'true_false' then random() else 0 end, o.i)
                            from jsonb_array_elements(vq.value -> 'options') with ordinality as o(value, i)))
         order by case when v_quiz.shuffle_questions then random() else 0 end, vq.i)
    into v_layout
    from public.quiz_versions v, jsonb_array_elements(v.questions) with ordinality as vq(value, i)
   where v.id = v_quiz.published_version_id;

  insert into public.quiz_attempts (quiz_id, version_id, user_id, course_id, lesson_id, number, layout, deadline_at)
  values (v_quiz.id, v_quiz.published_version_id, v_uid, v_quiz.course_id, v_quiz.lesson_id, v_used + 1, v_layout,
          now() + v_quiz.time_limit_minutes * interval '1 minute');
  return private.quiz_state_json(v_quiz, null);
end $$;

-- Autosave while answering: refused once the time is over.
create function public.save_quiz_answers(p_attempt_id uuid, p_answers jsonb) returns timestamptz
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_attempt public.quiz_attempts;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_attempt from public.quiz_attempts a where a.id = p_attempt_id and a.user_id = auth.uid();
  if not found then
    raise exception 'Avaliação não encontrada.' using errcode = '42501';
  end if;
  perform private.student_quiz(v_attempt.quiz_id, null);
  select * into v_attempt from public.quiz_attempts a where a.id = p_attempt_id;
  if v_attempt.status <> 'open' then
    raise exception 'Esta tentativa já foi enviada.' using errcode = '22023';
  end if;
  if v_attempt.deadline_at is not null and now() > v_attempt.deadline_at + private.quiz_grace() then
    raise exception 'O tempo desta avaliação acabou.' using errcode = '22023';
  end if;
  update public.quiz_attempts set answers = private.clean_quiz_answers(v_attempt, p_answers) where id = v_attempt.id;
  return now();
end $$;

-- Submit and grade. A repeated submission of a graded attempt answers the state and changes nothing.
create function public.submit_quiz_attempt(p_attempt_id uuid, p_answers jsonb) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_attempt public.quiz_attempts;
  v_quiz public.quizzes;
  v_notice text;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_attempt from public.quiz_attempts a where a.id = p_attempt_id and a.user_id = auth.uid();
  if not found then
    raise exception 'Avaliação não encontrada.' using errcode = '42501';
  end if;
  v_quiz := private.student_quiz(v_attempt.quiz_id, null);
  -- Read again under the lock: a concurrent submission may have graded it.
  select * into v_attempt from public.quiz_attempts a where a.id = p_attempt_id;
  if v_attempt.status <> 'open' then
    return private.quiz_state_json(v_quiz, null);
  end if;
  if private.end_overdue_attempt(v_attempt) then
    v_notice := case when v_quiz.late_policy = 'refuse' then 'late_refused' else 'late_graded' end;
  else
    perform private.grade_quiz_attempt(v_attempt, private.clean_quiz_answers(v_attempt, p_answers), now());
  end if;
  return private.quiz_state_json(v_quiz, v_notice);
end $$;

-- The caller's state in each published quiz of a course (null: of every course they can see), for
-- the course page, the lesson side panel and the home. Reads only the caller's own attempts.
create function public.my_quiz_states(p_course_id uuid default null)
returns table (course_id uuid, lesson_id uuid, quiz_id uuid, state text, attempts_used integer,
               max_attempts integer, best_score numeric, next_attempt_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  return query
  select q.course_id, q.lesson_id, q.id,
         case when s.passed then 'passed' when s.open then 'in_progress' when s.used > 0 then 'failed' else 'not_started' end,
         s.used, q.max_attempts, s.best,
         case when not s.passed and not s.open and s.last is not null
                   and (q.max_attempts is null or s.used < q.max_attempts)
                   and s.last + q.wait_hours * interval '1 hour' > now()
              then s.last + q.wait_hours * interval '1 hour' end
    from public.quizzes q
    cross join lateral (
      select coalesce(bool_or(a.passed), false) as passed, coalesce(bool_or(a.status = 'open'), false) as open,
             (count(*) filter (where a.status <> 'open'))::integer as used, max(a.score) as best, max(a.submitted_at) as last
        from public.quiz_attempts a where a.quiz_id = q.id and a.user_id = auth.uid()) s
   where q.published_version_id is not null
     and q.course_id in (select private.viewable_course_ids())
     and (p_course_id is null or q.course_id = p_course_id);
end $$;

revoke all on function public.quiz_for_student(uuid), public.start_quiz_attempt(uuid),
  public.save_quiz_answers(uuid, jsonb), public.submit_quiz_attempt(uuid, jsonb), public.my_quiz_states(uuid)
  from public, anon, authenticated;
grant execute on function public.quiz_for_student(uuid), public.start_quiz_attempt(uuid),
  public.save_quiz_answers(uuid, jsonb), public.submit_quiz_attempt(uuid, jsonb), public.my_quiz_states(uuid)
  to authenticated, service_role;

-- ── Certificates need every published quiz passed ──────────────────────────────────────────
-- issue_certificate as in 20261124000200_account_security.sql, with the quiz check after the lessons'.
create or replace function public.issue_certificate(p_course_id uuid) returns public.certificates
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_cert public.certificates;
  v_course public.courses;
  v_school_name text;
  v_name text;
  v_lessons bigint;
  v_done bigint;
  v_seconds bigint;
  v_completed_at timestamptz;
begin
  perform private.refuse_while_password_change_pending();
  if v_uid is null or not private.is_active() then
    raise exception 'Entre na sua conta para emitir o certificado.' using errcode = '42501';
  end if;

  select * into v_cert from public.certificates c where c.user_id = v_uid and c.course_id = p_course_id;
  if found then
    return v_cert;
  end if;

  select c.* into v_course from public.courses c
   where c.id = p_course_id and c.status = 'PUBLISHED' and c.school_id = private.my_school_id()
     and exists (select 1 from public.enrollments e
                 where e.course_id = c.id and e.user_id = v_uid and e.status = 'ACTIVE'
                   and (e.expires_at is null or e.expires_at > now()));
  if not found then
    raise exception 'Você não tem acesso a este curso.' using errcode = '42501';
  end if;
  if not v_course.certificate_enabled then
    raise exception 'Este curso não emite certificado.' using errcode = '22023';
  end if;

  -- Every lesson of the course now (the outline the student sees), completed by the caller.
  select count(*), count(p.completed_at), coalesce(sum(l.duration_sec), 0), max(p.completed_at)
    into v_lessons, v_done, v_seconds, v_completed_at
    from public.lessons l
    left join public.progress p on p.lesson_id = l.id and p.user_id = v_uid and p.completed_at is not null
   where l.course_id = v_course.id;
  if v_lessons = 0 or v_done < v_lessons then
    raise exception 'Conclua todas as aulas do curso para emitir o certificado.' using errcode = '22023';
  end if;
  -- Every published quiz of the course passed (issue 23): its lesson completes only then anyway; this
  -- says so in the refusal, and holds for a lesson completed before its quiz was published.
  if exists (select 1 from public.quizzes q
              where q.course_id = v_course.id and q.published_version_id is not null
                and not exists (select 1 from public.quiz_attempts a
                                 where a.quiz_id = q.id and a.user_id = v_uid and a.passed)) then
    raise exception 'Seja aprovado em todas as avaliações do curso para emitir o certificado.' using errcode = '22023';
  end if;

  select btrim(p.name) into v_name from public.profiles p where p.id = v_uid;
  if coalesce(v_name, '') = '' then
    raise exception 'Informe seu nome no perfil para emitir o certificado.' using errcode = '22023';
  end if;
  select s.name into v_school_name from public.schools s where s.id = v_course.school_id;

  insert into public.certificates (code, user_id, course_id, school_id, student_name, course_title, school_name,
                                   completed_at, workload_hours)
  values (private.new_certificate_code(), v_uid, v_course.id, v_course.school_id, v_name, v_course.title, v_school_name,
          v_completed_at,
          -- Whole hours, rounded half up (1 h 29 min → 1, 1 h 30 min → 2); a short course still certifies 1 h.
          greatest(1, round(v_seconds / 3600.0)::integer))
  -- A concurrent call (a double click) inserted it first: answer with that row.
  on conflict (user_id, course_id) do nothing
  returning * into v_cert;
  if v_cert.id is null then
    select * into v_cert from public.certificates c where c.user_id = v_uid and c.course_id = v_course.id;
  end if;
  return v_cert;
end $$;
