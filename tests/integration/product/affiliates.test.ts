// Issue 43, afiliados e coprodução, in the database: the program and co-producers (staff), applying and the staff's
// decision, the wallet no one but the service role writes, clicks, attribution at sign-in, the commissions of a
// checkout (create_checkout_payment, as create-asaas-charge calls it, then checkout_commissions) and the ledger
// following the payment and the split's events. Attacks by their effect in the database, each beside a control:
// self-commission, a click past the window, a blocked affiliate, concurrent purchases, reading another's ledger,
// approving oneself, changing a wallet, a forged split event. The charge at the fake Asaas: affiliates-checkout.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL, USER } from '../rls/seed.ts';

const INTEGRATION = 'ee000000-0000-4000-8000-000000000001';
const DAY = 86_400_000;
const AFFILIATE_WALLET = '0b763922-aa88-4cbe-a567-e3fe8511fa06';
const COPRODUCER_WALLET = '48548710-9baa-4ec1-a11f-9010193527c6';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const rival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno'); // the affiliate
const aluna = backend.signedIn('aluna'); // the buyer
const novo = backend.signedIn('pausado'); // another student

let affiliateId = '';
let code = '';

/** A checkout as create-asaas-charge makes it: priced and recorded by the database, then its commissions. */
async function checkout(userId: string, o: { coupon?: string; course?: string } = {}) {
  const { data: payment, error } = await service
    .rpc('create_checkout_payment', {
      p_user_id: userId,
      p_course_id: o.course ?? COURSE.marketing,
      p_coupon_code: o.coupon ?? null,
      p_with_bump: false,
      p_billing_type: 'PIX',
      p_installment_count: 1,
      p_environment: 'sandbox',
      p_integration_id: INTEGRATION,
    })
    .single<{ id: string; value: number }>();
  if (error) throw new Error(error.message);
  const { data: split, error: splitError } = await service.rpc('checkout_commissions', { p_payment_id: payment!.id });
  if (splitError) throw new Error(splitError.message);
  return { id: payment!.id, value: Number(payment!.value), split: split as { kind: string; wallet_id: string; value: number }[] };
}

async function ledger(paymentId: string) {
  return backend.sql<{ kind: string; value: string; status: string; affiliate_id: string | null; split_status: string | null }>(
    `select kind, value::text, status, affiliate_id, split_status from public.commissions where payment_id = $1 order by kind`,
    [paymentId],
  );
}

async function attributeTo(client: SupabaseClient, clickedAt = new Date()) {
  const { data, error } = await client.rpc('attach_affiliate_attribution', { p_code: code, p_clicked_at: clickedAt.toISOString() });
  if (error) throw new Error(error.message);
  return data as boolean;
}

async function affiliateRow() {
  const [row] = await backend.sql<{ status: string; wallet_id: string | null; decided_by: string | null }>(
    `select status, wallet_id, decided_by from public.affiliates where id = $1`,
    [affiliateId],
  );
  return row!;
}

beforeAll(async () => {
  // From a school without the seed's demo program (the demo's affiliate and co-producer on Marketing).
  await backend.sql(`delete from public.affiliates where school_id = $1`, [SCHOOL.demo]);
  await backend.sql(`delete from public.affiliate_programs where course_id = $1`, [COURSE.marketing]);
  await backend.sql(`delete from public.course_coproducers where course_id = $1`, [COURSE.marketing]);
  const program = await admin.from('affiliate_programs').insert({ course_id: COURSE.marketing, school_id: SCHOOL.demo, enabled: true, commission_percent: 30, approval: 'manual' });
  expect(program.error).toBeNull();
  const co = await admin.from('course_coproducers').insert({ course_id: COURSE.marketing, school_id: SCHOOL.demo, name: 'Prof. Coprodutora', wallet_id: COPRODUCER_WALLET, percent: 10 });
  expect(co.error).toBeNull();
});

describe('the program and applying', () => {
  it('a student applies ("Quero ser afiliado") and waits for staff on a manual program', async () => {
    const { data, error } = await aluno.rpc('apply_as_affiliate', { p_course_id: COURSE.marketing });
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: 'pending', user_id: USER.aluno, school_id: SCHOOL.demo });
    affiliateId = (data as { id: string }).id;
    code = (data as { code: string }).code;
    expect(code).toMatch(/^[a-z0-9]{8}$/);
  });

  it('attack: the applicant approves themselves (RPC or REST); another school\'s staff approve; control: the school\'s staff do', async () => {
    const self = await aluno.rpc('decide_affiliate', { p_affiliate_id: affiliateId, p_status: 'approved' });
    expect(self.error?.code).toBe('42501');
    const rest = await aluno.from('affiliates').update({ status: 'approved' }).eq('id', affiliateId).select();
    expect(rest.data ?? []).toEqual([]);
    const other = await rival.rpc('decide_affiliate', { p_affiliate_id: affiliateId, p_status: 'approved' });
    expect(other.error?.code).toBe('42501');
    expect((await affiliateRow()).status).toBe('pending');

    const ok = await admin.rpc('decide_affiliate', { p_affiliate_id: affiliateId, p_status: 'approved' });
    expect(ok.error).toBeNull();
    expect(await affiliateRow()).toMatchObject({ status: 'approved', decided_by: USER.adminDemo });
  });

  it('attack: the affiliate or anyone else writes a wallet id (REST or RPC); control: the service role (affiliate-wallet) does', async () => {
    const rest = await aluno.from('affiliates').update({ wallet_id: AFFILIATE_WALLET }).eq('id', affiliateId).select();
    expect(rest.data ?? []).toEqual([]);
    const byStaff = await admin.from('affiliates').update({ wallet_id: COPRODUCER_WALLET }).eq('id', affiliateId).select();
    expect(byStaff.data ?? []).toEqual([]);
    const rpc = await aluno.rpc('set_affiliate_wallet', { p_user_id: USER.aluno, p_wallet_id: AFFILIATE_WALLET });
    expect(rpc.error).not.toBeNull();
    expect((await affiliateRow()).wallet_id).toBeNull();

    const ok = await service.rpc('set_affiliate_wallet', { p_user_id: USER.aluno, p_wallet_id: AFFILIATE_WALLET });
    expect(ok.error).toBeNull();
    expect((await affiliateRow()).wallet_id).toBe(AFFILIATE_WALLET);
  });

  it('staff cannot make the course\'s shares pass 80% of the amount paid (commission + co-producers)', async () => {
    const tooMuch = await admin.from('affiliate_programs').update({ commission_percent: 75 }).eq('course_id', COURSE.marketing).select();
    expect(tooMuch.error?.message).toMatch(/80%/);
    const [row] = await backend.sql<{ commission_percent: string }>(`select commission_percent::text from public.affiliate_programs where course_id = $1`, [COURSE.marketing]);
    expect(row!.commission_percent).toBe('30.00');
    const ok = await admin.from('affiliate_programs').update({ commission_percent: 70 }).eq('course_id', COURSE.marketing).select();
    expect(ok.error).toBeNull();
    await admin.from('affiliate_programs').update({ commission_percent: 30 }).eq('course_id', COURSE.marketing);
  });

  it('another school\'s staff neither read nor write the program or the co-producers', async () => {
    expect((await rival.from('affiliate_programs').select('course_id')).data).toEqual([]);
    expect((await rival.from('course_coproducers').select('id')).data).toEqual([]);
    const write = await rival.from('affiliate_programs').update({ commission_percent: 1 }).eq('course_id', COURSE.marketing).select();
    expect(write.data ?? []).toEqual([]);
    expect((await admin.from('affiliate_programs').select('commission_percent').eq('course_id', COURSE.marketing).single()).data).toEqual({ commission_percent: 30 });
  });
});

describe('clicks and attribution', () => {
  it('a visitor\'s click is counted per affiliate, course and day, without who; an unknown code counts nothing', async () => {
    const visitor = backend.anon();
    expect((await visitor.rpc('record_affiliate_click', { p_course_id: COURSE.marketing, p_code: code })).data).toBe(true);
    expect((await visitor.rpc('record_affiliate_click', { p_course_id: COURSE.marketing, p_code: code })).data).toBe(true);
    expect((await visitor.rpc('record_affiliate_click', { p_course_id: COURSE.marketing, p_code: 'zzzzzzzz' })).data).toBe(false);
    expect((await visitor.rpc('record_affiliate_click', { p_course_id: COURSE.excel, p_code: code })).data).toBe(false);
    const rows = await backend.sql(`select course_id, clicks from public.affiliate_clicks where affiliate_id = $1`, [affiliateId]);
    expect(rows).toEqual([{ course_id: COURSE.marketing, clicks: 2 }]);
  });

  it('a flood of clicks stops counting at 10,000 a day per link', async () => {
    await backend.sql(`update public.affiliate_clicks set clicks = 9999 where affiliate_id = $1`, [affiliateId]);
    await backend.anon().rpc('record_affiliate_click', { p_course_id: COURSE.marketing, p_code: code });
    await backend.anon().rpc('record_affiliate_click', { p_course_id: COURSE.marketing, p_code: code });
    expect(await backend.sql(`select clicks from public.affiliate_clicks where affiliate_id = $1`, [affiliateId])).toEqual([{ clicks: 10000 }]);
  });

  it('attack: the affiliate attributes themselves; control: a visitor who signs in is attributed', async () => {
    expect(await attributeTo(aluno)).toBe(false);
    expect(await backend.sql(`select 1 from public.affiliate_attributions where user_id = $1`, [USER.aluno])).toEqual([]);
    expect(await attributeTo(aluna)).toBe(true);
    expect(await backend.sql(`select affiliate_id from public.affiliate_attributions where user_id = $1`, [USER.aluna])).toEqual([{ affiliate_id: affiliateId }]);
  });

  it('a click time from the future is taken as now', async () => {
    expect(await attributeTo(aluna, new Date(Date.now() + 400 * DAY))).toBe(true);
    const [row] = await backend.sql<{ ahead: boolean }>(`select clicked_at > now() + interval '1 minute' as ahead from public.affiliate_attributions where user_id = $1`, [USER.aluna]);
    expect(row!.ahead).toBe(false);
  });
});

describe('the commissions of a checkout', () => {
  it('the affiliate\'s and the co-producer\'s shares are percentages of the amount paid after the coupon, rounded down', async () => {
    await attributeTo(aluna);
    const [course] = await backend.sql<{ price: string }>(`select price::text from public.courses where id = $1`, [COURSE.marketing]);
    const price = Number(course!.price);
    const paid = Math.round(price * 100 * 0.8) / 100; // BEMVINDO20
    const sale = await checkout(USER.aluna, { coupon: 'BEMVINDO20' });
    expect(sale.value).toBe(paid);
    const cents = (pct: number) => Math.floor(Math.round(paid * 100) * pct / 100) / 100;
    expect(sale.split.map((s) => ({ ...s, value: Number(s.value) }))).toEqual([
      { kind: 'affiliate', wallet_id: AFFILIATE_WALLET, value: cents(30) },
      { kind: 'coproducer', wallet_id: COPRODUCER_WALLET, value: cents(10) },
    ]);
    expect((await ledger(sale.id)).map((r) => r.status)).toEqual(['pending', 'pending']);
    // Asked again (a retried charge), the same shares and no new rows.
    const again = await service.rpc('checkout_commissions', { p_payment_id: sale.id });
    expect((again.data as unknown[]).length).toBe(2);
    expect((await ledger(sale.id)).length).toBe(2);
  });

  it('attack: the affiliate buys with their own code (even an attribution written by hand); control: the co-producer is still paid', async () => {
    await backend.sql(
      `insert into public.affiliate_attributions (user_id, school_id, affiliate_id, clicked_at) values ($1, $2, $3, now())
       on conflict (user_id) do update set affiliate_id = excluded.affiliate_id, clicked_at = now()`,
      [USER.aluno, SCHOOL.demo, affiliateId],
    );
    const sale = await checkout(USER.aluno);
    expect((await ledger(sale.id)).map((r) => r.kind)).toEqual(['coproducer']);
  });

  it('attack: a purchase after the window (61 days, window 60); control: one within it (59 days)', async () => {
    await backend.sql(`update public.affiliate_attributions set clicked_at = now() - interval '61 days' where user_id = $1`, [USER.aluna]);
    const late = await checkout(USER.aluna);
    expect((await ledger(late.id)).map((r) => r.kind)).toEqual(['coproducer']);
    await backend.sql(`update public.affiliate_attributions set clicked_at = now() - interval '59 days' where user_id = $1`, [USER.aluna]);
    const within = await checkout(USER.aluna);
    expect((await ledger(within.id)).map((r) => r.kind)).toEqual(['affiliate', 'coproducer']);
  });

  it('attack: a blocked affiliate\'s attribution pays nothing, and their clicks stop counting; control: approved again, it pays', async () => {
    expect((await admin.rpc('decide_affiliate', { p_affiliate_id: affiliateId, p_status: 'blocked' })).error).toBeNull();
    expect(await attributeTo(novo)).toBe(false); // a blocked code attributes no one
    await backend.sql(`update public.affiliate_attributions set clicked_at = now() where user_id = $1`, [USER.aluna]);
    const blocked = await checkout(USER.aluna);
    expect((await ledger(blocked.id)).map((r) => r.kind)).toEqual(['coproducer']);
    expect((await backend.anon().rpc('record_affiliate_click', { p_course_id: COURSE.marketing, p_code: code })).data).toBe(false);

    expect((await admin.rpc('decide_affiliate', { p_affiliate_id: affiliateId, p_status: 'approved' })).error).toBeNull();
    const approved = await checkout(USER.aluna);
    expect((await ledger(approved.id)).map((r) => r.kind)).toEqual(['affiliate', 'coproducer']);
  });

  it('concurrent purchases each get exactly one affiliate share, and concurrent calls for one payment write it once', async () => {
    const sales = await Promise.all([checkout(USER.aluna), checkout(USER.aluna), checkout(USER.aluna)]);
    for (const sale of sales) expect((await ledger(sale.id)).filter((r) => r.kind === 'affiliate').length).toBe(1);
    const one = await checkout(USER.aluna);
    await Promise.all([1, 2, 3].map(() => service.rpc('checkout_commissions', { p_payment_id: one.id })));
    expect((await ledger(one.id)).length).toBe(2);
  });
});

describe('the ledger follows the payment and the split', () => {
  it('paid: confirmed; the split settled (PAYMENT_SPLIT_DONE): available; refunded: reversed', async () => {
    const sale = await checkout(USER.aluna);
    await backend.sql(`update public.payments set provider_payment_id = $2 where id = $1`, [sale.id, `pay_aff_${sale.id.slice(0, 8)}`]);
    const recorded = await service.rpc('record_commission_splits', {
      p_payment_id: sale.id,
      p_splits: [
        { id: `split-a-${sale.id}`, walletId: AFFILIATE_WALLET, status: 'PENDING' },
        { id: `split-c-${sale.id}`, walletId: COPRODUCER_WALLET, status: 'PENDING' },
      ],
    });
    expect(recorded.data).toBe(2);
    await backend.sql(`update public.payments set status = 'RECEIVED', paid_at = now() where id = $1`, [sale.id]);
    expect((await ledger(sale.id)).map((r) => r.status)).toEqual(['confirmed', 'confirmed']);

    const done = await service.rpc('apply_split_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt-done-${sale.id}`, p_event: 'PAYMENT_SPLIT_DONE',
      p_provider_payment_id: `pay_aff_${sale.id.slice(0, 8)}`, p_splits: null, p_split_id: `split-a-${sale.id}`,
    });
    expect(done.error).toBeNull();
    expect(done.data).toBe('split_updated');
    expect((await ledger(sale.id)).map((r) => [r.kind, r.status, r.split_status])).toEqual([
      ['affiliate', 'available', 'DONE'],
      ['coproducer', 'confirmed', 'PENDING'],
    ]);

    await backend.sql(`update public.payments set status = 'REFUNDED' where id = $1`, [sale.id]);
    expect((await ledger(sale.id)).map((r) => r.status)).toEqual(['reversed', 'reversed']);
  });

  it('attack: a split event naming a split we never made, another school\'s payment, or a repeated event id changes nothing; control above', async () => {
    const sale = await checkout(USER.aluna);
    const asaasId = `pay_aff_${sale.id.slice(0, 8)}`;
    await backend.sql(`update public.payments set provider_payment_id = $2, status = 'RECEIVED' where id = $1`, [sale.id, asaasId]);
    await service.rpc('record_commission_splits', { p_payment_id: sale.id, p_splits: [{ id: `split-x-${sale.id}`, walletId: AFFILIATE_WALLET }] });
    const before = await ledger(sale.id);

    const forged = await service.rpc('apply_split_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt-forged-${sale.id}`, p_event: 'PAYMENT_SPLIT_CANCELLED',
      p_provider_payment_id: asaasId, p_splits: [{ id: 'split-not-ours', walletId: AFFILIATE_WALLET, status: 'CANCELLED' }], p_split_id: null,
    });
    expect(forged.data).toBe('mismatch');
    const otherSchool = await service.rpc('apply_split_event', {
      p_school_id: SCHOOL.rival, p_event_id: `evt-rival-${sale.id}`, p_event: 'PAYMENT_SPLIT_CANCELLED',
      p_provider_payment_id: asaasId, p_splits: [{ id: `split-x-${sale.id}`, status: 'CANCELLED' }], p_split_id: null,
    });
    expect(otherSchool.data).toBe('mismatch');
    expect(await ledger(sale.id)).toEqual(before);
    // Nobody but the service role applies a split event.
    const byStaff = await admin.rpc('apply_split_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt-staff-${sale.id}`, p_event: 'PAYMENT_SPLIT_CANCELLED',
      p_provider_payment_id: asaasId, p_splits: [{ id: `split-x-${sale.id}`, status: 'CANCELLED' }], p_split_id: null,
    });
    expect(byStaff.error).not.toBeNull();
    expect(await ledger(sale.id)).toEqual(before);

    const cancelled = await service.rpc('apply_split_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt-real-${sale.id}`, p_event: 'PAYMENT_SPLIT_CANCELLED',
      p_provider_payment_id: asaasId, p_splits: [{ id: `split-x-${sale.id}`, status: 'CANCELLED' }], p_split_id: null,
    });
    expect(cancelled.data).toBe('split_updated');
    const repeated = await service.rpc('apply_split_event', {
      p_school_id: SCHOOL.demo, p_event_id: `evt-real-${sale.id}`, p_event: 'PAYMENT_SPLIT_DONE',
      p_provider_payment_id: asaasId, p_splits: null, p_split_id: `split-x-${sale.id}`,
    });
    expect(repeated.data).toBe('duplicate');
    expect((await ledger(sale.id)).find((r) => r.kind === 'affiliate')!.status).toBe('reversed');
  });
});

describe('who reads what', () => {
  it('attack: a student and another school\'s staff read an affiliate\'s ledger, clicks and list; control: the affiliate and the school\'s staff do', async () => {
    for (const client of [aluna, novo, rival]) {
      expect((await client.from('commissions').select('id').eq('affiliate_id', affiliateId)).data).toEqual([]);
      expect((await client.from('affiliate_clicks').select('clicks').eq('affiliate_id', affiliateId)).data).toEqual([]);
      expect((await client.from('affiliates').select('id').eq('id', affiliateId)).data).toEqual([]);
    }
    expect((await rival.rpc('admin_affiliates', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');
    expect((await aluna.rpc('admin_commissions', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');

    const own = await aluno.from('commissions').select('id').eq('affiliate_id', affiliateId);
    expect(own.data!.length).toBeGreaterThan(0);
    const staff = await admin.rpc('admin_affiliates', { p_status: 'approved' });
    expect(staff.data).toEqual([expect.objectContaining({ id: affiliateId, code, status: 'approved', has_wallet: true, clicks: 10000 })]);
    const rows = await admin.rpc('admin_commissions', { p_limit: 500 });
    expect((rows.data as { kind: string }[]).some((r) => r.kind === 'affiliate')).toBe(true);
  });

  it('the affiliate\'s panel: the link\'s parts, materials, clicks, sales and commissions by state; a pending applicant sees no course', async () => {
    const paid = await checkout(USER.aluna);
    await backend.sql(`update public.payments set status = 'RECEIVED', paid_at = now() where id = $1`, [paid.id]);
    await admin.from('affiliate_programs').update({ materials_text: 'Use os banners abaixo.', materials_links: [{ kind: 'link', title: 'Banners', url: 'https://exemplo.com/banners' }] }).eq('course_id', COURSE.marketing);
    const { data, error } = await aluno.rpc('affiliate_panel', {});
    expect(error).toBeNull();
    const panel = data as { affiliate: { code: string; status: string }; school_slug: string; courses: Record<string, unknown>[] };
    expect(panel.affiliate).toMatchObject({ code, status: 'approved' });
    expect(panel.courses).toHaveLength(1);
    expect(panel.courses[0]).toMatchObject({ course_id: COURSE.marketing, clicks: 10000, materials_text: 'Use os banners abaixo.' });
    expect(Number(panel.courses[0]!.sales)).toBeGreaterThan(0);
    const c = panel.courses[0]!.commissions as Record<string, number>;
    expect(Number(c.pending) + Number(c.confirmed) + Number(c.available) + Number(c.reversed)).toBeGreaterThan(0);
    expect((await aluno.rpc('affiliate_panel', { p_from: '2025-01-01', p_to: '2026-11-28' })).error?.message).toMatch(/366 dias/);

    const applied = await novo.rpc('apply_as_affiliate', { p_course_id: COURSE.marketing });
    expect(applied.data).toMatchObject({ status: 'pending' });
    const pending = await novo.rpc('affiliate_panel', {});
    expect(pending.data).toMatchObject({ affiliate: { status: 'pending' }, courses: [] });
  });
});
