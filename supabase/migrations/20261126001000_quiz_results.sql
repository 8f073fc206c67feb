-- Issue 23, Avaliações, part 3: results for staff. Over finished attempts (graded, or expired when a
-- late submission was refused); an attempt being answered counts nowhere yet.
set local lock_timeout = '5s';

-- Staff trying their own quiz are not students: their attempts count in neither (as in Reports →
-- Alunos).
--
-- One quiz, for its editor's "Resultados": attempts, students who tried, students who passed, the
-- average score of the attempts, the pass rate (students who passed / students who tried, %), and
-- the five questions most often missed (answered wrongly or partly), with the statement of their
-- newest version.
create function public.quiz_results(p_quiz_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_quiz public.quizzes;
  v_result jsonb;
begin
  perform private.refuse_while_password_change_pending();
  select * into v_quiz from public.quizzes q where q.id = p_quiz_id;
  if not found or not private.is_course_staff(v_quiz.course_id) then
    raise exception 'Avaliação não encontrada.' using errcode = '42501';
  end if;

  select jsonb_build_object(
           'attempts', count(*),
           'students', count(distinct a.user_id),
           'students_passed', count(distinct a.user_id) filter (where a.passed),
           'average_score', round(avg(a.score), 2),
           'pass_rate', case when count(*) > 0
                             then round(100.0 * count(distinct a.user_id) filter (where a.passed) / count(distinct a.user_id), 2) end)
    into v_result
    from public.quiz_attempts a
   where a.quiz_id = v_quiz.id and a.status <> 'open' and not private.has_any_role(a.user_id);

  return v_result || jsonb_build_object('most_missed', coalesce((
    select jsonb_agg(jsonb_build_object('question_id', m.question_id, 'statement', m.statement, 'answered', m.answered,
                                        'missed', m.missed, 'miss_rate', m.miss_rate)
                     order by m.missed desc, m.miss_rate desc, m.statement)
      from (select g.question_id,
                   (select vq.value ->> 'statement'
                      from public.quiz_versions v cross join lateral jsonb_array_elements(v.questions) vq
                     where v.quiz_id = v_quiz.id and vq.value ->> 'id' = g.question_id::text
                     order by v.number desc limit 1) as statement,
                   count(*) as answered,
                   count(*) filter (where not g.is_correct) as missed,
                   round(100.0 * count(*) filter (where not g.is_correct) / count(*), 2) as miss_rate
              from public.quiz_attempt_answers g
              join public.quiz_attempts a on a.id = g.attempt_id
             where a.quiz_id = v_quiz.id and not private.has_any_role(a.user_id)
             group by g.question_id
            having count(*) filter (where not g.is_correct) > 0
             order by missed desc, miss_rate desc
             -- bounded: the five most missed, by definition of the card.
             limit 5) m), '[]'::jsonb));
end $$;

-- Reports → Avaliações: one row per student and quiz with a finished attempt, newest first; the
-- school's quizzes, optionally one course's; a page at a time with the total.
create function public.admin_report_quizzes(
  p_school_id uuid default null, p_course_id uuid default null, p_limit integer default 25, p_offset integer default 0
) returns table (
  user_id uuid, name text, email text, course_id uuid, course_title text, quiz_id uuid, lesson_title text,
  best_score numeric, attempts bigint, passed boolean, last_attempt_at timestamptz, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select a.user_id, p.name, p.email, c.id, c.title, q.id, l.title,
         max(a.score), count(*), bool_or(a.passed), max(a.submitted_at), count(*) over ()
    from public.quiz_attempts a
    join public.quizzes q on q.id = a.quiz_id
    join public.lessons l on l.id = q.lesson_id
    join public.courses c on c.id = q.course_id
    join public.profiles p on p.id = a.user_id
   where c.school_id = v_school and a.status <> 'open' and not private.has_any_role(a.user_id)
     and (p_course_id is null or c.id = p_course_id)
   group by a.user_id, p.name, p.email, c.id, c.title, q.id, l.title
   order by max(a.submitted_at) desc, p.name, a.user_id, q.id
   limit case when p_limit is null then null else least(greatest(p_limit, 1), 500) end
   offset greatest(coalesce(p_offset, 0), 0);
end $$;

revoke all on function public.quiz_results(uuid), public.admin_report_quizzes(uuid, uuid, integer, integer)
  from public, anon, authenticated;
grant execute on function public.quiz_results(uuid), public.admin_report_quizzes(uuid, uuid, integer, integer)
  to authenticated, service_role;
