-- Issue 46, item 3: the e-mails called everything a course. A plan's receipt said "o curso Plano Completo
-- já está liberado" and "Acessar o curso"; a course bought with its order bump read "pedido do curso
-- Marketing… + Excel…" (payments.course_title joins the two titles). The messages now carry what was
-- bought, so each kind of purchase gets its own words (supabase/functions/_shared/emails/messages.ts):
-- - payment e-mails: 'items', the payment's payment_items as [{kind: course|bump|plan, title, course_id}]
--   (create-asaas-charge writes the same for "Pagamento pendente"), and for a plan 'plan_cycle';
-- - "Nova matrícula" of a course a plan opened: 'plan_name'.
-- email_on_payment and email_on_enrollment are as in 20261126000400_email_events.sql with those fields.
set local lock_timeout = '5s';

-- What a payment bought, for its e-mails: the course first, then its bump; or the plan.
create function private.payment_email_items(p_payment_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('kind', i.kind, 'title', i.title, 'course_id', i.course_id)
                            order by array_position(array['course', 'bump', 'plan'], i.kind)), '[]'::jsonb)
    from public.payment_items i where i.payment_id = p_payment_id;
$$;
revoke all on function private.payment_email_items(uuid) from public, anon, authenticated;

create or replace function private.email_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_email text := private.account_email(new.user_id);
  v_name text;
  v_purchase jsonb;
begin
  if v_email is null or new.status is not distinct from old.status then
    return null;
  end if;
  select p.name into v_name from public.profiles p where p.id = new.user_id;
  v_purchase := jsonb_build_object('items', private.payment_email_items(new.id))
    || coalesce((select jsonb_build_object('plan_cycle', s.cycle) from public.subscriptions s where s.id = new.subscription_id), '{}');
  if new.status in ('CONFIRMED', 'RECEIVED') and old.status not in ('CONFIRMED', 'RECEIVED') then
    perform private.enqueue_email(new.school_id, new.user_id, v_email, 'payment_confirmed', 'payment:' || new.id || ':confirmed',
      jsonb_build_object('name', coalesce(v_name, ''), 'course_title', new.course_title, 'course_id', new.course_id,
        'amount', new.value, 'method', new.billing_type, 'paid_at', coalesce(new.paid_at, now())) || v_purchase);
  elsif new.status in ('REFUNDED', 'CHARGEBACK') then
    perform private.enqueue_email(new.school_id, new.user_id, v_email, 'payment_refunded', 'payment:' || new.id || ':refunded',
      jsonb_build_object('name', coalesce(v_name, ''), 'course_title', new.course_title, 'amount', new.value,
        'reason', case when new.status = 'CHARGEBACK' then 'chargeback' else 'refund' end) || v_purchase);
  end if;
  return null;
end $$;

create or replace function private.email_on_enrollment() returns trigger
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
    jsonb_build_object('name', coalesce(v_name, ''), 'course_title', v_course.title, 'course_id', v_course.id)
    || coalesce((select jsonb_build_object('plan_name', s.plan_name) from public.subscriptions s where s.id = new.subscription_id), '{}'));
  return null;
end $$;
