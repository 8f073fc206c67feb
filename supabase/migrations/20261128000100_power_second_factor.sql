-- Issue 37, holes 1 and 2: two-factor held for school staff only. The rule decided in
-- 20261124000300_staff_two_factor.sql (an aal1 session of an account with a verified factor has no staff
-- or super-admin power at all) now holds for every helper that decides a role:
-- - private.is_super_admin(): a super admin with a verified factor signed in with the password only
--   (aal1) read every quiz's answers, every payment and coupon, and wrote and deleted in any school;
--   every policy, RPC, trigger and storage policy that asks it inherits the rule. The super admin has no
--   school, so a school's require_staff_mfa does not apply to them: private.second_factor_ok(null).
-- - private.is_school_staff(): its super-admin branch took the school's require_staff_mfa instead; it
--   now asks the same question as is_super_admin (and still one query per call, as before).
-- - private.staff_role_at() (discussions): an instructor at aal1 wrote comments as INSTRUCTOR (staff
--   badge, no 5-a-minute limit). A role now counts for the request's own comment only as its session
--   may use it: at aal1 with a verified factor the comment is a student's (no badge, the student limit,
--   approval when the school asks for it). The service role, the seed and migrations write the roles as
--   stored (they carry no session).
-- Every function whose body names user_roles or a role is listed by
-- tests/integration/product/power-catalog.test.ts: it goes through second_factor_ok/has_verified_factor
-- or is on that test's commented list of functions that grant no power.
-- Cost: the rule is asked only after a role row matched (a student, on the hot paths, has none), and
-- the policies call is_super_admin() as an argument-free subquery, so once per statement as before.
set local lock_timeout = '5s';

create or replace function private.is_super_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.user_id = auth.uid() and p.is_active and r.role = 'SUPER_ADMIN'
  ) and private.second_factor_ok(null)
$$;

-- The caller manages this school now: super admin (their own factor only), or a staff role there with
-- the second factor the school and the account ask for.
create or replace function private.is_school_staff(p_school_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.user_id = auth.uid() and p.is_active
      and (r.role = 'SUPER_ADMIN' or (r.school_id = p_school_id and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')))
      and private.second_factor_ok(case when r.role = 'SUPER_ADMIN' then null else p_school_id end)
  )
$$;

-- The role a user holds at a school, as a comment shows it (null: a student). For a signed-in request
-- only the caller's own roles that their session may use now count.
create or replace function private.staff_role_at(p_user_id uuid, p_school_id uuid) returns text
language sql stable security definer set search_path = '' as $$
  select case
           when bool_or(r.role = 'SCHOOL_ADMIN' and r.school_id = p_school_id) then 'SCHOOL_ADMIN'
           when bool_or(r.role = 'INSTRUCTOR' and r.school_id = p_school_id) then 'INSTRUCTOR'
           when bool_or(r.role = 'STAFF' and r.school_id = p_school_id) then 'STAFF'
           when bool_or(r.role = 'SUPER_ADMIN') then 'SUPER_ADMIN'
         end
    from public.user_roles r
   where r.user_id = p_user_id
     and (coalesce(auth.role(), '') <> 'authenticated'
          or (r.user_id = auth.uid()
              and private.second_factor_ok(case when r.role = 'SUPER_ADMIN' then null else r.school_id end)))
$$;
