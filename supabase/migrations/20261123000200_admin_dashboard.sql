-- Admin dashboard (SPEC §2): the four counters of a school in one round trip.
-- Security definer so the counts are plain index scans instead of one policy helper call per row;
-- the caller must manage the school (staff of it, or super admin), checked first.

create or replace function public.admin_dashboard_counts(p_school_id uuid default null)
returns table (courses bigint, students bigint, materials bigint, active_enrollments bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_school uuid := coalesce(p_school_id, private.my_school_id());
begin
  if v_school is null or not private.is_school_staff(v_school) then
    raise exception 'not allowed' using errcode = '42501';
  end if;
  return query select
    (select count(*) from public.courses c where c.school_id = v_school),
    -- Students: accounts of the school that hold no staff or admin role.
    (select count(*) from public.profiles p
      where p.school_id = v_school
        and not exists (select 1 from public.user_roles r where r.user_id = p.id)),
    (select count(*) from public.materials m join public.courses c on c.id = m.course_id where c.school_id = v_school),
    (select count(*) from public.enrollments e join public.courses c on c.id = e.course_id
      where c.school_id = v_school and e.status = 'ACTIVE' and (e.expires_at is null or e.expires_at > now()));
end $$;
revoke all on function public.admin_dashboard_counts(uuid) from public, anon;
grant execute on function public.admin_dashboard_counts(uuid) to authenticated, service_role;

