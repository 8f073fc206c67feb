-- Issue 40: "Comunicado para a turma" → "Enviar também por e-mail" (docs/turmas.md). announcements gains
-- email_students: when on, the announcement is written to the outbox (kind 'announcement', optional, see
-- 20261128008000) for each student of its turma (an active, unexpired enrollment in it), once per
-- announcement and student (key 'announcement:<announcement>:<student>'): saving it again, or switching
-- the box off and on, writes nothing new; a student who joined the turma since gets it on the next save.
-- Only a turma's announcement is e-mailed (announcements_email_turma): a school-wide one is not.
-- Who may write the row is as before (announcements_insert/_update: staff of its school; the turma is
-- of its school, announcements_same_school), and the trigger sends only to that turma's students.
set local lock_timeout = '5s';

alter table public.announcements add column email_students boolean not null default false,
  add constraint announcements_email_turma check (not email_students or turma_id is not null);
comment on column public.announcements.email_students is 'Also sent by e-mail to the turma''s students (issue 40), once each.';
grant update (email_students) on public.announcements to authenticated;

create function private.email_turma_announcement() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r record;
begin
  for r in
    select e.user_id, u.email, pr.name, c.title, c.id as course_id, t.name as turma_name
      from public.enrollments e
      join public.turmas t on t.id = e.turma_id
      join public.courses c on c.id = t.course_id
      join auth.users u on u.id = e.user_id
      left join public.profiles pr on pr.id = e.user_id
     where e.turma_id = new.turma_id and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())
       and u.email is not null
  loop
    perform private.enqueue_email(new.school_id, r.user_id, r.email, 'announcement', 'announcement:' || new.id || ':' || r.user_id,
      jsonb_build_object('name', coalesce(r.name, ''), 'course_title', r.title, 'course_id', r.course_id,
                         'turma_name', r.turma_name, 'title', new.title, 'body', new.body));
  end loop;
  return null;
end $$;
revoke all on function private.email_turma_announcement() from public, anon, authenticated;

create trigger announcements_email after insert or update of email_students, turma_id, is_active, title, body on public.announcements
  for each row when (new.email_students and new.turma_id is not null and new.is_active)
  execute function private.email_turma_announcement();
