-- Issue 40: "Comunicado para a turma" and "Ranking por turma" (docs/turmas.md).
-- - announcements.turma_id: an announcement for one turma of its course. Why announcements_select
--   changes (policy of 20261122000400_rls.sql): a student reads a turma's
--   announcement only while in that turma; everything else reads as before. Announcements are not
--   e-mailed today, so none of this writes to the outbox.
-- - school_discussion_settings.ranking_by_turma: when on, a student's ranking is the students who
--   share a turma with them (any course); a student in no turma sees an empty ranking. Staff see the
--   whole school as before.
set local lock_timeout = '5s';

alter table public.announcements add column turma_id uuid references public.turmas (id) on delete cascade;
create index announcements_turma_id_idx on public.announcements (turma_id) where turma_id is not null;
grant update (turma_id) on public.announcements to authenticated;

drop policy announcements_select on public.announcements;
create policy announcements_select on public.announcements for select to authenticated
  using ((is_active and school_id = (select private.my_school_id())
          and (turma_id is null or turma_id in (select private.my_turma_ids())))
         or school_id in (select private.staff_school_ids()) or (select private.is_super_admin()));

-- A turma's announcement is of the turma's course (course_id follows the turma) and school.
create or replace function private.announcements_same_school() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.turma_id is not null then
    new.course_id := (select t.course_id from public.turmas t where t.id = new.turma_id);
  end if;
  if new.course_id is not null and not exists (
    select 1 from public.courses c where c.id = new.course_id and c.school_id = new.school_id
  ) then
    raise exception 'course belongs to another school' using errcode = '23514';
  end if;
  return new;
end $$;
drop trigger announcements_same_school on public.announcements;
create trigger announcements_same_school before insert or update of school_id, course_id, turma_id on public.announcements
  for each row execute function private.announcements_same_school();

alter table public.school_discussion_settings add column ranking_by_turma boolean not null default false;

-- 20261128000700's ranking, limited to the caller's turma mates when the school ranks by turma.
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
  -- By turma, for a student: who shares one of their turmas (none: nobody).
  if coalesce(v_by_turma, false) and not private.is_school_staff(v_school) then
    select coalesce(array_agg(distinct e.user_id), '{}') into v_mates
      from public.enrollments e where e.turma_id in (select private.my_turma_ids());
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
