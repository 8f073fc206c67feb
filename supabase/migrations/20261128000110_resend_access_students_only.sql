-- Issue 37, hole 10: an instructor queued "Acesso liberado" (whose link signs the account in to choose a
-- password) for the school's admin and for the super admin, whose profiles belong to the school too.
-- 'Reenviar acesso' is for the school's students: an account holding any role (staff of any school, the
-- super admin) is refused with a message the staff screen shows as is (not 42501, which the SPA words as
-- a bare "no permission"), and nothing is queued. Staff accounts get their first access e-mail where
-- they are created (admin-create-school-admin, tenant-webhook), and a dead link of their own asks for a
-- new one through the access-link function; both stay as they were.
set local lock_timeout = '5s';

create or replace function public.resend_student_access(p_user_id uuid)
returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_school uuid;
  v_name text;
  v_email text;
  v_id uuid;
begin
  perform private.refuse_while_password_change_pending();
  select p.school_id, p.name, u.email into v_school, v_name, v_email
    from public.profiles p join auth.users u on u.id = p.id
   where p.id = p_user_id;
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'Aluno não encontrado' using errcode = 'P0002';
  end if;
  if private.has_any_role(p_user_id) then
    raise exception 'O acesso só pode ser reenviado a alunos da escola, não a contas da equipe ou de administradores.'
      using errcode = '22023';
  end if;
  if v_email is null then
    raise exception 'Este aluno não tem e-mail cadastrado' using errcode = '22023';
  end if;
  v_id := private.enqueue_email(v_school, p_user_id, v_email, 'access_granted',
    'access-manual:' || p_user_id || ':' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI'),
    jsonb_build_object('name', coalesce(v_name, '')));
  if v_id is null then
    select o.id into v_id from public.email_outbox o
     where o.school_id = v_school
       and o.idempotency_key = 'access-manual:' || p_user_id || ':' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI');
  end if;
  return v_id;
end $$;
