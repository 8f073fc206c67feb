-- Issue 44, the audit log's readers (docs/privacy.md, "Audit log"). Nobody reads public.audit_log itself
-- through the API; these functions answer:
-- - admin_audit_log: a school's admins (SCHOOL_ADMIN, not instructors or staff) their school's rows; the
--   super admin any school's, or every school's (p_school_id null). Filters: person, kind of object (the
--   table), action, period (São Paulo dates, inclusive, at most 366 days); newest first; a page of at most
--   500 (the CSV reads it page by page), with the filter's total.
-- - admin_audit_actors: the people who appear in that log, for the "Pessoa" filter.
-- - set_audit_retention: the super admin sets the platform's retention (90 to 3650 days).

-- Who may read a school's log: its admins, and the super admin. A null school: the super admin only.
-- (staff_role_at already counts a role only from a session that passes the second-factor rule; it is
-- asked here again, as every function that names a role does: power-catalog.test.ts.)
create function private.can_read_audit(p_school_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  -- coalesce: staff_role_at answers null for an account without a role there, and "not null" is no refusal.
  select coalesce(private.is_super_admin()
                  or (p_school_id is not null and private.staff_role_at(auth.uid(), p_school_id) = 'SCHOOL_ADMIN'
                      and private.is_active() and private.second_factor_ok(p_school_id)), false)
$$;
revoke all on function private.can_read_audit(uuid) from public, anon, authenticated, service_role;

create function public.admin_audit_log(
  p_school_id uuid default null, p_actor_id uuid default null, p_table text default null, p_action text default null,
  p_from date default null, p_to date default null, p_limit integer default 25, p_offset integer default 0
) returns table (
  id uuid, created_at timestamptz, school_id uuid, school_name text, actor_id uuid, actor_name text, actor_email text,
  actor_role text, actor_aal text, source text, source_name text, table_name text, row_id text, row_label text,
  action text, before jsonb, after jsonb, total_count bigint
)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := p_school_id;
begin
  perform private.refuse_while_password_change_pending();
  -- A school admin without a school given reads their own school's log.
  if v_school is null and not private.is_super_admin() then
    v_school := private.my_school_id();
    if v_school is null then
      raise exception 'not allowed' using errcode = '42501';
    end if;
  end if;
  if not private.can_read_audit(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_from is not null and p_to is not null and (p_to < p_from or p_to - p_from > 366) then
    raise exception 'Período de até 366 dias.' using errcode = '22023';
  end if;
  return query
  select a.id, a.created_at, a.school_id, s.name, a.actor_id, pr.name, pr.email,
         a.actor_role, a.actor_aal, a.source, a.source_name, a.table_name, a.row_id, a.row_label,
         a.action, a.before, a.after, count(*) over ()
    from public.audit_log a
    left join public.schools s on s.id = a.school_id
    left join public.profiles pr on pr.id = a.actor_id
   where (v_school is null or a.school_id = v_school)
     and (p_actor_id is null or a.actor_id = p_actor_id)
     and (p_table is null or a.table_name = p_table)
     and (p_action is null or a.action = p_action)
     and (p_from is null or a.created_at >= (p_from::timestamp at time zone 'America/Sao_Paulo'))
     and (p_to is null or a.created_at < ((p_to + 1)::timestamp at time zone 'America/Sao_Paulo'))
   order by a.created_at desc, a.id
   limit least(greatest(coalesce(p_limit, 25), 1), 500)
   offset greatest(coalesce(p_offset, 0), 0);
end $$;
revoke all on function public.admin_audit_log(uuid, uuid, text, text, date, date, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_audit_log(uuid, uuid, text, text, date, date, integer, integer) to authenticated;

-- The people in the log the caller may read (at most 500, by name), for the person filter.
create function public.admin_audit_actors(p_school_id uuid default null)
returns table (actor_id uuid, actor_name text, actor_email text)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := p_school_id;
begin
  perform private.refuse_while_password_change_pending();
  if v_school is null and not private.is_super_admin() then
    v_school := private.my_school_id();
    if v_school is null then
      raise exception 'not allowed' using errcode = '42501';
    end if;
  end if;
  if not private.can_read_audit(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query
  select x.actor_id, pr.name, pr.email
    from (select distinct a.actor_id from public.audit_log a
           where a.actor_id is not null and (v_school is null or a.school_id = v_school)) x
    left join public.profiles pr on pr.id = x.actor_id
   order by pr.name nulls last, x.actor_id
   limit 500;
end $$;
revoke all on function public.admin_audit_actors(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_audit_actors(uuid) to authenticated;

create function public.set_audit_retention(p_days integer) returns integer
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform private.refuse_while_password_change_pending();
  if not private.is_super_admin() then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  if p_days is null or p_days not between 90 and 3650 then
    raise exception 'A retenção do registro de atividades vai de 90 a 3650 dias.' using errcode = '22023';
  end if;
  update private.audit_retention set days = p_days, updated_at = now() where only_row;
  return p_days;
end $$;
revoke all on function public.set_audit_retention(integer) from public, anon, authenticated, service_role;
grant execute on function public.set_audit_retention(integer) to authenticated;
