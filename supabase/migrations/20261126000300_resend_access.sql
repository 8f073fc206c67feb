-- Issue 22: "Reenviar acesso" on the student's card. Staff of the student's school queue a new
-- "Acesso liberado" e-mail (a new 7-day link is made when it is sent). Two clicks in the same minute
-- queue one message.
set local lock_timeout = '5s';

create function public.resend_student_access(p_user_id uuid)
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
revoke all on function public.resend_student_access(uuid) from public, anon;
grant execute on function public.resend_student_access(uuid) to authenticated;
