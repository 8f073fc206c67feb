-- Issue 37, hole 11: quiz answers had no size limit. private.clean_quiz_answers (20261126000900)
-- checked that each answered question and each option id belonged to the attempt, but not how many
-- times: one quiz_attempts row stored 3.9 MB (100,000 copies of one option id), and a single choice
-- could be saved with several options. Now an answer is exactly a shape the question allows: known
-- questions (each once, as object keys are), known options of that question, no repeats, at most one
-- option for single choice and true/false. So a cleaned answer is never larger than the attempt's
-- layout (which lists every question and option id once), and:
-- - save_quiz_answers and submit_quiz_attempt refuse an oversize argument before reading any of it;
-- - quiz_attempts.answers has a check beside it, whatever function writes the row.
set local lock_timeout = '5s';

-- The answers as sent, kept to the attempt's version: {question_id: [option_id]}. Anything else is
-- refused (a malformed request, not a wrong answer). The work is bounded by the quiz, not by what was
-- sent: the size is read first (pg_column_size is the size of the value as received, at no cost),
-- and each answer's length is checked before any of its elements.
create or replace function private.clean_quiz_answers(p_attempt public.quiz_attempts, p_answers jsonb) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_known jsonb;
  v_question jsonb;
  v_clean jsonb := '{}';
  r record;
begin
  if p_answers is null then
    return p_attempt.answers;
  end if;
  -- Every option of every question, each once, is less than the layout's text; twice that leaves
  -- room for the difference between jsonb's binary and text forms.
  if pg_column_size(p_answers) > 2 * octet_length(p_attempt.layout::text) then
    raise exception 'As respostas enviadas são grandes demais para esta avaliação.' using errcode = '22023';
  end if;
  if jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Respostas inválidas.' using errcode = '22023';
  end if;
  -- {question_id: {options: [option_id], most: how many may be chosen (one but for multiple choice)}}
  select jsonb_object_agg(q ->> 'id', jsonb_build_object(
           'options', (select coalesce(jsonb_agg(o ->> 'id'), '[]') from jsonb_array_elements(q -> 'options') o),
           'most', case when q ->> 'kind' = 'multiple' then jsonb_array_length(q -> 'options') else 1 end))
    into v_known
    from public.quiz_versions v, jsonb_array_elements(v.questions) q
   where v.id = p_attempt.version_id;
  -- One check after another: each reads only what the previous one bounded.
  for r in select key, value from jsonb_each(p_answers) loop
    v_question := v_known -> r.key;
    if v_question is null or jsonb_typeof(r.value) <> 'array' then
      raise exception 'Respostas inválidas.' using errcode = '22023';
    end if;
    if jsonb_array_length(r.value) > (v_question ->> 'most')::integer then
      raise exception 'Respostas inválidas.' using errcode = '22023';
    end if;
    if exists (select 1 from jsonb_array_elements(r.value) c where jsonb_typeof(c) <> 'string') then
      raise exception 'Respostas inválidas.' using errcode = '22023';
    end if;
    if exists (select 1 from jsonb_array_elements_text(r.value) c where not (v_question -> 'options') ? c)
       or (select count(distinct c) from jsonb_array_elements_text(r.value) c) <> jsonb_array_length(r.value) then
      raise exception 'Respostas inválidas.' using errcode = '22023';
    end if;
    v_clean := v_clean || jsonb_build_object(r.key, r.value);
  end loop;
  return v_clean;
end $$;
revoke all on function private.clean_quiz_answers(public.quiz_attempts, jsonb) from public, anon, authenticated;

-- ── quiz_attempts.answers: never larger than the layout ───────────────────────────────────────
-- A cleaned answer names each question and option of the layout at most once, so its text is shorter
-- than the layout's ({"q": ["o"]} against [{"option_ids": ["o"], "question_id": "q"}]). Rows saved
-- before this migration may repeat an option (the only way past the old check): repeats are dropped
-- first, which changes no grade (grading counted distinct options).
update public.quiz_attempts a
   set answers = (select coalesce(jsonb_object_agg(e.key, (select coalesce(jsonb_agg(distinct c), '[]')
                                                              from jsonb_array_elements(e.value) c)), '{}')
                    from jsonb_each(a.answers) e
                   where jsonb_typeof(e.value) = 'array')
 where octet_length(a.answers::text) > octet_length(a.layout::text);
alter table public.quiz_attempts add constraint quiz_attempts_answers_size
  check (octet_length(answers::text) <= octet_length(layout::text));
