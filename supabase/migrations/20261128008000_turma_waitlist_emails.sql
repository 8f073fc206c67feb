-- Issue 40, the two e-mails of the turmas still missing (docs/turmas.md "E-mails"):
-- - turma_waitlist_open ("Vaga na lista de espera"): a student on a course's waiting list is told when
--   the course sells a turma again: a seat opened in the full turma (an enrollment left it or moved out,
--   staff raised the seats) or the next turma opened its enrollment window. Everyone on the list is
--   told at once (seats are first-come at the checkout, which takes them under the turma's lock), once
--   per waiting student and turma: key 'waitlist:<list entry>:<turma>', so the same opening seen twice,
--   or two triggers at once, write one message (the outbox's unique key). Events call
--   private.notify_turma_waitlist from triggers; what opens with time alone (a window's enroll_from, a
--   held charge past its due date) is seen by a job every 5 minutes.
-- - announcement ("Comunicados"): a turma's announcement sent by e-mail too (…008001).
-- Both are optional kinds (Descadastrar, the profile's preferences); the school's Configurações → E-mails
-- switches do not take them (school_email_settings.disabled_kinds stays as it is): the school chooses
-- the waiting list per turma and the e-mail per announcement. The kinds' check and
-- is_optional_email_kind are 20261128007000's with the two kinds added; email_outdated_reason is
-- 007000's with their case.
set local lock_timeout = '5s';

alter table public.email_outbox drop constraint email_outbox_kind_check;
alter table public.email_outbox add constraint email_outbox_kind_check check (kind in (
  'access_granted', 'new_enrollment', 'payment_pending', 'payment_reminder', 'payment_confirmed',
  'payment_refunded', 'content_released', 'we_miss_you', 'certificate_available', 'turma_starts_tomorrow',
  'checkout_recovery', 'pix_expiring', 'turma_waitlist_open', 'announcement'));

create or replace function private.is_optional_email_kind(p_kind text) returns boolean
language sql immutable set search_path = '' as $$
  select p_kind in ('new_enrollment', 'content_released', 'we_miss_you', 'certificate_available', 'checkout_recovery',
                    'turma_waitlist_open', 'announcement');
$$;

-- ── Telling the waiting list ────────────────────────────────────────────────────────────────────
-- When the course sells a turma now (the checkout's own choice, private.selling_turma), each student
-- waiting for the course who does not have it gets one message for that turma. Returns how many were
-- written.
create function private.notify_turma_waitlist(p_course_id uuid) returns integer
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_sale record;
  v_count integer := 0;
  r record;
begin
  if not exists (select 1 from public.turma_waitlist w where w.course_id = p_course_id) then
    return 0;
  end if;
  select * into v_sale from private.selling_turma(p_course_id, null, false);
  if (v_sale.turma).id is null then
    return 0;
  end if;
  for r in
    select w.id, w.user_id, w.turma_id, c.school_id, c.title, c.slug, u.email, pr.name
      from public.turma_waitlist w
      join public.courses c on c.id = w.course_id
      join auth.users u on u.id = w.user_id
      left join public.profiles pr on pr.id = w.user_id
     where w.course_id = p_course_id and c.status = 'PUBLISHED' and u.email is not null
       and not private.has_active_enrollment(w.user_id, p_course_id)
     order by w.created_at, w.id
  loop
    if private.enqueue_email(r.school_id, r.user_id, r.email, 'turma_waitlist_open', 'waitlist:' || r.id || ':' || (v_sale.turma).id,
         jsonb_build_object('name', coalesce(r.name, ''), 'course_title', r.title, 'course_id', p_course_id, 'course_slug', r.slug,
                            'turma_name', (v_sale.turma).name, 'starts_on', (v_sale.turma).starts_on,
                            -- true: a seat in the turma asked for; false: another turma (the next one) opened.
                            'same_turma', (v_sale.turma).id is not distinct from r.turma_id)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end $$;
revoke all on function private.notify_turma_waitlist(uuid) from public, anon, authenticated;

-- A seat leaves a turma (an enrollment deleted or moved out), or a turma is created or changed (seats,
-- window, dates): the course may sell again.
create function private.turma_waitlist_event() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.notify_turma_waitlist(case when tg_table_name = 'turmas' then new.course_id else old.course_id end);
  return null;
end $$;
revoke all on function private.turma_waitlist_event() from public, anon, authenticated;

create trigger enrollments_turma_waitlist_delete after delete on public.enrollments
  for each row when (old.turma_id is not null) execute function private.turma_waitlist_event();
create trigger enrollments_turma_waitlist_move after update of turma_id on public.enrollments
  for each row when (old.turma_id is not null and old.turma_id is distinct from new.turma_id)
  execute function private.turma_waitlist_event();
create trigger turmas_waitlist after insert or update of seats, enroll_from, enroll_until, starts_on, ends_on, waitlist_enabled
  on public.turmas for each row execute function private.turma_waitlist_event();

-- What opens with time alone: every course someone waits for, every 5 minutes.
create function private.notify_turma_waitlists() returns integer
language sql volatile security definer set search_path = '' as $$
  select coalesce(sum(private.notify_turma_waitlist(w.course_id)), 0)::integer
    from (select distinct course_id from public.turma_waitlist) w;
$$;
revoke all on function private.notify_turma_waitlists() from public, anon, authenticated;
select cron.schedule('turma-waitlist', '*/5 * * * *', 'select private.notify_turma_waitlists()');

-- ── Judged again when sent ──────────────────────────────────────────────────────────────────────
create function private.turma_email_outdated_reason(p_message public.email_outbox) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_id uuid := private.uuid_or_null(substring(p_message.idempotency_key from '^[a-z]+:([0-9a-fA-F-]{36})(?::|$)'));
  v_subject text := split_part(p_message.idempotency_key, ':', 1);
  v_entry public.turma_waitlist;
  v_announcement public.announcements;
begin
  if p_message.kind = 'turma_waitlist_open' and v_subject = 'waitlist' then
    select * into v_entry from public.turma_waitlist w where w.id = v_id;
    return case
      when v_entry.id is null then 'O aluno saiu da lista de espera.'
      when private.has_active_enrollment(v_entry.user_id, v_entry.course_id) then 'O aluno já está matriculado no curso.'
      when ((private.selling_turma(v_entry.course_id, v_entry.user_id, false)).turma).id is null then 'A vaga já foi preenchida.'
    end;
  elsif p_message.kind = 'announcement' and v_subject = 'announcement' then
    select * into v_announcement from public.announcements a where a.id = v_id;
    return case
      when v_announcement.id is null then 'O comunicado foi excluído.'
      when not v_announcement.is_active then 'O comunicado foi desativado.'
      when not exists (select 1 from public.enrollments e
                        where e.turma_id = v_announcement.turma_id and e.user_id = p_message.user_id and e.status = 'ACTIVE'
                          and (e.expires_at is null or e.expires_at > now())) then 'O aluno não está mais na turma.'
    end;
  end if;
  return null;
end $$;
revoke all on function private.turma_email_outdated_reason(public.email_outbox) from public, anon, authenticated;

-- 20261128007000's email_outdated_reason, with the two turma kinds.
create or replace function private.email_outdated_reason(p_message public.email_outbox) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_id uuid := private.uuid_or_null(substring(p_message.idempotency_key from '^[a-z]+:([0-9a-fA-F-]{36})(?::|$)'));
  v_subject text := split_part(p_message.idempotency_key, ':', 1);
  v_payment public.payments;
begin
  -- Optional kinds: the school turned the kind off, or the student stopped it, after it was written.
  if private.is_optional_email_kind(p_message.kind) then
    if exists (select 1 from public.school_email_settings s where s.school_id = p_message.school_id and p_message.kind = any (s.disabled_kinds)) then
      return 'A escola desligou este tipo de e-mail.';
    end if;
    if exists (select 1 from public.email_unsubscribes u where u.user_id = p_message.user_id and u.kind = p_message.kind) then
      return 'O aluno pediu para não receber este tipo de e-mail.';
    end if;
  end if;

  case p_message.kind
    when 'access_granted' then
      -- The link to choose a password is made for the account when the message is sent.
      if p_message.user_id is null then
        return 'A conta do aluno foi excluída.';
      end if;
    when 'payment_pending', 'payment_reminder', 'payment_confirmed', 'payment_refunded', 'pix_expiring' then
      if v_subject = 'payment' then
        select * into v_payment from public.payments p where p.id = v_id;
        if v_payment.id is null then
          return 'A cobrança foi excluída.';
        end if;
        if p_message.kind in ('payment_pending', 'payment_reminder', 'pix_expiring') then
          -- How to pay: only while the charge still waits for its payment.
          return case
            when v_payment.status in ('CONFIRMED', 'RECEIVED') then 'O pagamento já foi confirmado.'
            when v_payment.status in ('REFUNDED', 'CHARGEBACK') then 'O pagamento já foi estornado.'
            when v_payment.status = 'DELETED' then 'A cobrança foi cancelada.'
            when v_payment.status = 'FAILED' then 'A cobrança não foi criada.'
            when v_payment.status = 'OVERDUE' then 'A cobrança venceu.'
            when v_payment.replaced_by is not null then 'A cobrança foi substituída por outra.'
          end;
        elsif p_message.kind = 'payment_confirmed' and v_payment.status not in ('CONFIRMED', 'RECEIVED') then
          -- "Já está liberado" no longer holds; the refund's own message tells what happened.
          return 'O pagamento foi estornado antes do envio.';
        end if;
      end if;
    when 'checkout_recovery' then
      return private.recovery_email_outdated_reason(p_message);
    when 'turma_waitlist_open', 'announcement' then
      return private.turma_email_outdated_reason(p_message);
    when 'new_enrollment' then
      if v_subject = 'enrollment' and not exists (
           select 1 from public.enrollments e
            where e.id = v_id and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now())) then
        return 'A matrícula não está mais ativa.';
      end if;
    when 'certificate_available' then
      if v_subject = 'certificate' and not exists (select 1 from public.certificates c where c.id = v_id) then
        return 'O certificado foi excluído.';
      end if;
    when 'we_miss_you' then
      -- Back since the message was written: signed in or studied.
      if exists (select 1 from auth.users u where u.id = p_message.user_id and u.last_sign_in_at > p_message.created_at)
         or exists (select 1 from public.progress p where p.user_id = p_message.user_id and p.updated_at > p_message.created_at) then
        return 'O aluno voltou a estudar.';
      end if;
    else
      null;
  end case;
  return null;
end $$;
