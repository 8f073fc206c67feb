// Issue 46, "so that this class does not return": the school's e-mails as a student reads them on a phone.
// Real messages for each kind of purchase (a course, a course with its order bump, a plan), produced by
// the functions and the fake Asaas (checkout, paying on Asaas's page, refunds) and by the outbox events,
// sent by send-emails and opened in the local inbox at 412 px: each says what was bought in its own
// words, in the school's name, without assuming the student's gender, and fits the screen. Then
// Descadastrar, from a real e-mail: opening the link changes nothing, the confirmation stops the kind,
// Desfazer restores it.
import type { Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config';
import { expect, test } from './helpers';
import { API_URL, COURSE, SCHOOL_ID, api, freshSchoolAdmin, freshStudent, passwordSession } from './learning-helpers';

const RIVAL_SCHOOL = '5c000000-0000-4000-8000-000000000002';
const RIVAL_COURSE = 'c0000000-0000-4000-8000-000000000021';
const ASAAS_URL = `http://localhost:${Number(process.env.E2E_ASAAS_PORT || 54339)}`;
const PLAN_COMPLETO = 'ab000000-0000-4000-8000-000000000001';
const MARKETING = 'Marketing Digital para Pequenos Negócios';
const EXCEL = 'Excel Essencial para o Trabalho';
const CARD = { holderName: 'MARIANA SOUZA', number: '5162306219378829', expiryMonth: '05', expiryYear: '2031', ccv: '8317' };
/** What no e-mail may say: a plan called a course, a bump's "A + B", a word that assumes the student's gender. */
const WRONG = /curso Plano|plano Plano|\+ Excel|matriculad[oa]|bem-vind[oa]|obrigad[oa]/i;

test.describe.configure({ timeout: 120_000 });

const service = (path: string, init: RequestInit = {}) => api(path, { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' }, ...init });
const callFunction = (name: string, token: string, body: unknown) => api(`/functions/v1/${name}`, { method: 'POST', token, body: JSON.stringify(body) });
/** The scheduled send run, now. */
const sendRun = () => callFunction('send-emails', LOCAL_SERVICE_ROLE_KEY, { limit: 200 });
const subjects = async (email: string) => ((await api(`/inbox/api/messages?to=${encodeURIComponent(email)}`)) as { subject: string }[]).map((m) => m.subject);

/** Sends what is queued and waits until `expected` all reached the inbox. */
async function deliver(email: string, expected: string[]) {
  await sendRun();
  await expect.poll(() => subjects(email), { message: `e-mails to ${email}` }).toEqual(expect.arrayContaining(expected));
}

/** A new student of the demo school who has signed in (so enrollments write their e-mail), with a session. */
async function buyer(name: string) {
  const { id, email } = await freshStudent(name, { enrollIn: [] });
  return signedIn(id, email, name);
}
async function signedIn(id: string, email: string, name: string) {
  const session = await passwordSession(email);
  return { id, email, name, token: session.access_token as string };
}

const customer = (b: { name: string; email: string }) => ({ name: b.name, email: b.email, cpfCnpj: '390.533.447-05', phone: '(21) 99876-5432' });

async function checkout(b: Awaited<ReturnType<typeof buyer>>, billing: 'PIX' | 'BOLETO', withBump: boolean) {
  const charge = (await callFunction('create-asaas-charge', b.token, { course_id: COURSE.marketing, billing_type: billing, with_bump: withBump, customer: customer(b) })) as { invoiceUrl: string; payment_id: string };
  return { paymentId: charge.payment_id, asaasId: charge.invoiceUrl.split('/i/')[1]! };
}

/** What the daily job writes the day before a boleto falls due: "Lembrete de boleto" with the pending e-mail's payload. */
async function boletoReminder(b: { id: string; email: string }, paymentId: string) {
  const [pending] = await service(`/rest/v1/email_outbox?select=payload&idempotency_key=eq.payment:${paymentId}:pending`);
  await api('/rest/v1/rpc/enqueue_email', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ p_school_id: SCHOOL_ID, p_user_id: b.id, p_to: b.email, p_kind: 'payment_reminder', p_key: `payment:${paymentId}:reminder`, p_payload: pending.payload }),
  });
}

/** The buyer pays on Asaas's page ("Simular pagamento"); the confirmation reaches our webhook. */
async function payAtAsaas(asaasId: string, paymentId: string) {
  const res = await fetch(`${ASAAS_URL}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
  expect(res.status).toBe(303);
  await expect.poll(async () => (await service(`/rest/v1/payments?select=status&id=eq.${paymentId}`))[0].status).toMatch(/^(CONFIRMED|RECEIVED)$/);
}

/** Vendas → Reembolsar, by a school admin; Asaas's PAYMENT_REFUNDED follows. */
async function refund(paymentId: string) {
  const admin = await freshSchoolAdmin('Admin Reembolso');
  const { access_token } = await passwordSession(admin.email);
  await callFunction('refund-asaas-payment', access_token, { payment_id: paymentId, reason: 'Pedido do aluno' });
  await expect.poll(async () => (await service(`/rest/v1/payments?select=status&id=eq.${paymentId}`))[0].status).toBe('REFUNDED');
}

/**
 * The student's inbox at 412 px: every e-mail fits the screen, names the school (not its member area's
 * title) as sender and header, and says nothing of WRONG. Screenshots of each go to the test's output
 * folder. Returns each e-mail's text by subject. (Other journeys run on this backend at the same time: the
 * demo school's sender may be renamed "Equipe …" meanwhile, and its daily run may add a "Sentimos sua
 * falta"; so the sender must name the school, and the e-mails expected are looked for, not counted.)
 */
async function readOnPhone(page: Page, email: string, name: string, schoolId = SCHOOL_ID): Promise<Record<string, string>> {
  const [school] = await service(`/rest/v1/schools?select=name,member_area_name&id=eq.${schoolId}`);
  // Two e-mails with one subject (a boleto's and a PIX's "Pagamento pendente") are read as one text.
  await page.setViewportSize({ width: 412, height: 915 });
  await page.goto(`${API_URL}/inbox?to=${encodeURIComponent(email)}`);
  const articles = page.locator('article');
  const texts: Record<string, string> = {};
  for (let i = 0; i < (await articles.count()); i++) {
    const article = articles.nth(i);
    const subject = (await article.locator('h2').first().innerText()).trim();
    const text = await article.innerText();
    expect(text, subject).not.toMatch(WRONG);
    expect(text, subject).not.toContain(school.member_area_name);
    expect(text.match(/^De: (.*)$/m)?.[1], subject).toContain(school.name);
    // The e-mail's own header (the school's colour band) shows the school's name.
    await expect(article.locator('.body table table tr').first(), subject).toHaveText(school.name);
    const box = (await article.boundingBox())!;
    expect(box.x + box.width, `${subject} fits 412 px`).toBeLessThanOrEqual(412);
    await article.screenshot({ path: test.info().outputPath(`${name}-${String(i).padStart(2, '0')}.png`) });
    texts[subject] = texts[subject] ? `${texts[subject]}\n${text}` : text;
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
  return texts;
}

test('a course: pending boleto and PIX, reminder, receipt, enrollment and refund each say "o curso"', async ({ page }) => {
  const mariana = await buyer('Mariana Souza');
  // A boleto (its pending e-mail and the reminder), then a PIX paid and refunded (a paid boleto is not refunded here).
  const boleto = await checkout(mariana, 'BOLETO', false);
  await deliver(mariana.email, [`Pagamento pendente: ${MARKETING}`]);
  await boletoReminder(mariana, boleto.paymentId);
  await deliver(mariana.email, [`Seu boleto vence amanhã: ${MARKETING}`]);
  const pix = await checkout(mariana, 'PIX', false);
  await sendRun();
  await expect.poll(async () => (await subjects(mariana.email)).filter((s) => s === `Pagamento pendente: ${MARKETING}`)).toHaveLength(2);
  await payAtAsaas(pix.asaasId, pix.paymentId);
  await deliver(mariana.email, [`Pagamento confirmado: ${MARKETING}`, `Matrícula feita: ${MARKETING}`]);
  await refund(pix.paymentId);
  await deliver(mariana.email, [`Pagamento estornado: ${MARKETING}`]);

  const mail = await readOnPhone(page, mariana.email, 'curso');
  expect(mail[`Pagamento pendente: ${MARKETING}`]).toContain(`Seu pedido do curso ${MARKETING} está aguardando o pagamento do boleto.`);
  expect(mail[`Pagamento pendente: ${MARKETING}`]).toContain(`Seu pedido do curso ${MARKETING} está aguardando o pagamento pelo PIX.`);
  expect(mail[`Seu boleto vence amanhã: ${MARKETING}`]).toContain('Linha digitável');
  expect(mail[`Pagamento confirmado: ${MARKETING}`]).toContain(`Recebemos o seu pagamento e o curso ${MARKETING} já está liberado.`);
  expect(mail[`Pagamento confirmado: ${MARKETING}`]).toContain('Acessar o curso');
  expect(mail[`Matrícula feita: ${MARKETING}`]).toMatch(/Sua matrícula foi feita\s+Olá, Mariana!/);
  expect(mail[`Pagamento estornado: ${MARKETING}`]).toContain(`O pagamento do curso ${MARKETING} foi estornado e o seu acesso ao curso foi pausado.`);
});

test('a course with its order bump: every e-mail names both courses', async ({ page }) => {
  const joana = await buyer('Joana Prado');
  const both = `${MARKETING} e ${EXCEL}`;
  const boleto = await checkout(joana, 'BOLETO', true);
  await deliver(joana.email, [`Pagamento pendente: ${both}`]);
  await boletoReminder(joana, boleto.paymentId);
  await deliver(joana.email, [`Seu boleto vence amanhã: ${both}`]);
  const pix = await checkout(joana, 'PIX', true);
  await sendRun();
  await expect.poll(async () => (await subjects(joana.email)).filter((s) => s === `Pagamento pendente: ${both}`)).toHaveLength(2);
  await payAtAsaas(pix.asaasId, pix.paymentId);
  await deliver(joana.email, [`Pagamento confirmado: ${both}`, `Matrícula feita: ${MARKETING}`, `Matrícula feita: ${EXCEL}`]);
  await refund(pix.paymentId);
  await deliver(joana.email, [`Pagamento estornado: ${both}`]);

  const mail = await readOnPhone(page, joana.email, 'curso-e-bump');
  expect(mail[`Pagamento pendente: ${both}`]).toContain(`Seu pedido dos cursos ${both} está aguardando o pagamento do boleto. Os dois cursos são liberados assim que o banco confirmar o pagamento.`);
  expect(mail[`Pagamento pendente: ${both}`]).toContain(`Seu pedido dos cursos ${both} está aguardando o pagamento pelo PIX.`);
  expect(mail[`Pagamento pendente: ${both}`]).toMatch(new RegExp(`Cursos\\s+${both}`));
  expect(mail[`Seu boleto vence amanhã: ${both}`]).toContain(`Seu pedido dos cursos ${both}`);
  expect(mail[`Pagamento confirmado: ${both}`]).toContain(`Recebemos o seu pagamento e os cursos ${both} já estão liberados.`);
  expect(mail[`Pagamento confirmado: ${both}`]).toContain('Acessar meus cursos');
  expect(mail[`Pagamento estornado: ${both}`]).toContain(`O pagamento dos cursos ${both} foi estornado e o seu acesso aos dois cursos foi pausado.`);
});

test('a plan: "Seu Plano Completo está ativo", the member area, and each course it opens is the plan\'s', async ({ page }) => {
  const bia = await buyer('Beatriz Alves');
  await callFunction('create-asaas-subscription', bia.token, {
    plan_id: PLAN_COMPLETO,
    billing_type: 'CREDIT_CARD',
    customer: customer(bia),
    creditCard: CARD,
    creditCardHolderInfo: { ...customer(bia), postalCode: '01310-100', addressNumber: '1000' },
  });
  await expect.poll(async () => (await service(`/rest/v1/payments?select=status&user_id=eq.${bia.id}`))[0]?.status).toMatch(/^(CONFIRMED|RECEIVED)$/);
  const [invoice] = await service(`/rest/v1/payments?select=id&user_id=eq.${bia.id}`);
  await deliver(bia.email, ['Pagamento confirmado: Plano Completo', `Novo curso no seu Plano Completo: ${MARKETING}`, `Novo curso no seu Plano Completo: ${EXCEL}`]);
  await refund(invoice.id);
  await deliver(bia.email, ['Pagamento estornado: Plano Completo']);

  const mail = await readOnPhone(page, bia.email, 'plano');
  expect(mail['Pagamento confirmado: Plano Completo']).toContain('Recebemos o seu pagamento. Seu Plano Completo está ativo e os cursos dele já estão liberados na sua área de membros.');
  expect(mail['Pagamento confirmado: Plano Completo']).toContain('Ir para a área de membros');
  expect(mail['Pagamento confirmado: Plano Completo']).not.toContain('Acessar o curso');
  expect(mail[`Novo curso no seu Plano Completo: ${EXCEL}`]).toContain(`O curso ${EXCEL} faz parte do seu Plano Completo e já está na sua área de membros.`);
  expect(mail['Pagamento estornado: Plano Completo']).toContain('O pagamento da sua assinatura do Plano Completo foi estornado e o acesso aos cursos do plano foi pausado.');
});

test('access, new content, "sentimos sua falta" and the certificate; Descadastrar asks, stops, and undoes', async ({ page, browser }) => {
  // At Academia Rival: the demo school's settings change in other journeys ("Sentimos sua falta" off).
  const email = `e2e.emails.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`;
  const user = await service('/auth/v1/admin/users', {
    method: 'POST',
    body: JSON.stringify({ email, password: 'senha123', email_confirm: true, user_metadata: { name: 'Rui Campos', school_id: RIVAL_SCHOOL } }),
  });
  const rui = await signedIn((user.id ?? user.user?.id) as string, email, 'Rui Campos');
  const [{ title: course }] = await service(`/rest/v1/courses?select=title&id=eq.${RIVAL_COURSE}`);
  const enqueue = (kind: string, key: string, payload: object) =>
    api('/rest/v1/rpc/enqueue_email', {
      method: 'POST',
      key: LOCAL_SERVICE_ROLE_KEY,
      body: JSON.stringify({ p_school_id: RIVAL_SCHOOL, p_user_id: rui.id, p_to: rui.email, p_kind: kind, p_key: key, p_payload: { name: rui.name, ...payload } }),
    });
  // As the events and the daily job write them.
  await enqueue('access_granted', `account:${rui.id}`, { courses: [course] });
  await enqueue('content_released', `content:${rui.id}:2026-11-28`, { modules: [{ course_title: course, module_title: 'Frases de viagem', course_id: RIVAL_COURSE }] });
  await enqueue('we_miss_you', `miss:${rui.id}:2026-11-28`, { course_title: course, course_id: RIVAL_COURSE, progress_percent: 40 });
  await enqueue('certificate_available', `cert-e2e:${rui.id}`, { course_title: course, course_id: RIVAL_COURSE, code: 'ABCD-2345-EFGH' });
  await service('/rest/v1/enrollments', { method: 'POST', body: JSON.stringify({ user_id: rui.id, course_id: RIVAL_COURSE, status: 'ACTIVE' }) });
  await deliver(rui.email, [
    'Academia Rival: seu acesso foi liberado',
    'Novo módulo liberado: Frases de viagem',
    'Sentimos sua falta, Rui',
    `Seu certificado de ${course} está disponível`,
    `Matrícula feita: ${course}`,
  ]);
  const mail = await readOnPhone(page, rui.email, 'outros', RIVAL_SCHOOL);
  expect(mail['Academia Rival: seu acesso foi liberado']).toMatch(new RegExp(`Boas-vindas!\\s+Olá, Rui!\\s+Sua conta está pronta, com acesso ao curso ${course}\\.`));
  expect(mail['Sentimos sua falta, Rui']).toContain(`Você já fez 40% do curso ${course}.`);
  expect(mail[`Matrícula feita: ${course}`]).toMatch(/Sua matrícula foi feita\s+Olá, Rui!/);

  // Descadastrar from the enrollment e-mail, in the student's own browser, signed out.
  const stopped = async () => ((await service(`/rest/v1/email_unsubscribes?select=kind&user_id=eq.${rui.id}`)) as { kind: string }[]).map((r) => r.kind);
  const [enrolled] = ((await api(`/inbox/api/messages?to=${encodeURIComponent(rui.email)}`)) as { subject: string; links: string[] }[]).filter((m) => m.subject.startsWith('Matrícula feita'));
  const link = enrolled!.links.find((l) => l.includes('/descadastrar#token='))!;
  const visitor = await (await browser.newContext({ viewport: { width: 412, height: 915 } })).newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: 'Parar de receber estes e-mails?' })).toBeVisible();
  await expect(visitor.getByText('Você vai deixar de receber os e-mails de "Nova matrícula" da escola.', { exact: false })).toBeVisible();
  expect(await stopped()).toEqual([]);
  await visitor.screenshot({ path: test.info().outputPath('descadastrar-pergunta.png') });
  await visitor.getByRole('button', { name: 'Não quero mais receber estes e-mails' }).click();
  await expect(visitor.getByRole('heading', { name: 'Pronto: estes e-mails não vão mais chegar' })).toBeFocused();
  await expect.poll(stopped).toEqual(['new_enrollment']);
  await visitor.screenshot({ path: test.info().outputPath('descadastrar-feito.png') });
  await visitor.getByRole('button', { name: 'Desfazer' }).click();
  await expect(visitor.getByRole('heading', { name: 'Você vai continuar recebendo estes e-mails' })).toBeVisible();
  await expect.poll(stopped).toEqual([]);
});
