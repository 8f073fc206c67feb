// Issue 42's journey, in Chromium with the fake Asaas: staff turn "Notas fiscais" on in Configurações (the
// missing fiscal settings listed first while incomplete, the switch refused until they are complete); a
// student buys a course by PIX; after the guarantee days (the job's test clock) the invoice is authorized, the
// student gets "Nota fiscal disponível" and finds the PDF in Perfil → Minhas compras; a refund in Vendas
// cancels it and Vendas shows it cancelled. The jobs (issue-invoices, send-emails) run every minute in
// `npm start`; here the journey asks for a run at once, with issue-invoices' clock 8 days ahead.
import type { Locator, Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config';
import { COMPLETE_FISCAL_INFO } from '../../scripts/fake-asaas/invoices';
import { expect, inbox, signInAndWaitHome, test } from './helpers';
import { COURSE, api, freshStudent, signInAs } from './learning-helpers';

const ASAAS_URL = `http://localhost:${Number(process.env.E2E_ASAAS_PORT || 54339)}`;
const DEMO_API_KEY = '$aact_SEGREDO_escola_demo';
const MARKETING = 'Marketing Digital para Pequenos Negócios';
const SHOTS = process.env.E2E_SHOTS_DIR;

const service = (path: string, init: RequestInit = {}) =>
  api(path, { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' }, ...init });
const runJob = (name: string, body: unknown) =>
  api(`/functions/v1/${name}`, {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    token: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify(body),
  });
const eightDaysAhead = () => new Date(Date.now() + 8 * 24 * 3600_000).toISOString();

/** The fake municipality's control (what a person uses at /nfse/controle). */
async function fiscalInfoAtAsaas(info: Record<string, unknown> | null) {
  const res = await fetch(`${ASAAS_URL}/nfse/controle`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: DEMO_API_KEY, fiscalInfo: info }),
  });
  expect(res.status).toBe(200);
}

/** The fake municipality refuses the school's notes with this message (null: it authorizes them again). */
async function invoiceOutcomeAtAsaas(error: string | null) {
  const res = await fetch(`${ASAAS_URL}/nfse/controle`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: DEMO_API_KEY, error }),
  });
  expect(res.status).toBe(200);
}

/** The part of the screen at 1280 and 360 px, when E2E_SHOTS_DIR asks for screenshots (to look at, not asserted). */
async function shoot(page: Page, name: string, part: Locator) {
  if (!SHOTS) return;
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await part.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.afterAll(async () => {
  await fiscalInfoAtAsaas({ ...COMPLETE_FISCAL_INFO });
  await invoiceOutcomeAtAsaas(null);
});

test('Notas fiscais: turned on after the missing settings, issued after the guarantee, e-mailed, in Minhas compras, cancelled by a refund', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const staff = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signInAndWaitHome(staff, 'admin@escola-demo.com.br');

  // 1. The school's inscription is missing at Asaas: the list comes first, with where to fix it, and the switch stays off.
  await fiscalInfoAtAsaas({ ...COMPLETE_FISCAL_INFO, municipalInscription: null });
  await staff.goto('/admin/settings');
  const card = staff.getByRole('region', { name: 'Notas fiscais' });
  const toggle = card.getByRole('switch', { name: 'Emitir notas fiscais' });
  if (await toggle.isChecked()) {
    await toggle.click();
    await expect(card.getByText('Salvo', { exact: true })).toBeVisible();
  }
  await expect(toggle).not.toBeChecked();
  const missing = card.getByRole('list', { name: 'Informações fiscais que faltam' });
  await expect(missing.getByText('Inscrição municipal da empresa.')).toBeVisible();
  await expect(missing.getByText(/^Onde corrigir: No Asaas/)).toBeVisible();
  await expect(toggle).toBeDisabled();
  await card.scrollIntoViewIfNeeded();
  await shoot(staff, 'settings-missing', card);

  // 2. Fixed at Asaas: nothing missing, the switch turns on; the setting: 7 days of guarantee, the service chosen.
  await fiscalInfoAtAsaas({ ...COMPLETE_FISCAL_INFO });
  await staff.reload();
  await expect(card.getByText('Informações fiscais completas no Asaas.')).toBeVisible();
  await expect(card.getByLabel('Dias de garantia')).toHaveValue('7');
  await card.getByRole('button', { name: /^(Escolher|Trocar) serviço$/ }).click();
  await card.getByLabel('Buscar serviço municipal pela descrição').fill('ensino');
  const options = card.getByRole('list', { name: 'Serviços da prefeitura' });
  await options
    .getByRole('button', { name: /^Escolher / })
    .first()
    .click();
  await card.getByRole('button', { name: 'Salvar' }).click();
  await expect(staff.getByText('Notas fiscais salvas!')).toBeVisible();
  await toggle.click();
  await expect(card.getByText('Salvo', { exact: true })).toBeVisible();
  await expect(toggle).toBeChecked();
  await shoot(staff, 'settings-on', card);

  // 3. A new student buys Marketing by PIX on the fake Asaas's page.
  const buyerName = `Compradora Nota ${Date.now().toString(36)}`;
  const buyer = await freshStudent(buyerName, { enrollIn: [] });
  const student = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signInAs(student, buyer.email);
  await student.goto(`/checkout?course=${COURSE.marketing}`);
  await student.getByLabel('CPF').fill('52998224725');
  await student.getByLabel('Telefone').fill('11988887777');
  await student.getByRole('button', { name: 'Pagar R$ 297,00' }).click();
  await expect(student).toHaveURL(new RegExp(`^${ASAAS_URL}/i/pay_`));
  await student.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(student).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));
  const [payment] = await service(`/rest/v1/payments?select=id,status&user_id=eq.${buyer.id}`);
  await expect
    .poll(async () => (await service(`/rest/v1/invoices?select=status&payment_id=eq.${payment.id}`))[0]?.status)
    .toBe('pending');

  // Vendas: the sale's invoice waits for the guarantee.
  await staff.goto('/admin/sales');
  const saleRow = staff.getByRole('row').filter({ hasText: buyerName });
  await expect(saleRow.getByText(/^Agendada \(emite em \d{2}\/\d{2}\)$/)).toBeVisible();

  // 4. Eight days later (the job's clock): issued at Asaas, authorized by the municipality.
  await expect
    .poll(async () => {
      await runJob('issue-invoices', { now: eightDaysAhead() });
      return (await service(`/rest/v1/invoices?select=status&payment_id=eq.${payment.id}`))[0]?.status;
    })
    .toBe('authorized');

  // "Nota fiscal disponível" reaches the student's inbox with the PDF link.
  await expect
    .poll(async () => {
      await runJob('send-emails', { limit: 200 });
      return (await inbox(buyer.email)).some((m) => m.subject.startsWith('Nota fiscal disponível'));
    })
    .toBe(true);
  const mail = (await inbox(buyer.email)).find((m) => m.subject.startsWith('Nota fiscal disponível'))!;
  expect(mail.subject).toContain(MARKETING);

  // 5. Perfil → Minhas compras: the purchase with "Nota fiscal (PDF)" and XML.
  await student.goto('/profile');
  const purchases = student.getByRole('list', { name: 'Compras' });
  const purchase = purchases.getByRole('listitem').filter({ hasText: MARKETING });
  const pdf = purchase.getByRole('link', { name: `Nota fiscal (PDF) de ${MARKETING}` });
  await expect(pdf).toBeVisible();
  await expect(purchase.getByRole('link', { name: `XML da nota fiscal de ${MARKETING}` })).toBeVisible();
  const pdfFile = await fetch((await pdf.getAttribute('href'))!);
  expect(pdfFile.status).toBe(200);
  await purchase.scrollIntoViewIfNeeded();
  await shoot(student, 'minhas-compras', purchases);

  // Vendas: Emitida, with its number; the period's totals count it.
  await staff.reload();
  await expect(saleRow.getByText('Emitida', { exact: true })).toBeVisible();
  await expect(staff.getByRole('list', { name: 'Totais das notas fiscais' })).toBeVisible();
  await shoot(staff, 'vendas-emitida', staff.locator('main'));

  // 6. A refund in Vendas cancels the invoice; Vendas shows it cancelled.
  await saleRow.getByRole('button', { name: new RegExp(`^Reembolsar a venda de ${buyerName}`) }).click();
  const dialog = staff.getByRole('dialog', { name: 'Reembolsar venda?' });
  await dialog.getByRole('button', { name: 'Reembolsar R$ 297,00' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => (await service(`/rest/v1/payments?select=status&id=eq.${payment.id}`))[0].status)
    .toBe('REFUNDED');
  await expect
    .poll(async () => {
      await runJob('issue-invoices', { now: eightDaysAhead() });
      return (await service(`/rest/v1/invoices?select=status&payment_id=eq.${payment.id}`))[0]?.status;
    })
    .toBe('cancelled');
  await staff.reload();
  await expect(saleRow.getByText('Cancelada', { exact: true })).toBeVisible();
  await shoot(staff, 'vendas-cancelada', staff.locator('main'));

  // 7. The municipality refuses a note: "Notas com erro" shows its message; fixed, "Emitir novamente" issues it once.
  const refusal = 'Código de serviço não permitido para o município.';
  await invoiceOutcomeAtAsaas(refusal);
  const secondName = `Comprador Recusa ${Date.now().toString(36)}`;
  const second = await freshStudent(secondName, { enrollIn: [] });
  const secondPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signInAs(secondPage, second.email);
  await secondPage.goto(`/checkout?course=${COURSE.marketing}`);
  await secondPage.getByLabel('CPF').fill('39053344705');
  await secondPage.getByLabel('Telefone').fill('11977776666');
  await secondPage.getByRole('button', { name: 'Pagar R$ 297,00' }).click();
  await expect(secondPage).toHaveURL(new RegExp(`^${ASAAS_URL}/i/pay_`));
  await secondPage.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(secondPage).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));
  await secondPage.close();
  const [refused] = await service(`/rest/v1/payments?select=id&user_id=eq.${second.id}`);
  const refusedStatus = async () => {
    await runJob('issue-invoices', { now: eightDaysAhead() });
    return (await service(`/rest/v1/invoices?select=status&payment_id=eq.${refused.id}`))[0]?.status;
  };
  await expect.poll(refusedStatus).toBe('error');
  await staff.reload();
  await staff.getByRole('button', { name: /^Notas com erro/ }).click();
  await expect(staff).toHaveURL(/notas=erro/);
  const errors = staff.getByRole('list', { name: 'Notas com erro' });
  const refusedNote = errors.getByRole('listitem').filter({ hasText: secondName });
  await expect(refusedNote.getByText('Mensagem da prefeitura:')).toBeVisible();
  await expect(refusedNote.getByText(refusal)).toBeVisible();
  await shoot(staff, 'vendas-notas-com-erro', errors);
  await invoiceOutcomeAtAsaas(null);
  await refusedNote.getByRole('button', { name: /^Emitir novamente a nota de / }).click();
  await expect.poll(refusedStatus).toBe('authorized');

  // The student's purchase: refunded, the note cancelled, its links gone.
  await student.reload();
  await expect(purchase.getByText('Cancelada', { exact: true })).toBeVisible();
  await expect(purchase.getByRole('link')).toHaveCount(0);
});
