-- Issue 44, the audit log (docs/privacy.md, "Audit log"): every change that staff or the super admin make,
-- and every change by a webhook or a payment event, recorded by the database itself.
-- - public.audit_log: who (account, role at the school, aal of the session), the school, when, what (table,
--   row, action), the fields before and after (only the changed ones on an update; a secret column is
--   recorded as changed, never with its value), and the source: 'api' (a signed-in account through the
--   API), 'function' (an edge function acting for a verified staff caller), 'webhook' (the school's own
--   systems), 'payment' (a payment provider's event), 'service' (the service role, no source given) or
--   'system' (no API session: a scheduled job, the auth server).
-- - Written only by private.audit_row(), an AFTER trigger on the audited tables. A signed-in account with
--   no staff role at the row's school (a student on their own rows: progress, comments, ratings, their
--   profile) is not recorded: those are not staff actions.
-- - Append-only: no API role has a privilege to change it (service_role may read it), and a trigger
--   refuses any update, any truncate, and any delete except private.purge_audit_log()'s of rows past the
--   platform's retention (private.audit_retention, default 730 days), run daily by pg_cron.
-- - An edge function names itself (and the staff account it verified) in two headers that the database
--   believes only from the service role: x-audit-source and x-audit-actor (serviceClient in
--   supabase/functions/_shared/supabase.ts). A payment event is told by the function it calls
--   (apply_payment_event, apply_subscription_event: the request's path).
set local lock_timeout = '5s';

-- ── The log ─────────────────────────────────────────────────────────────────────────────────────
-- No foreign keys: a row outlives the school, the account and the row it speaks of (a foreign key's
-- "on delete" would have to change or delete it).
create table public.audit_log (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  school_id uuid,
  actor_id uuid,
  actor_role text constraint audit_log_actor_role_check check (actor_role in ('SUPER_ADMIN', 'SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')),
  actor_aal text constraint audit_log_actor_aal_check check (actor_aal in ('aal1', 'aal2')),
  source text not null constraint audit_log_source_check check (source in ('api', 'function', 'webhook', 'payment', 'service', 'system')),
  source_name text constraint audit_log_source_name_check check (source_name ~ '^[a-z][a-z0-9_-]{0,59}$'),
  table_name text not null,
  row_id text not null,
  row_label text,
  action text not null constraint audit_log_action_check check (action in ('insert', 'update', 'delete')),
  before jsonb,
  after jsonb
);
comment on table public.audit_log is 'Issue 44: every staff, super admin, webhook and payment-event change to the audited tables, written by private.audit_row(); append-only, purged only past the platform''s retention; read through admin_audit_log.';
comment on column public.audit_log.before is 'The fields before the change (update: only the changed ones; insert: null). A secret column holds the text ''(secret)''.';
comment on column public.audit_log.row_label is 'The row''s title, name or code when it has one, so that an update that did not change it still says what it was.';
create index audit_log_school_created_idx on public.audit_log (school_id, created_at desc);
create index audit_log_school_actor_idx on public.audit_log (school_id, actor_id, created_at desc);
create index audit_log_created_idx on public.audit_log (created_at);
alter table public.audit_log enable row level security;
-- No policy: no API role reads the table itself (staff read through admin_audit_log); the service role
-- may read it; nobody writes it but the trigger function's owner.
revoke all on public.audit_log from public, anon, authenticated, service_role;
grant select on public.audit_log to service_role;

-- The platform's retention (one row).
create table private.audit_retention (
  only_row boolean primary key default true constraint audit_retention_only_row_check check (only_row),
  days integer not null default 730 constraint audit_retention_days_check check (days between 90 and 3650),
  updated_at timestamptz not null default now()
);
comment on table private.audit_retention is 'Issue 44: how many days the audit log keeps a row (default 730, two years); private.purge_audit_log deletes older ones.';
alter table private.audit_retention enable row level security;
revoke all on private.audit_retention from public, anon, authenticated, service_role;
insert into private.audit_retention default values;

-- ── Append-only ─────────────────────────────────────────────────────────────────────────────────
-- Grants already refuse every API role; this holds for the owner too (a security definer function, a
-- migration): only a delete inside private.purge_audit_log() (which sets audit.purging for its own
-- transaction) of a row older than the retention goes through.
create function private.audit_log_append_only() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'DELETE'
     and current_setting('audit.purging', true) = 'on'
     and (to_jsonb(old) ->> 'created_at')::timestamptz < now() - make_interval(days => (select r.days from private.audit_retention r)) then
    return old;
  end if;
  raise exception 'O registro de atividades não pode ser alterado nem apagado.' using errcode = '42501';
end $$;
revoke all on function private.audit_log_append_only() from public, anon, authenticated, service_role;

create trigger audit_log_append_only before update or delete on public.audit_log
  for each row execute function private.audit_log_append_only();
create trigger audit_log_no_truncate before truncate on public.audit_log
  for each statement execute function private.audit_log_append_only();

create function private.purge_audit_log() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_count integer;
begin
  perform set_config('audit.purging', 'on', true);
  delete from public.audit_log a
   where a.created_at < now() - make_interval(days => (select r.days from private.audit_retention r));
  get diagnostics v_count = row_count;
  perform set_config('audit.purging', 'off', true);
  return v_count;
end $$;
revoke all on function private.purge_audit_log() from public, anon, authenticated, service_role;

select cron.schedule('purge-audit-log', '41 3 * * *', 'select private.purge_audit_log()');

-- ── Who is acting ──────────────────────────────────────────────────────────────────────────────
-- From the request's JWT claims (PostgREST and local-supabase set them for the transaction): a signed-in
-- account ('api'), the service role (an edge function, named by its x-audit-source header, on behalf of
-- the x-audit-actor it verified; both believed only from the service role), or no API session ('system').
create function private.audit_context(
  out actor_id uuid, out actor_aal text, out source text, out source_name text
)
language plpgsql stable set search_path = '' as $$
declare
  v_claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  v_headers jsonb;
begin
  if v_claims is null then
    source := 'system';
  elsif v_claims ->> 'role' = 'service_role' then
    v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
    source_name := substring(v_headers ->> 'x-audit-source' from '^[a-z][a-z0-9-]{0,59}$');
    actor_id := private.uuid_or_null(v_headers ->> 'x-audit-actor');
    -- A provider's payment event reaches us as one of these two functions (asaas-webhook calls them).
    if source_name is null then
      source_name := substring(current_setting('request.path', true) from '/rpc/(apply_payment_event|apply_subscription_event)$');
    end if;
    source := case
                when source_name in ('asaas-webhook', 'apply_payment_event', 'apply_subscription_event') then 'payment'
                when source_name like '%-webhook' then 'webhook'
                when source_name is not null then 'function'
                else 'service'
              end;
  else
    source := 'api';
    actor_id := private.uuid_or_null(v_claims ->> 'sub');
    actor_aal := substring(v_claims ->> 'aal' from '^aal[12]$');
  end if;
end $$;
revoke all on function private.audit_context() from public, anon, authenticated, service_role;

-- The row's school: argument 1 names the column that leads to it. A course's content whose course is
-- already gone (a course deleted with its modules) is not recorded again: the course's own row says it.
create function private.audit_school(p_from text, p_row jsonb) returns uuid
language sql stable security definer set search_path = '' as $$
  select case p_from
           when 'none' then null
           when 'id' then private.uuid_or_null(p_row ->> 'id')
           when 'course_id' then (select c.school_id from public.courses c where c.id = private.uuid_or_null(p_row ->> 'course_id'))
           when 'lesson_id' then (select c.school_id from public.lessons l join public.courses c on c.id = l.course_id
                                   where l.id = private.uuid_or_null(p_row ->> 'lesson_id'))
           when 'coupon_id' then (select c.school_id from public.coupons c where c.id = private.uuid_or_null(p_row ->> 'coupon_id'))
           when 'plan_id' then (select p.school_id from public.plans p where p.id = private.uuid_or_null(p_row ->> 'plan_id'))
           when 'integration_id' then (select i.school_id from public.integration_settings i where i.id = private.uuid_or_null(p_row ->> 'integration_id'))
           else private.uuid_or_null(p_row ->> p_from)
         end
$$;
revoke all on function private.audit_school(text, jsonb) from public, anon, authenticated, service_role;

-- Argument 1: where the school comes from (see private.audit_school). Argument 2: the key columns,
-- comma-separated. Argument 3: the columns holding a secret, comma-separated ('' for none); a column
-- named like a secret (…secret, …token, api_key, …hash) is treated as one too.
create function private.audit_row() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  v_row jsonb := coalesce(v_new, v_old);
  v_secrets text[] := coalesce(string_to_array(nullif(tg_argv[2], ''), ','), '{}');
  v_ctx record;
  v_school uuid;
  v_role text;
  v_before jsonb;
  v_after jsonb;
  v_key text;
begin
  select * into v_ctx from private.audit_context();
  v_school := private.audit_school(tg_argv[0], v_row);
  if v_school is null and tg_argv[0] in ('course_id', 'lesson_id', 'coupon_id', 'plan_id', 'integration_id') then
    return null;
  end if;
  if v_ctx.actor_id is not null then
    v_role := private.staff_role_at(v_ctx.actor_id, v_school);
  end if;
  -- A signed-in account without a staff role here acts on its own rows: not a staff action.
  if v_ctx.source = 'api' and v_role is null then
    return null;
  end if;

  if tg_op = 'UPDATE' then
    select jsonb_object_agg(o.key, o.value), jsonb_object_agg(o.key, v_new -> o.key)
      into v_before, v_after
      from jsonb_each(v_old) o
     where o.value is distinct from v_new -> o.key and o.key not in ('updated_at');
    if v_before is null then
      return null;
    end if;
  else
    v_before := v_old;
    v_after := v_new;
  end if;
  for v_key in select k from jsonb_object_keys(coalesce(v_after, v_before)) k loop
    if v_key = any (v_secrets) or v_key ~ '(^|_)(secret|token|api_key|hash)$' then
      v_before := case when v_before ? v_key then jsonb_set(v_before, array[v_key], '"(secret)"') end;
      v_after := case when v_after ? v_key then jsonb_set(v_after, array[v_key], '"(secret)"') end;
    end if;
  end loop;

  insert into public.audit_log (school_id, actor_id, actor_role, actor_aal, source, source_name, table_name, row_id, row_label, action, before, after)
  values (
    v_school, v_ctx.actor_id, v_role, v_ctx.actor_aal, v_ctx.source, v_ctx.source_name, tg_table_name,
    (select string_agg(v_row ->> k, ',') from unnest(string_to_array(tg_argv[1], ',')) k),
    left(coalesce(v_row ->> 'title', v_row ->> 'name', v_row ->> 'code', v_row ->> 'key', v_row ->> 'slug'), 200),
    lower(tg_op), v_before, v_after);
  return null;
end $$;
revoke all on function private.audit_row() from public, anon, authenticated, service_role;

-- ── The audited tables ──────────────────────────────────────────────────────────────────────────
-- Courses and their content.
create trigger audit_row after insert or update or delete on public.courses
  for each row execute function private.audit_row('school_id', 'id', '');
create trigger audit_row after insert or update or delete on public.modules
  for each row execute function private.audit_row('course_id', 'id', '');
-- lessons.course_id follows its module; the course's total_lessons is the courses row's own update.
create trigger audit_row after insert or update or delete on public.lessons
  for each row execute function private.audit_row('course_id', 'id', '');
create trigger audit_row after insert or update or delete on public.lesson_contents
  for each row execute function private.audit_row('lesson_id', 'lesson_id', '');
create trigger audit_row after insert or update or delete on public.materials
  for each row execute function private.audit_row('course_id', 'id', '');
create trigger audit_row after insert or update or delete on public.announcements
  for each row execute function private.audit_row('school_id', 'id', '');
-- Prices, coupons, plans, bumps.
create trigger audit_row after insert or update or delete on public.coupons
  for each row execute function private.audit_row('school_id', 'id', '');
create trigger audit_row after insert or delete on public.coupon_courses
  for each row execute function private.audit_row('coupon_id', 'coupon_id,course_id', '');
create trigger audit_row after insert or update or delete on public.plans
  for each row execute function private.audit_row('school_id', 'id', '');
create trigger audit_row after insert or delete on public.plan_courses
  for each row execute function private.audit_row('plan_id', 'plan_id,course_id', '');
create trigger audit_row after insert or update or delete on public.course_bumps
  for each row execute function private.audit_row('course_id', 'course_id,bump_course_id', '');
-- Turmas.
create trigger audit_row after insert or update or delete on public.turmas
  for each row execute function private.audit_row('school_id', 'id', '');
create trigger audit_row after insert or update or delete on public.turma_module_dates
  for each row execute function private.audit_row('school_id', 'turma_id,module_id', '');
-- Enrollments (staff, webhooks, payments; a student's own checkout runs as a payment event).
create trigger audit_row after insert or update or delete on public.enrollments
  for each row execute function private.audit_row('course_id', 'id', '');
-- Students: status, password resets (must_change_password), what staff edit. Not the e-mail and avatar,
-- which follow the account's own changes.
create trigger audit_row after update on public.profiles
  for each row
  when (old.is_active is distinct from new.is_active or old.must_change_password is distinct from new.must_change_password
        or old.school_id is distinct from new.school_id or old.name is distinct from new.name
        or old.phone is distinct from new.phone or old.cpf is distinct from new.cpf or old.address is distinct from new.address)
  execute function private.audit_row('school_id', 'id', '');
-- Access e-mails sent by staff (resend_student_access).
create trigger audit_row after insert on public.email_outbox
  for each row when (new.kind = 'access_granted' and new.idempotency_key like 'access-manual:%')
  execute function private.audit_row('school_id', 'id', '');
-- Refunds, and the payment events that change a payment's status.
create trigger audit_row after update on public.payments
  for each row
  when (old.status is distinct from new.status or old.refund_requested_at is distinct from new.refund_requested_at
        or old.refund_reason is distinct from new.refund_reason or old.refunded_at is distinct from new.refunded_at)
  execute function private.audit_row('school_id', 'id', '');
-- School settings.
create trigger audit_row after update or delete on public.schools
  for each row execute function private.audit_row('id', 'id', '');
create trigger audit_row after insert or update or delete on public.school_email_settings
  for each row execute function private.audit_row('school_id', 'school_id', '');
create trigger audit_row after insert or update or delete on public.school_discussion_settings
  for each row execute function private.audit_row('school_id', 'school_id', '');
create trigger audit_row after insert or update or delete on public.school_video_settings
  for each row execute function private.audit_row('school_id', 'school_id', '');
create trigger audit_row after insert or update or delete on public.school_recovery_settings
  for each row execute function private.audit_row('school_id', 'school_id', '');
create trigger audit_row after insert or update or delete on public.integration_settings
  for each row execute function private.audit_row('school_id', 'id', '');
-- Roles.
create trigger audit_row after insert or update or delete on public.user_roles
  for each row execute function private.audit_row('school_id', 'id', '');
-- Secrets: that they changed, never their values.
create trigger audit_row after insert or update or delete on private.integration_secrets
  for each row execute function private.audit_row('integration_id', 'integration_id', 'api_key,webhook_token');
create trigger audit_row after insert or update or delete on private.school_webhook_secrets
  for each row execute function private.audit_row('school_id', 'school_id', 'secret');
create trigger audit_row after insert or update or delete on public.system_config
  for each row execute function private.audit_row('none', 'id', '');
create trigger audit_row after insert or update or delete on private.system_secrets
  for each row execute function private.audit_row('none', 'config_id', 'value');
-- Comment moderation: hiding and showing again, approval, staff deleting a student's comment.
create trigger audit_row after insert or update or delete on public.lesson_comment_moderation
  for each row execute function private.audit_row('school_id', 'comment_id', '');
create trigger audit_row after update on public.lesson_comments
  for each row
  when (old.status is distinct from new.status or old.hidden_at is distinct from new.hidden_at)
  execute function private.audit_row('course_id', 'id', '');
create trigger audit_row_delete after delete on public.lesson_comments
  for each row execute function private.audit_row('course_id', 'id', '');
-- The retention itself.
create trigger audit_row after update on private.audit_retention
  for each row execute function private.audit_row('none', 'only_row', '');
