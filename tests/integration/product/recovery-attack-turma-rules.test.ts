// Issue 41, outside attack 5 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 5: open_checkout_session prices with private.guarded_checkout_price only; it skips the turma rules
// that checkout_quote and create_checkout_payment apply (issue 40, 20261128004001/004201):
//   (a) a course whose turmas are all closed or sold out ("Nenhuma turma deste curso está com inscrições
//       abertas." / "Turma esgotada.": nobody can buy it) still gets a session, it is abandoned, and the
//       recovery sequence e-mails the buyer "Retomar minha compra" for something that cannot be bought;
//   (b) a coupon limited to another turma (the quote: "Este cupom não vale para esta turma.", price without it)
//       is kept on the session with its discount: the report's value and the recovery e-mail's price and
//       coupon are a discount the checkout refuses when the buyer comes back.
// Controls: create_checkout_payment refuses (a)'s purchase and checkout_quote refuses (b)'s coupon (the rules
// that should be shared), and a course on sale with a valid coupon records what the quote says.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, INTEGRATION, SCHOOL, helpers, minutes } from './recovery-attack-helpers.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const h = helpers(backend);

describe('the session and the turma rules', () => {
  it('ATTACK (a): no turma on sale: the purchase is refused, yet the session is recorded and followed up by e-mail', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60, 1440, 4320] });
    // Excel's turmas (the seed has one open) all close their enrollment: nobody can buy the course now.
    await h.sql(`update public.turmas set enroll_from = null, enroll_until = now() - interval '1 day' where course_id = $1`, [COURSE.excel]);
    const buyer = await h.newBuyer('Sem Turma');
    const quote = await buyer.client.rpc('checkout_quote', { p_course_id: COURSE.excel, p_coupon_code: null, p_with_bump: false });
    console.log('quote turmas state:', (quote.data as { turmas?: unknown })?.turmas);
    const buy = await service.rpc('create_checkout_payment', {
      p_user_id: buyer.id, p_course_id: COURSE.excel, p_coupon_code: null, p_with_bump: false, p_billing_type: 'PIX',
      p_installment_count: 1, p_environment: 'sandbox', p_integration_id: INTEGRATION,
    });
    console.log('control, the purchase:', buy.error?.code, buy.error?.message);
    expect(buy.error).not.toBeNull(); // nobody can buy it
    const opened = await buyer.client.rpc('open_checkout_session', { p_course_id: COURSE.excel, p_coupon_code: null, p_with_bump: false });
    console.log('open_checkout_session on a closed course:', opened.data, opened.error?.message);
    await h.run(minutes(61));
    await h.sql(`update public.checkout_sessions set next_touch_at = now() - interval '1 minute' where user_id = $1 and outcome = 'abandoned'`, [buyer.id]);
    await h.run(new Date().toISOString());
    const mails = await h.sql(`select kind, status from public.email_outbox where user_id = $1 and kind = 'checkout_recovery'`, [buyer.id]);
    console.log('recovery e-mails for a course nobody can buy:', mails);
    // What should hold: no session for an offer nobody can buy (null or a refusal), so no follow-up.
    expect(await h.sql('select 1 from public.checkout_sessions where user_id = $1', [buyer.id])).toHaveLength(0);
    expect(mails).toHaveLength(0);
  });

  it('ATTACK (b): a coupon limited to another turma is kept on the session with its discount', async () => {
    const [onSale] = await h.sql<{ id: string }>(`insert into public.turmas (school_id, course_id, name, starts_on)
                 values ($1, $2, 'Turma atual', current_date) returning id`, [SCHOOL.demo, COURSE.marketing]);
    const [later] = await h.sql<{ id: string }>(`insert into public.turmas (school_id, course_id, name, starts_on, enroll_from)
                 values ($1, $2, 'Turma futura', current_date + 60, now() + interval '30 days') returning id`, [SCHOOL.demo, COURSE.marketing]);
    await h.sql(`insert into public.coupons (school_id, code, kind, amount, turma_id) values ($1, 'SOFUTURA50', 'percent', 50, $2)`, [SCHOOL.demo, later!.id]);
    expect(onSale).toBeTruthy();
    const buyer = await h.newBuyer('Cupom Turma');
    const quote = (await buyer.client.rpc('checkout_quote', { p_course_id: COURSE.marketing, p_coupon_code: 'SOFUTURA50', p_with_bump: false })).data as { total: number; coupon_error: string | null };
    console.log('control, the quote:', quote.total, quote.coupon_error);
    const id = await h.open(buyer, COURSE.marketing, 'SOFUTURA50');
    const s = await h.session(id);
    console.log('session:', s.coupon_code, s.value);
    expect(quote.coupon_error).not.toBeNull();
    expect([s.coupon_code, Number(s.value)]).toEqual([null, Number(quote.total)]);
  });

  it('control: a valid coupon on a course on sale is recorded as the quote says', async () => {
    const buyer = await h.newBuyer('Controle');
    const quote = (await buyer.client.rpc('checkout_quote', { p_course_id: COURSE.marketing, p_coupon_code: 'BEMVINDO20', p_with_bump: false })).data as { total: number };
    const s = await h.session(await h.open(buyer, COURSE.marketing, 'BEMVINDO20'));
    expect([s.coupon_code, Number(s.value)]).toEqual(['BEMVINDO20', Number(quote.total)]);
  });
});
