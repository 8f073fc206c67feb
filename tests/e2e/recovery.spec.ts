// Issue 41 "Done when", in Chromium: a student opens a checkout with BEMVINDO20 and leaves; an hour after
// the abandonment the first e-mail arrives in the local inbox (the test clock: the session's opened_at written
// 2 h 5 min back by the service role, since the payment below happens on the server's real clock)
// and its "Retomar minha compra" link reopens the checkout with the coupon; paying on the fake Asaas
// stops the sequence, and Recuperação counts the sale as recovered with its value. Plus the attack:
// another school's admin asks for this school's sessions and numbers over the API and gets nothing.
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config';
import { expect, inbox, test } from './helpers';
import { COURSE, SCHOOL_ID, api, freshSchoolAdmin, freshStudent, passwordSession, signInAs } from './learning-helpers';

const ASAAS_PORT = Number(process.env.E2E_ASAAS_PORT || 54339);
const MARKETING = 'Marketing Digital para Pequenos Negócios';

test.describe.configure({ timeout: 120_000 });

const service = (path: string, init: RequestInit = {}) => api(path, { key: LOCAL_SERVICE_ROLE_KEY, ...init });
const rpc = (name: string, body: unknown, token?: string) =>
  api(`/rest/v1/rpc/${name}`, {
    method: 'POST',
    body: JSON.stringify(body),
    ...(token ? { token } : { key: LOCAL_SERVICE_ROLE_KEY }),
  });
/** The scheduled recovery run (pg_cron's, now; or at a later moment of the test clock). */
const run = (at?: Date) => rpc('run_checkout_recovery', at ? { p_now: at.toISOString() } : {});
const sessionsOf = (userId: string) =>
  service(
    `/rest/v1/checkout_sessions?select=id,outcome,coupon_code,paid_value,touches_sent&user_id=eq.${userId}&order=opened_at`,
  );
const recoveryEmails = (userId: string) =>
  service(`/rest/v1/email_outbox?select=id,status&kind=eq.checkout_recovery&user_id=eq.${userId}`);

test('an abandoned checkout with BEMVINDO20: the e-mail an hour later reopens it, paying stops the sequence and Recuperação counts it', async ({
  page,
}) => {
  const buyer = await freshStudent('Bruna Recuperada', { enrollIn: [] });
  await signInAs(page, buyer.email);
  await page.goto('/checkout/marketing-digital?cupom=BEMVINDO20');
  const summary = page.getByRole('complementary', { name: 'Resumo do pedido' });
  await expect(summary.getByText('Cupom BEMVINDO20 aplicado')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pagar R$ 237,60' })).toBeVisible();
  // The page recorded the session with the coupon; the buyer leaves.
  await expect
    .poll(async () => (await sessionsOf(buyer.id)).map((s: { coupon_code: string }) => s.coupon_code))
    .toEqual(['BEMVINDO20']);
  const [session] = await sessionsOf(buyer.id);
  await page.goto('/');

  // No charge an hour after opening: abandoned (65 min ago). An hour after that: the first e-mail, through the outbox.
  await service(`/rest/v1/checkout_sessions?id=eq.${session.id}`, {
    method: 'PATCH',
    body: JSON.stringify({ opened_at: new Date(Date.now() - 125 * 60_000).toISOString() }),
  });
  await run();
  await run();
  expect((await sessionsOf(buyer.id))[0]).toMatchObject({ outcome: 'abandoned', touches_sent: 1 });
  let link = '';
  await expect
    .poll(
      async () => {
        // The outbox's sender, as pg_cron calls it (again while the message waits: the scheduled run may hold the
        // claim, or other journeys' messages may fill a batch).
        await api('/functions/v1/send-emails', {
          method: 'POST',
          key: LOCAL_SERVICE_ROLE_KEY,
          body: JSON.stringify({ limit: 200 }),
        });
        const message = (await inbox(buyer.email)).find((m) => m.links.some((l) => l.includes('?retomar=')));
        link = message?.links.find((l) => l.includes('?retomar=')) ?? '';
        return link;
      },
      { timeout: 20_000 },
    )
    .toContain(`/checkout/marketing-digital?retomar=${session.id}`);

  // The link reopens the checkout with the coupon; the buyer pays by PIX on Asaas's page.
  await page.goto(link);
  await expect(summary.getByText('Cupom BEMVINDO20 aplicado')).toBeVisible();
  await page.getByLabel('CPF').fill('390.533.447-05');
  await page.getByLabel('Telefone').fill('(21) 99876-5432');
  await page.getByRole('button', { name: 'Pagar R$ 237,60' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));

  // Paid with its value, and the sequence stops: a run a day later writes nothing more.
  await expect
    .poll(async () => (await sessionsOf(buyer.id)).find((s: { id: string }) => s.id === session.id)?.outcome)
    .toBe('paid');
  expect(Number((await sessionsOf(buyer.id)).find((s: { id: string }) => s.id === session.id).paid_value)).toBe(237.6);
  // The reopened checkout continued the abandoned session: one session for the purchase, not a second one.
  expect(await sessionsOf(buyer.id)).toHaveLength(1);
  await run(new Date(Date.now() + 26 * 3600_000));
  expect(await recoveryEmails(buyer.id)).toHaveLength(1);

  // Recuperação, as the school's admin: the sale is counted as recovered, with its value.
  const admin = await freshSchoolAdmin('Admin Recuperação');
  const { access_token } = await passwordSession(admin.email);
  const rows = (await rpc('admin_checkout_sessions', { p_school_id: SCHOOL_ID, p_limit: 500 }, access_token)) as {
    id: string;
    recovered: boolean;
    paid_value: number;
  }[];
  expect(rows.find((r) => r.id === session.id)).toMatchObject({ recovered: true, paid_value: 237.6 });
  const totals = (await rpc('admin_recovery_totals', { p_school_id: SCHOOL_ID }, access_token)) as {
    recovered: number;
    recovered_revenue: number;
  };
  expect(totals.recovered).toBeGreaterThanOrEqual(1);
  expect(totals.recovered_revenue).toBeGreaterThanOrEqual(237.6);

  const staff = await page.context().browser()!.newPage();
  await signInAs(staff, admin.email);
  await staff.goto('/admin/recovery?etapa=paid');
  // One card for the purchase: the abandoned session, continued by the link and paid, is the recovered sale.
  const card = staff.getByRole('listitem').filter({ has: staff.getByRole('heading', { name: 'Bruna Recuperada' }) });
  await expect(card).toHaveCount(1);
  await expect(card.getByText('Recuperado')).toBeVisible();
  await expect(card.getByText('R$ 237,60')).toBeVisible();
  await expect(card.getByText(MARKETING)).toBeVisible();
  await expect(staff.getByLabel('Receita recuperada')).not.toHaveText('R$ 0,00');
  await staff.close();
});

test("another school's admin sees nothing of this school in Recuperação (over the API); this school's admin does", async () => {
  const buyer = await freshStudent('Caio Abandono', { enrollIn: [] });
  const { access_token: buyerToken } = await passwordSession(buyer.email);
  const sessionId = (await rpc('open_checkout_session', { p_course_id: COURSE.marketing }, buyerToken)) as string;
  expect(sessionId).toBeTruthy();

  const { access_token: rival } = await passwordSession('admin@academia-rival.com.br');
  // Asking for this school: refused; asking for its own school: none of this school's sessions.
  await expect(rpc('admin_checkout_sessions', { p_school_id: SCHOOL_ID }, rival)).rejects.toThrow(/42501|not allowed/);
  await expect(rpc('admin_recovery_totals', { p_school_id: SCHOOL_ID }, rival)).rejects.toThrow(/42501|not allowed/);
  const own = (await rpc(
    'admin_checkout_sessions',
    { p_school_id: '5c000000-0000-4000-8000-000000000002', p_limit: 500 },
    rival,
  )) as { id: string }[];
  expect(own.map((r) => r.id)).not.toContain(sessionId);
  // Nor through the table, nor by contacting or stopping the lead.
  expect(await api(`/rest/v1/checkout_sessions?select=id&id=eq.${sessionId}`, { token: rival })).toEqual([]);
  await expect(
    rpc('set_checkout_do_not_contact', { p_session_id: sessionId, p_do_not_contact: true }, rival),
  ).rejects.toThrow();
  expect((await service(`/rest/v1/checkout_sessions?select=do_not_contact&id=eq.${sessionId}`))[0].do_not_contact).toBe(
    false,
  );

  // Control: this school's admin sees the session.
  const admin = await freshSchoolAdmin('Admin Controle');
  const { access_token } = await passwordSession(admin.email);
  const rows = (await rpc('admin_checkout_sessions', { p_school_id: SCHOOL_ID, p_limit: 500 }, access_token)) as {
    id: string;
    buyer_name: string;
  }[];
  expect(rows.find((r) => r.id === sessionId)).toMatchObject({ buyer_name: 'Caio Abandono' });
});

test("a plan's checkout left unpaid: the e-mail names the plan, its link reopens the plan's checkout, subscribing makes that one session paid and Recuperação lists it by the plan's name", async ({
  page,
}) => {
  const tag = Math.random().toString(36).slice(2, 7);
  const name = `Plano Recupera ${tag}`;
  const [plan] = await service('/rest/v1/plans', {
    method: 'POST',
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify({
      school_id: SCHOOL_ID,
      slug: `plano-rec-${tag}`,
      name,
      cycle: 'MONTHLY',
      price: 49.9,
      billing_types: ['CREDIT_CARD', 'PIX'],
    }),
  });
  await service('/rest/v1/plan_courses', {
    method: 'POST',
    body: JSON.stringify({ plan_id: plan.id, course_id: COURSE.marketing }),
  });
  const buyer = await freshStudent(`Pedro Assinatura ${tag}`, { enrollIn: [] });
  const planSessions = () =>
    service(
      `/rest/v1/checkout_sessions?select=id,outcome,paid_value,touches_sent&user_id=eq.${buyer.id}&plan_id=eq.${plan.id}`,
    );

  // The buyer opens the plan's checkout (the page records the session) and leaves.
  await signInAs(page, buyer.email);
  await page.goto(`/checkout/plano/plano-rec-${tag}`);
  await expect(page.getByRole('heading', { name: `Assinar ${name}` })).toBeVisible();
  await expect.poll(async () => (await planSessions()).length).toBe(1);
  const [session] = await planSessions();
  await page.goto('/');
  await service(`/rest/v1/checkout_sessions?id=eq.${session.id}`, {
    method: 'PATCH',
    body: JSON.stringify({ opened_at: new Date(Date.now() - 125 * 60_000).toISOString() }),
  });
  await run();
  await run();
  expect((await planSessions())[0]).toMatchObject({ outcome: 'abandoned', touches_sent: 1 });

  // The e-mail names the plan and its price per month; its link reopens the plan's checkout.
  let mail: { subject: string; text: string; links: string[] } | undefined;
  let link = '';
  await expect
    .poll(
      async () => {
        await api('/functions/v1/send-emails', {
          method: 'POST',
          key: LOCAL_SERVICE_ROLE_KEY,
          body: JSON.stringify({ limit: 200 }),
        });
        mail = (await inbox(buyer.email)).find((m) => m.subject === `Sua assinatura está esperando: ${name}`);
        link = mail?.links.find((l) => l.includes('?retomar=')) ?? '';
        return link;
      },
      { timeout: 20_000 },
    )
    .toContain(`/checkout/plano/plano-rec-${tag}?retomar=${session.id}`);
  expect(mail!.text).toMatch(/Valor: R\$\s49,90 por mês/);

  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Assinar ${name}` })).toBeVisible();
  await page.getByLabel('CPF').fill('390.533.447-05');
  await page.getByLabel('Telefone').fill('(21) 99876-5432');
  await page.getByRole('button', { name: 'Cartão' }).click();
  await page.getByLabel('Nome impresso no cartão').fill('PEDRO ASSINATURA');
  await page.getByLabel('Número do cartão').fill('5162306219378829');
  await page.getByLabel('Mês').fill('05');
  await page.getByLabel('Ano').fill('2031');
  await page.getByLabel('CVV').fill('318');
  await page.getByLabel('CEP do titular').fill('01310100');
  await page.getByLabel('Número do endereço').fill('1000');
  await page.getByRole('button', { name: 'Assinar por R$ 49,90/mês' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/`));

  // One session for the purchase, paid with the plan's price. The payment arrives through the fake Asaas's
  // webhook, after the redirect: on a loaded machine that takes longer than the default 7 s.
  await expect
    .poll(async () => (await planSessions()).map((s: { outcome: string }) => s.outcome), { timeout: 20_000 })
    .toEqual(['paid']);
  expect(Number((await planSessions())[0].paid_value)).toBe(49.9);

  const admin = await freshSchoolAdmin('Admin Planos');
  const staff = await page.context().browser()!.newPage();
  await signInAs(staff, admin.email);
  await staff.goto('/admin/recovery?etapa=paid');
  const card = staff
    .getByRole('listitem')
    .filter({ has: staff.getByRole('heading', { name: `Pedro Assinatura ${tag}` }) });
  await expect(card).toHaveCount(1);
  await expect(card.getByText(name)).toBeVisible();
  await expect(card.getByText('Assinatura', { exact: true })).toBeVisible();
  await expect(card.getByText('Recuperado')).toBeVisible();
  await expect(card.getByText('R$ 49,90')).toBeVisible();
  await staff.close();
});
