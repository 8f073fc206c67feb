// Issue 41, outside attack 8 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 8 (low): "Period … at most 366 days" (docs/recovery.md) holds only when both bounds are given.
// admin_checkout_sessions and admin_recovery_totals check `p_to - p_from > 366` only when neither is null, so
// p_from = '1900-01-01' with no p_to (or no bounds at all) reads the school's whole history; admin_recovery_totals
// then runs private.recovery_touch_before for every paid session ever and its by_touch subqueries over all of
// them in one call (no paging). Staff only; a cost, not a leak.
// Control: the same span with both bounds is refused (22023).
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { SCHOOL } from './recovery-attack-helpers.ts';

const backend = useBackend();
const admin = backend.signedIn('adminDemo');

describe('the period cap', () => {
  it('control: 1900-01-01 to 2026-12-31 is refused', async () => {
    expect((await admin.rpc('admin_recovery_totals', { p_school_id: SCHOOL.demo, p_from: '1900-01-01', p_to: '2026-12-31' })).error?.code).toBe('22023');
  });
  it('ATTACK: 1900-01-01 with no end is accepted (the whole history in one call)', async () => {
    const open = await admin.rpc('admin_recovery_totals', { p_school_id: SCHOOL.demo, p_from: '1900-01-01', p_to: null });
    const none = await admin.rpc('admin_checkout_sessions', { p_school_id: SCHOOL.demo, p_to: '2999-12-31' });
    console.log('one-sided periods:', open.error, none.error);
    expect(open.error?.code).toBe('22023');
  });
});
