-- Course content editor (SPEC §2 "Course content", issue 9): drag-and-drop reordering of modules and
-- of lessons within and across modules, saved in one request and all-or-nothing.

-- p_modules: the course's whole outline in its new order, [{ "id": <module>, "lessons": [<lesson>, ...] }, ...].
-- Every module of the course must be listed once, and every listed lesson must belong to the course
-- (a lesson may move to another module of the same course, never to another course).
create or replace function public.reorder_course_content(p_course_id uuid, p_modules jsonb)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_module jsonb;
  v_module_id uuid;
  v_lesson text;
  v_mi integer := 0;
  v_li integer;
  v_listed_modules uuid[] := '{}';
  v_listed_lessons uuid[] := '{}';
begin
  if not private.is_course_staff(p_course_id) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if jsonb_typeof(p_modules) is distinct from 'array' then
    raise exception 'p_modules must be an array' using errcode = '22023';
  end if;
  for v_module in select * from jsonb_array_elements(p_modules) loop
    v_module_id := private.uuid_or_null(v_module ->> 'id');
    if v_module_id is null or not exists (select 1 from public.modules m where m.id = v_module_id and m.course_id = p_course_id) then
      raise exception 'module % is not a module of this course', v_module ->> 'id' using errcode = '22023';
    end if;
    v_listed_modules := v_listed_modules || v_module_id;
    update public.modules set order_index = v_mi where id = v_module_id and order_index is distinct from v_mi;
    v_li := 0;
    for v_lesson in select * from jsonb_array_elements_text(coalesce(v_module -> 'lessons', '[]'::jsonb)) loop
      if private.uuid_or_null(v_lesson) is null
         or not exists (select 1 from public.lessons l where l.id = v_lesson::uuid and l.course_id = p_course_id) then
        raise exception 'lesson % is not a lesson of this course', v_lesson using errcode = '22023';
      end if;
      v_listed_lessons := v_listed_lessons || v_lesson::uuid;
      update public.lessons set module_id = v_module_id, order_index = v_li
       where id = v_lesson::uuid and (module_id, order_index) is distinct from (v_module_id, v_li);
      v_li := v_li + 1;
    end loop;
    v_mi := v_mi + 1;
  end loop;
  -- The outline must be complete and without repeats, or the result would be ambiguous.
  if (select count(distinct x) from unnest(v_listed_modules) x) <> cardinality(v_listed_modules)
     or (select count(*) from public.modules m where m.course_id = p_course_id) <> cardinality(v_listed_modules)
     or (select count(distinct x) from unnest(v_listed_lessons) x) <> cardinality(v_listed_lessons)
     or (select count(*) from public.lessons l where l.course_id = p_course_id) <> cardinality(v_listed_lessons) then
    raise exception 'the new order must list every module and lesson of the course exactly once' using errcode = '22023';
  end if;
end $$;
revoke all on function public.reorder_course_content(uuid, jsonb) from public, anon;
grant execute on function public.reorder_course_content(uuid, jsonb) to authenticated, service_role;
