-- Issue 23, Avaliações (quizzes), part 1: what staff build. docs/quizzes.md has the whole design.
-- A lesson may carry one quiz (after its video/content, or alone). Staff edit the settings and the
-- draft questions over REST; "Publicar" freezes the questions into a version that students take, so
-- editing a quiz that has attempts never changes how those attempts were graded.
--
-- The rule of the feature: the correct options never reach a student before that student's attempt is
-- graded. quiz_questions and quiz_versions (which hold them) have no read policy for students at all;
-- students get a quiz only through the RPCs of 20261126000900_quiz_attempts.sql.
set local lock_timeout = '5s';

-- ── Options: [{id, text, correct}], checked where they are stored ─────────────────────────────
-- 2 to 10 options, each a non-blank text of at most 500 characters with a boolean `correct` and an id
-- unique in the question; true/false has exactly two; single choice and true/false at most one
-- correct (a draft may have none: publish_quiz refuses that).
create function private.quiz_options_valid(p_kind text, p_options jsonb) returns boolean
language sql immutable set search_path = '' as $$
  select jsonb_typeof(p_options) = 'array'
     and jsonb_array_length(p_options) between 2 and 10
     and (p_kind <> 'true_false' or jsonb_array_length(p_options) = 2)
     and not exists (
       select 1 from jsonb_array_elements(p_options) o
        where jsonb_typeof(o) <> 'object'
           or jsonb_typeof(o -> 'id') <> 'string' or length(o ->> 'id') not between 1 and 64
           or jsonb_typeof(o -> 'text') <> 'string' or length(btrim(o ->> 'text')) not between 1 and 500
           or jsonb_typeof(o -> 'correct') <> 'boolean')
     and (select count(distinct o ->> 'id') from jsonb_array_elements(p_options) o) = jsonb_array_length(p_options)
     and (p_kind = 'multiple'
          or (select count(*) from jsonb_array_elements(p_options) o where (o ->> 'correct')::boolean) <= 1)
$$;
revoke all on function private.quiz_options_valid(text, jsonb) from public, anon;
-- A check constraint runs with the writer's rights.
grant execute on function private.quiz_options_valid(text, jsonb) to authenticated, service_role;

-- ── quizzes: one per lesson, the settings and the version in force ────────────────────────────
create table public.quizzes (
  id uuid primary key default gen_random_uuid(),
  lesson_id uuid not null constraint quizzes_lesson_id_key unique references public.lessons (id) on delete cascade,
  -- From the lesson (set_course_from_lesson), never from the client: the policies trust it.
  course_id uuid not null references public.courses (id) on delete cascade,
  pass_mark integer not null default 70 constraint quizzes_pass_mark_check check (pass_mark between 1 and 100),
  -- null: unlimited.
  max_attempts integer constraint quizzes_max_attempts_check check (max_attempts between 1 and 10),
  wait_hours integer not null default 0 constraint quizzes_wait_hours_check check (wait_hours between 0 and 720),
  -- null: no time limit.
  time_limit_minutes integer constraint quizzes_time_limit_minutes_check check (time_limit_minutes between 1 and 600),
  -- A submission after the deadline: grade the answers saved before it, or refuse it (score 0).
  late_policy text not null default 'grade_at_deadline'
    constraint quizzes_late_policy_check check (late_policy in ('grade_at_deadline', 'refuse')),
  shuffle_questions boolean not null default false,
  shuffle_options boolean not null default false,
  show_answers text not null default 'after_each_attempt'
    constraint quizzes_show_answers_check check (show_answers in ('after_each_attempt', 'after_passing', 'never')),
  -- The version students take (null: not published). Foreign key added below, once quiz_versions exists.
  published_version_id uuid,
  published_at timestamptz,
  -- Last change to the draft questions ("Há alterações não publicadas" when after published_at).
  questions_updated_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.quizzes enable row level security;
create index quizzes_course_id_idx on public.quizzes (course_id);
create trigger quizzes_set_course before insert or update on public.quizzes
  for each row execute function private.set_course_from_lesson();
create trigger quizzes_touch before update on public.quizzes
  for each row execute function private.touch_timestamps();

-- ── quiz_questions: the draft staff edit ──────────────────────────────────────────────────────
create table public.quiz_questions (
  id uuid primary key default gen_random_uuid(),
  quiz_id uuid not null references public.quizzes (id) on delete cascade,
  -- From the quiz (quiz_questions_set_course), never from the client.
  course_id uuid not null references public.courses (id) on delete cascade,
  position integer not null default 0 constraint quiz_questions_position_check check (position >= 0),
  kind text not null default 'single' constraint quiz_questions_kind_check check (kind in ('single', 'multiple', 'true_false')),
  -- Multiple choice: all or nothing, or partial credit (docs/quizzes.md). Ignored for the other kinds.
  scoring text not null default 'all_or_nothing'
    constraint quiz_questions_scoring_check check (scoring in ('all_or_nothing', 'partial')),
  -- Markdown, sanitised by the SPA like lesson content.
  statement text not null constraint quiz_questions_statement_length check (length(btrim(statement)) between 1 and 5000),
  -- An object in lesson-materials under the lesson's folder (students sign it like a material).
  image_path text constraint quiz_questions_image_path_length check (length(image_path) between 1 and 500),
  options jsonb not null constraint quiz_questions_options_valid check (private.quiz_options_valid(kind, options)),
  explanation text constraint quiz_questions_explanation_length check (length(explanation) <= 5000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.quiz_questions enable row level security;
create index quiz_questions_quiz_id_position_idx on public.quiz_questions (quiz_id, position);
create index quiz_questions_course_id_idx on public.quiz_questions (course_id);

create function private.quiz_questions_set_course() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.course_id := (select q.course_id from public.quizzes q where q.id = new.quiz_id);
  if new.course_id is null then
    raise exception 'quiz % not found', new.quiz_id using errcode = '23503';
  end if;
  return new;
end $$;
revoke all on function private.quiz_questions_set_course() from public, anon, authenticated;
create trigger quiz_questions_set_course before insert or update on public.quiz_questions
  for each row execute function private.quiz_questions_set_course();
create trigger quiz_questions_touch before update on public.quiz_questions
  for each row execute function private.touch_timestamps();

-- Any change to the draft marks the quiz as having unpublished changes.
create function private.quiz_questions_mark_draft() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.quizzes set questions_updated_at = now()
   where id in (select quiz_id from new_rows union select quiz_id from old_rows);
  return null;
end $$;
-- Transition tables need one trigger per event.
create function private.quiz_questions_mark_draft_insert() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.quizzes set questions_updated_at = now() where id in (select quiz_id from new_rows);
  return null;
end $$;
create function private.quiz_questions_mark_draft_delete() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.quizzes set questions_updated_at = now() where id in (select quiz_id from old_rows);
  return null;
end $$;
revoke all on function private.quiz_questions_mark_draft(), private.quiz_questions_mark_draft_insert(),
  private.quiz_questions_mark_draft_delete() from public, anon, authenticated;
create trigger quiz_questions_mark_draft_insert after insert on public.quiz_questions
  referencing new table as new_rows for each statement execute function private.quiz_questions_mark_draft_insert();
create trigger quiz_questions_mark_draft_update after update on public.quiz_questions
  referencing new table as new_rows old table as old_rows
  for each statement execute function private.quiz_questions_mark_draft();
create trigger quiz_questions_mark_draft_delete after delete on public.quiz_questions
  referencing old table as old_rows for each statement execute function private.quiz_questions_mark_draft_delete();

-- ── quiz_versions: what publish_quiz froze ────────────────────────────────────────────────────
create table public.quiz_versions (
  id uuid primary key default gen_random_uuid(),
  quiz_id uuid not null references public.quizzes (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  number integer not null constraint quiz_versions_number_check check (number >= 1),
  -- [{id, kind, scoring, statement, image_path, explanation, options: [{id, text, correct}]}] in order.
  questions jsonb not null constraint quiz_versions_questions_array check (jsonb_typeof(questions) = 'array'
                                                                           and jsonb_array_length(questions) >= 1),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint quiz_versions_quiz_number_key unique (quiz_id, number)
);
alter table public.quiz_versions enable row level security;
create index quiz_versions_course_id_idx on public.quiz_versions (course_id);
create index quiz_versions_created_by_idx on public.quiz_versions (created_by);

alter table public.quizzes add constraint quizzes_published_version_id_fkey
  foreign key (published_version_id) references public.quiz_versions (id) on delete set null;
create index quizzes_published_version_id_idx on public.quizzes (published_version_id);

-- ── Grants and policies ──────────────────────────────────────────────────────────────────────
-- Staff of the course (and the super admin) write quizzes and draft questions over REST. Students read
-- the quiz row (settings only, nothing secret) of a published quiz of a lesson they may open; nothing
-- of quiz_questions or quiz_versions.
revoke all on public.quizzes, public.quiz_questions, public.quiz_versions from public, anon, authenticated;
grant select, insert, delete on public.quizzes to authenticated;
grant update (pass_mark, max_attempts, wait_hours, time_limit_minutes, late_policy, shuffle_questions,
              shuffle_options, show_answers) on public.quizzes to authenticated;
grant select, insert, delete on public.quiz_questions to authenticated;
grant update (position, kind, scoring, statement, image_path, options, explanation) on public.quiz_questions to authenticated;
grant select on public.quiz_versions to authenticated;
grant all on public.quizzes, public.quiz_questions, public.quiz_versions to service_role;

create policy quizzes_select on public.quizzes for select to authenticated
  using ((select private.is_super_admin())
         or course_id in (select private.staff_course_ids())
         or (published_version_id is not null and lesson_id in (select private.accessible_lesson_ids())));
create policy quizzes_insert on public.quizzes for insert to authenticated
  with check ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quizzes_update on public.quizzes for update to authenticated
  using ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()))
  with check ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quizzes_delete on public.quizzes for delete to authenticated
  using ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quizzes_password_change on public.quizzes as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

create policy quiz_questions_select on public.quiz_questions for select to authenticated
  using ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quiz_questions_insert on public.quiz_questions for insert to authenticated
  with check ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quiz_questions_update on public.quiz_questions for update to authenticated
  using ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()))
  with check ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quiz_questions_delete on public.quiz_questions for delete to authenticated
  using ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quiz_questions_password_change on public.quiz_questions as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

create policy quiz_versions_select on public.quiz_versions for select to authenticated
  using ((select private.is_super_admin()) or course_id in (select private.staff_course_ids()));
create policy quiz_versions_password_change on public.quiz_versions as restrictive for all to authenticated
  using (not (select private.password_change_pending())) with check (not (select private.password_change_pending()));

-- ── Staff RPCs ───────────────────────────────────────────────────────────────────────────────
-- The caller is staff of the quiz's course (or super admin); returns the quiz row locked for update.
create function private.staff_quiz_for_update(p_quiz_id uuid) returns public.quizzes
language plpgsql security definer set search_path = '' as $$
declare
  v_quiz public.quizzes;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_quiz from public.quizzes q where q.id = p_quiz_id for update;
  if not found or not private.is_course_staff(v_quiz.course_id) then
    raise exception 'Avaliação não encontrada.' using errcode = '42501';
  end if;
  return v_quiz;
end $$;
revoke all on function private.staff_quiz_for_update(uuid) from public, anon, authenticated;

-- Publish: check the draft, freeze it as the next version, put that version in force. Then re-open
-- the lesson for students who had completed it without passing this quiz: from now on the lesson
-- completes only with the quiz passed (the progress triggers of 20261126000900 keep it so).
create function public.publish_quiz(p_quiz_id uuid) returns public.quizzes
language plpgsql security definer set search_path = '' as $$
declare
  v_quiz public.quizzes := private.staff_quiz_for_update(p_quiz_id);
  v_question record;
  v_version uuid;
  v_number integer;
begin
  perform private.refuse_while_password_change_pending();
  if not exists (select 1 from public.quiz_questions q where q.quiz_id = v_quiz.id) then
    raise exception 'Adicione ao menos uma pergunta para publicar a avaliação.' using errcode = '22023';
  end if;
  for v_question in
    select row_number() over (order by q.position, q.created_at, q.id) as n, q.kind,
           (select count(*) from jsonb_array_elements(q.options) o where (o ->> 'correct')::boolean) as correct
      from public.quiz_questions q where q.quiz_id = v_quiz.id
      order by n
  loop
    if v_question.correct = 0 then
      raise exception 'A pergunta % não tem opção correta.', v_question.n using errcode = '22023';
    end if;
    if v_question.kind <> 'multiple' and v_question.correct <> 1 then
      raise exception 'A pergunta % deve ter exatamente uma opção correta.', v_question.n using errcode = '22023';
    end if;
  end loop;

  select coalesce(max(v.number), 0) + 1 into v_number from public.quiz_versions v where v.quiz_id = v_quiz.id;
  insert into public.quiz_versions (quiz_id, course_id, number, questions, created_by)
  select v_quiz.id, v_quiz.course_id, v_number,
         jsonb_agg(jsonb_build_object('id', q.id, 'kind', q.kind, 'scoring', q.scoring, 'statement', q.statement,
                                      'image_path', q.image_path, 'explanation', q.explanation, 'options', q.options)
                   order by q.position, q.created_at, q.id),
         auth.uid()
    from public.quiz_questions q where q.quiz_id = v_quiz.id
  returning id into v_version;

  update public.quizzes set published_version_id = v_version, published_at = now()
   where id = v_quiz.id returning * into v_quiz;

  -- As the function's owner: the API's roles can never clear a completion (progress_keep_completion).
  update public.progress p set completed_at = null
   where p.lesson_id = v_quiz.lesson_id and p.completed_at is not null
     and not exists (select 1 from public.quiz_attempts a
                      where a.quiz_id = v_quiz.id and a.user_id = p.user_id and a.passed);
  return v_quiz;
end $$;

create function public.unpublish_quiz(p_quiz_id uuid) returns public.quizzes
language plpgsql security definer set search_path = '' as $$
declare
  v_quiz public.quizzes := private.staff_quiz_for_update(p_quiz_id);
begin
  perform private.refuse_while_password_change_pending();
  update public.quizzes set published_version_id = null, published_at = null
   where id = v_quiz.id returning * into v_quiz;
  return v_quiz;
end $$;

-- Positions 0..n-1 in the order given, which must list every question of the quiz once.
create function public.reorder_quiz_questions(p_quiz_id uuid, p_question_ids uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_quiz public.quizzes := private.staff_quiz_for_update(p_quiz_id);
begin
  perform private.refuse_while_password_change_pending();
  if p_question_ids is null
     or cardinality(p_question_ids) <> (select count(distinct x) from unnest(p_question_ids) x)
     or (select count(*) from public.quiz_questions q where q.quiz_id = v_quiz.id) <> cardinality(p_question_ids)
     or exists (select 1 from unnest(p_question_ids) x
                 where not exists (select 1 from public.quiz_questions q where q.id = x and q.quiz_id = v_quiz.id)) then
    raise exception 'A lista de perguntas mudou. Recarregue a página e tente de novo.' using errcode = '22023';
  end if;
  update public.quiz_questions q set position = o.i - 1
    from unnest(p_question_ids) with ordinality as o(id, i)
   where q.id = o.id and q.position is distinct from (o.i - 1)::integer;
end $$;

-- A copy right after the question, with new option ids.
create function public.duplicate_quiz_question(p_question_id uuid) returns public.quiz_questions
language plpgsql security definer set search_path = '' as $$
declare
  v_source public.quiz_questions;
  v_quiz public.quizzes;
  v_copy public.quiz_questions;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_source from public.quiz_questions q where q.id = p_question_id;
  if not found then
    raise exception 'Avaliação não encontrada.' using errcode = '42501';
  end if;
  v_quiz := private.staff_quiz_for_update(v_source.quiz_id);
  -- Make room: the questions after the source move one down (in draft order).
  update public.quiz_questions q set position = q.position + 1
   where q.quiz_id = v_quiz.id and q.id <> v_source.id and q.position > v_source.position;
  insert into public.quiz_questions (quiz_id, position, kind, scoring, statement, image_path, options, explanation)
  values (v_quiz.id, v_source.position + 1, v_source.kind, v_source.scoring, v_source.statement, v_source.image_path,
          (select jsonb_agg(o || jsonb_build_object('id', gen_random_uuid()::text) order by i)
             from jsonb_array_elements(v_source.options) with ordinality as e(o, i)),
          v_source.explanation)
  returning * into v_copy;
  return v_copy;
end $$;

revoke all on function public.publish_quiz(uuid), public.unpublish_quiz(uuid),
  public.reorder_quiz_questions(uuid, uuid[]), public.duplicate_quiz_question(uuid) from public, anon, authenticated;
grant execute on function public.publish_quiz(uuid), public.unpublish_quiz(uuid),
  public.reorder_quiz_questions(uuid, uuid[]), public.duplicate_quiz_question(uuid) to authenticated, service_role;
