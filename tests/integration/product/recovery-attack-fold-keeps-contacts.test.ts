// Issue 41, outside attack 10 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 10 (low, 009000): the reopen link folds a plain open session of the same course into the abandoned
// one by DELETING its row; checkout_session_touches cascade, so a staff contact ("Chamar no WhatsApp" /
// "Copiar link", record_checkout_staff_contact) made on that open card disappears: the staff member's touch is
// gone from the numbers (by_staff.contacted) and cannot be credited for the sale.
// Control: without the fold (the buyer resumes no link) the contact stays.
// Run (commit ff9ca6c or later): cd /work/main && DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx vitest run --config /work/briefs/attacks-41/vitest.config.mts f10
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { helpers, minutes } from './recovery-attack-helpers.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const admin = backend.signedIn('adminDemo');
const h = helpers(backend);
const staffTouches = async (buyerId: string) =>
  Number((await h.sql<{ n: string }>(`select count(*) n from public.checkout_session_touches t join public.checkout_sessions s on s.id = t.session_id
                                       where s.user_id = $1 and t.kind <> 'email'`, [buyerId]))[0]!.n);

describe('the reopen link folding a session', () => {
  it('control: a staff contact on the open card stays while nothing is folded', async () => {
    const buyer = await h.newBuyer('Sem Link');
    await h.open(buyer);
    await h.run(minutes(61));
    const open = await h.open(buyer);
    expect((await admin.rpc('record_checkout_staff_contact', { p_session_id: open, p_channel: 'whatsapp' })).error).toBeNull();
    expect(await staffTouches(buyer.id)).toBe(1);
  });

  it('ATTACK: the buyer follows the e-mail link of the older card: the staff contact on the open card is deleted', async () => {
    const buyer = await h.newBuyer('Com Link');
    const first = await h.open(buyer);
    await h.run(minutes(61));
    const open = await h.open(buyer);
    expect((await admin.rpc('record_checkout_staff_contact', { p_session_id: open, p_channel: 'whatsapp' })).error).toBeNull();
    expect(await staffTouches(buyer.id)).toBe(1);
    expect((await buyer.client.rpc('resume_checkout_session', { p_session_id: first })).error).toBeNull();
    const left = await staffTouches(buyer.id);
    console.log('staff contacts after the fold:', left, 'open row still there:', (await h.sql('select 1 from public.checkout_sessions where id = $1', [open])).length);
    expect(left).toBe(1);
  });
});
