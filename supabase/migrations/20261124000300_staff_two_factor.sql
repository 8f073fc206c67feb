-- Issue 19: two-factor sign-in (TOTP) for staff. GoTrue puts `aal` in every access token: aal1 after
-- the password (or a recovery link), aal2 once the session verified a factor of the account
-- (auth.mfa_factors). The database now asks for aal2 where a stolen password must not be enough:
-- 1. Staff powers. A staff role at school X counts (is_school_staff, staff_school_ids and everything
--    built on them: the policies, the staff RPCs, storage) only when the session is aal2, or when the
--    account has no verified factor and X does not require two-factor sign-in from its staff
--    (`schools.require_staff_mfa`, a school admin's switch). So a password alone opens no staff
--    power of an account that turned two-factor on, nor of any staff account of such a school.
-- 2. The secrets, whoever asks (the super admin too, whose policies do not go through 1):
--    RESTRICTIVE policies on integration_settings and system_config, as Supabase's MFA guide shows
--    (`(select auth.jwt()->>'aal') = 'aal2'` unless the account needs no second factor), and a check
--    on every write to the secret tables, so each security-definer RPC that stores a secret
--    (create_integration, set_integration_webhook_token, rotate_school_webhook_secret,
--    set_system_config) refuses an aal1 session of such an account whatever its body says. Reading
--    the school's webhook secret (reveal_school_webhook_secret) goes through is_school_staff (1).
-- The service role (edge functions) carries no `aal` and is not affected: its callers are checked
-- by the functions themselves.
set local lock_timeout = '5s';

-- ── The school's requirement ─────────────────────────────────────────────────────────────────
alter table public.schools add column if not exists require_staff_mfa boolean not null default false;
comment on column public.schools.require_staff_mfa is 'Staff of the school must sign in with a second factor (aal2) to use any staff power.';
grant update (require_staff_mfa) on public.schools to authenticated;

-- ── Who needs a second factor ────────────────────────────────────────────────────────────────
-- The caller's account has a verified factor (security definer: the API roles cannot read auth.*).
create or replace function private.has_verified_factor() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from auth.mfa_factors f where f.user_id = auth.uid() and f.status = 'verified')
$$;

-- The caller's session may use a staff power at this school (or a secret of it; null = the platform's):
-- aal2, or an account without a verified factor at a school that does not require one.
create or replace function private.second_factor_ok(p_school_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select case
    when coalesce(auth.jwt() ->> 'aal', '') = 'aal2' then true
    else not private.has_verified_factor()
         and not coalesce((select s.require_staff_mfa from public.schools s where s.id = p_school_id), false)
  end
$$;

revoke all on function private.has_verified_factor(), private.second_factor_ok(uuid) from public, anon, authenticated;
grant execute on function private.has_verified_factor(), private.second_factor_ok(uuid) to authenticated, service_role;

-- ── Staff helpers (20261122000300_access_helpers.sql) with the rule above ────────────────────
-- Schools where the caller holds a staff role and may use it now. The aal and the factor are looked
-- up once per call, not once per role.
create or replace function private.staff_school_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  with me as (
    select coalesce(auth.jwt() ->> 'aal', '') = 'aal2' as aal2, private.has_verified_factor() as has_factor
  )
  select distinct r.school_id
  from public.user_roles r
  join public.profiles p on p.id = r.user_id
  join public.schools s on s.id = r.school_id
  cross join me
  where r.user_id = auth.uid() and p.is_active
    and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')
    and (me.aal2 or not (me.has_factor or s.require_staff_mfa))
$$;

-- The caller manages this school now: a staff role there or super admin, with the second factor the
-- school and the account ask for.
create or replace function private.is_school_staff(p_school_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.user_id = auth.uid() and p.is_active
      and (r.role = 'SUPER_ADMIN' or (r.school_id = p_school_id and r.role in ('SCHOOL_ADMIN', 'INSTRUCTOR', 'STAFF')))
  ) and private.second_factor_ok(p_school_id)
$$;

-- ── The secrets: restrictive policies ────────────────────────────────────────────────────────
-- ANDed with the permissive policies of 20261122000400_rls.sql (which let the super admin in through
-- is_super_admin, outside the staff helpers). Argument-free subqueries: evaluated once per statement.
create policy integration_settings_second_factor on public.integration_settings as restrictive for all to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2'
         or (not (select private.has_verified_factor())
             and school_id not in (select s.id from public.schools s where s.require_staff_mfa)))
  with check ((select auth.jwt() ->> 'aal') = 'aal2'
              or (not (select private.has_verified_factor())
                  and school_id not in (select s.id from public.schools s where s.require_staff_mfa)));
create policy system_config_second_factor on public.system_config as restrictive for all to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()))
  with check ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));

-- ── The secrets: every write by a signed-in caller ───────────────────────────────────────────
-- The RPCs write as their owner (RLS does not apply to them): this trigger is their check. It reads
-- the caller from the request's JWT, so the service role, migrations and the seed pass.
create or replace function private.secret_write_needs_second_factor() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_row jsonb := to_jsonb(coalesce(new, old));
begin
  if coalesce(auth.role(), '') <> 'authenticated' then
    return coalesce(new, old);
  end if;
  if not private.second_factor_ok(private.uuid_or_null(v_row ->> 'school_id')) then
    raise exception 'Confirme a verificação em duas etapas (código do aplicativo autenticador) para alterar segredos.'
      using errcode = '42501';
  end if;
  return coalesce(new, old);
end $$;
revoke all on function private.secret_write_needs_second_factor() from public, anon, authenticated;

create trigger integration_settings_second_factor before insert or update or delete on public.integration_settings
  for each row execute function private.secret_write_needs_second_factor();
create trigger system_config_second_factor before insert or update or delete on public.system_config
  for each row execute function private.secret_write_needs_second_factor();
create trigger school_webhook_secrets_second_factor before insert or update on private.school_webhook_secrets
  for each row execute function private.secret_write_needs_second_factor();

-- ── Changing the requirement ─────────────────────────────────────────────────────────────────
-- Only the school's admin (or the super admin), from an aal2 session: turning it on proves the admin's
-- own second factor works (no lock-out), and an instructor cannot turn it off.
create or replace function private.schools_guard_staff_mfa() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if coalesce(auth.role(), '') <> 'authenticated' then
    return new;
  end if;
  if not (private.is_super_admin()
          or exists (select 1 from public.user_roles r
                     where r.user_id = auth.uid() and r.school_id = new.id and r.role = 'SCHOOL_ADMIN')) then
    raise exception 'Só o administrador da escola muda a exigência de verificação em duas etapas.' using errcode = '42501';
  end if;
  if coalesce(auth.jwt() ->> 'aal', '') <> 'aal2' then
    raise exception 'Ative a verificação em duas etapas na sua conta (Perfil) antes de mudar esta exigência.' using errcode = '42501';
  end if;
  return new;
end $$;
revoke all on function private.schools_guard_staff_mfa() from public, anon, authenticated;

create trigger schools_guard_staff_mfa before update of require_staff_mfa on public.schools
  for each row when (old.require_staff_mfa is distinct from new.require_staff_mfa)
  execute function private.schools_guard_staff_mfa();
