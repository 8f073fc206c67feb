// Issue 37: every SQL function that decides a role asks the session's second factor. Read from the live
// catalog (pg_proc in public, private and storage): a function whose body names user_roles or a role
// must call private.second_factor_ok or private.has_verified_factor (the one way the rule is written,
// 20261124000300_staff_two_factor.sql), or be on NO_POWER below with the reason it grants nothing.
// So a new helper that hands out staff or super-admin power from user_roles, and forgets that an aal1
// session of an account with a verified factor has none, fails here before it ships. Policies must not
// read user_roles themselves: they go through the helpers.
import { describe, expect, it } from 'vitest';
import type { Sql } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';

const backend = useBackend();

/** Functions that name roles and grant no power, each with why. Everything else that names roles takes the rule. */
const NO_POWER: Record<string, string> = {
  // Whether an account (any account, not the caller) holds a role: students are the accounts without one.
  // It narrows whom staff manage (profiles_update) and whom lists count; it must not depend on the
  // caller's session.
  'private.has_any_role': 'reports a role of another account, for lists; grants nothing',
  // At the e-mail confirmation of an account granted something while unconfirmed: takes its earlier
  // password away.
  'private.granted_while_unconfirmed': 'takes away (a password), grants nothing',
  // Picks who is told that a comment waits for approval (the school's staff); the caller gets nothing.
  'private.notify_pending': 'chooses the recipients of a notification',
  // Leave staff accounts out of the students' counts. The caller's power is asked of is_school_staff
  // (directly, or through private.staff_school / private.chart_course_school / the admin_report_* RPCs).
  'private.report_students': 'leaves staff out of a student list; power is is_school_staff',
  'public.admin_dashboard_counts': 'leaves staff out of a student count; power is is_school_staff',
  'public.admin_chart_new_students': 'leaves staff out of a student count; power is is_school_staff',
  'public.admin_chart_active_students': 'leaves staff out of a student count; power is is_school_staff',
  'public.admin_chart_lessons_completed': 'leaves staff out of a student count; power is is_school_staff',
  'public.admin_chart_course_funnel': 'leaves staff out of a student count; power is is_school_staff',
  'public.admin_chart_video_retention': 'leaves staff out of a student count; power is is_school_staff',
  // Leaves staff out of the ranking and gives them no position of their own; power is is_school_staff.
  'public.school_ranking': 'leaves staff out of the ranking; power is is_school_staff',
  // A guard that only refuses: changing require_staff_mfa needs schools_update first (staff_school_ids /
  // is_super_admin, which hold the rule), and this trigger then demands aal2 whatever the account.
  'private.schools_guard_staff_mfa': 'refuses only, and demands aal2 outright',
};

const NAMES_ROLES = /\buser_roles\b|'(SUPER_ADMIN|SCHOOL_ADMIN|INSTRUCTOR|STAFF)'/;
const ASKS_SECOND_FACTOR = /\bprivate\.(second_factor_ok|has_verified_factor)\s*\(/;
/** Line comments out: a comment naming a table or the helper is neither a use nor a check. */
const code = (body: string) => body.replace(/--[^\n]*/g, '');

/** Every function of public, private and storage whose body names roles, with whether it asks the second factor. */
async function roleFunctions(db: Sql): Promise<{ name: string; asksSecondFactor: boolean }[]> {
  const { rows } = await db.query<{ name: string; body: string }>(
    `select n.nspname || '.' || p.proname as name,
            case when p.prosqlbody is null then p.prosrc else pg_get_functiondef(p.oid) end as body
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private', 'storage') and p.prokind in ('f', 'p')
      order by 1`,
  );
  return rows
    .filter((r) => NAMES_ROLES.test(code(r.body)))
    .map((r) => ({ name: r.name, asksSecondFactor: ASKS_SECOND_FACTOR.test(code(r.body)) }));
}

/** The functions that name roles, ask no second factor and are not on NO_POWER. */
async function forgetful(db: Sql): Promise<string[]> {
  return [...new Set((await roleFunctions(db)).filter((f) => !f.asksSecondFactor && !(f.name in NO_POWER)).map((f) => f.name))];
}

describe('role helpers and the second factor (catalog)', () => {
  it('every function that names roles asks the second factor, or grants no power (NO_POWER)', async () => {
    const db = backend.server.ctx.engine;
    expect(await forgetful(db)).toEqual([]);
    // The helpers that hand out power are among those that ask.
    const asking = (await roleFunctions(db)).filter((f) => f.asksSecondFactor).map((f) => f.name);
    expect(asking).toEqual(
      expect.arrayContaining(['private.is_super_admin', 'private.is_school_staff', 'private.staff_school_ids', 'private.staff_role_at']),
    );
  });

  it('NO_POWER names only functions that exist and name roles without asking (no stale excuse)', async () => {
    const functions = await roleFunctions(backend.server.ctx.engine);
    for (const name of Object.keys(NO_POWER)) {
      expect(functions.filter((f) => f.name === name), name).toEqual([{ name, asksSecondFactor: false }]);
    }
  });

  it('no policy reads user_roles or a role name itself: they go through the helpers', async () => {
    const { rows } = await backend.server.ctx.engine.query<{ policy: string; expr: string }>(
      `select schemaname || '.' || tablename || '.' || policyname as policy, coalesce(qual, '') || ' ' || coalesce(with_check, '') as expr
         from pg_policies where schemaname in ('public', 'private', 'storage')`,
    );
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.filter((r) => NAMES_ROLES.test(r.expr)).map((r) => r.policy)).toEqual([]);
  });

  it('catches a helper that forgets the rule: is_super_admin as it was before issue 37', async () => {
    const rollback = new Error('rollback');
    const caught = await backend.server.ctx.engine
      .transaction(async (tx) => {
        await tx.query(`
          create or replace function private.is_super_admin() returns boolean
          language sql stable security definer set search_path = '' as $$
            select exists (
              select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
              where r.user_id = auth.uid() and p.is_active and r.role = 'SUPER_ADMIN'
            )
          $$`);
        expect(await forgetful(tx)).toEqual(['private.is_super_admin']);
        throw rollback;
      })
      .catch((e: unknown) => e);
    expect(caught).toBe(rollback);
    expect(await forgetful(backend.server.ctx.engine)).toEqual([]);
  });
});
