-- Issue 22: the events that write e-mails into the outbox, in their own transaction (a rolled-back
-- event writes nothing; a repeated one finds its key and writes nothing either).
-- - A course opened for a student who has used the platform before: "Nova matrícula". An account that
--   never signed in gets "Acesso liberado" instead (written where the account is created: the edge
--   functions), which lists every course it has when it is sent.
-- - A payment confirmed or received: "Pagamento confirmado" (the receipt); refunded or charged back:
--   "Pagamento estornado". "Pagamento pendente" is written by create-asaas-charge, which holds the PIX
--   code and the boleto's line.
-- - A certificate issued: "Certificado disponível".
set local lock_timeout = '5s';

-- The address of an account, or null (no e-mail is written then).
create function private.account_email(p_user_id uuid) returns text
language sql stable security definer set search_path = '' as $$
  select u.email::text from auth.users u where u.id = p_user_id;
$$;
revoke all on function private.account_email(uuid) from public, anon, authenticated;

-- ── Nova matrícula ──────────────────────────────────────────────────────────────────────────
create function private.email_on_enrollment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_course public.courses;
  v_user auth.users;
  v_name text;
begin
  -- Opened now: inserted ACTIVE, or moved to ACTIVE from PENDING (the owner confirmed the address).
  if new.status <> 'ACTIVE' or (tg_op = 'UPDATE' and old.status <> 'PENDING') then
    return null;
  end if;
  select * into v_user from auth.users where id = new.user_id;
  if v_user.email is null or v_user.last_sign_in_at is null then
    return null;
  end if;
  select * into v_course from public.courses where id = new.course_id;
  select p.name into v_name from public.profiles p where p.id = new.user_id;
  perform private.enqueue_email(v_course.school_id, new.user_id, v_user.email, 'new_enrollment', 'enrollment:' || new.id,
    jsonb_build_object('name', coalesce(v_name, ''), 'course_title', v_course.title, 'course_id', v_course.id));
  return null;
end $$;
revoke all on function private.email_on_enrollment() from public, anon, authenticated;
create trigger enrollments_email after insert or update of status on public.enrollments
  for each row execute function private.email_on_enrollment();

-- ── Pagamento confirmado / estornado ────────────────────────────────────────────────────────
create function private.email_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_email text := private.account_email(new.user_id);
  v_name text;
begin
  if v_email is null or new.status is not distinct from old.status then
    return null;
  end if;
  select p.name into v_name from public.profiles p where p.id = new.user_id;
  if new.status in ('CONFIRMED', 'RECEIVED') and old.status not in ('CONFIRMED', 'RECEIVED') then
    perform private.enqueue_email(new.school_id, new.user_id, v_email, 'payment_confirmed', 'payment:' || new.id || ':confirmed',
      jsonb_build_object('name', coalesce(v_name, ''), 'course_title', new.course_title, 'course_id', new.course_id,
        'amount', new.value, 'method', new.billing_type, 'paid_at', coalesce(new.paid_at, now())));
  elsif new.status in ('REFUNDED', 'CHARGEBACK') then
    perform private.enqueue_email(new.school_id, new.user_id, v_email, 'payment_refunded', 'payment:' || new.id || ':refunded',
      jsonb_build_object('name', coalesce(v_name, ''), 'course_title', new.course_title, 'amount', new.value,
        'reason', case when new.status = 'CHARGEBACK' then 'chargeback' else 'refund' end));
  end if;
  return null;
end $$;
revoke all on function private.email_on_payment() from public, anon, authenticated;
create trigger payments_email after update of status on public.payments
  for each row execute function private.email_on_payment();

-- ── Certificado disponível ──────────────────────────────────────────────────────────────────
create function private.email_on_certificate() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_email text := private.account_email(new.user_id);
begin
  if v_email is not null then
    perform private.enqueue_email(new.school_id, new.user_id, v_email, 'certificate_available', 'certificate:' || new.id,
      jsonb_build_object('name', new.student_name, 'course_title', new.course_title, 'course_id', new.course_id, 'code', new.code));
  end if;
  return null;
end $$;
revoke all on function private.email_on_certificate() from public, anon, authenticated;
create trigger certificates_email after insert on public.certificates
  for each row execute function private.email_on_certificate();
