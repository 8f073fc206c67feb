// Issue 24 "Done when", with the fake Asaas: a 20% coupon made in Cupons takes the R$ 297,00 course to
// a PIX of R$ 237,60 and the buyer is enrolled; the order bump is one PIX that enrolls in both courses;
// staff refund a sale in Vendas and the enrollment pauses only after the refund event.
import { expect, test } from './helpers';
import { COURSE, api, freshSchoolAdmin, freshStudent, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

const ASAAS_PORT = Number(process.env.E2E_ASAAS_PORT || 54339);
const MARKETING = 'Marketing Digital para Pequenos Negócios';

test.describe.configure({ timeout: 90_000 });

async function enrollmentStatus(userId: string, courseId: string): Promise<string | null> {
  const rows = await api(`/rest/v1/enrollments?select=status&user_id=eq.${userId}&course_id=eq.${courseId}`, { key: LOCAL_SERVICE_ROLE_KEY });
  return (rows[0]?.status as string | undefined) ?? null;
}

async function fillBuyer(page: import('@playwright/test').Page) {
  await page.getByLabel('Nome Completo').fill('Comprador da Campanha');
  await page.getByLabel('CPF').fill('52998224725');
  await page.getByLabel('Telefone').fill('11988887777');
}

test('a 20% coupon made in Cupons: R$ 297,00 becomes a PIX of R$ 237,60, and the buyer is enrolled', async ({ page, browser }) => {
  const code = `CAMPANHA${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  const admin = await freshSchoolAdmin('Admin Campanhas');
  await signInAs(page, admin.email);
  await page.goto('/admin/coupons');
  await page.getByRole('button', { name: 'Novo Cupom' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo Cupom' });
  await dialog.getByLabel('Código').fill(code);
  await dialog.getByLabel('Valor (%)').fill('20');
  await dialog.getByLabel('Limite de usos (total)').fill('1');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toContainText('20%');

  const buyer = await freshStudent('Comprador Cupom', { enrollIn: [] });
  const context = await browser.newContext();
  const student = await context.newPage();
  await signInAs(student, buyer.email);
  // The campaign link carries the code.
  await student.goto(`/checkout/marketing-digital?cupom=${code.toLowerCase()}`);
  const summary = student.getByRole('complementary', { name: 'Resumo do pedido' });
  await expect(summary.getByText(MARKETING)).toBeVisible();
  await expect(summary.getByText(`Desconto (cupom ${code})`)).toBeVisible();
  await expect(summary.getByTestId('checkout-price')).toHaveText('R$ 237,60');
  await fillBuyer(student);
  await student.getByRole('button', { name: 'Pagar R$ 237,60' }).click();

  await expect(student).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  await expect(student.getByText('R$ 237,60')).toBeVisible();
  await student.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(student).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));
  await expect(student.getByRole('link', { name: 'Começar curso' })).toBeVisible();
  expect(await enrollmentStatus(buyer.id, COURSE.marketing)).toBe('ACTIVE');

  // The coupon's only use is taken: the next buyer is told why, and pays full price.
  const next = await freshStudent('Outro Comprador', { enrollIn: [] });
  const other = await context.newPage();
  await signInAs(other, next.email);
  await other.goto('/checkout/marketing-digital');
  await other.getByRole('button', { name: 'Tem um cupom?' }).click();
  await other.getByLabel('Código do cupom').fill(code);
  await other.getByRole('button', { name: 'Aplicar' }).click();
  await expect(other.getByText('Este cupom esgotou.')).toBeVisible();
  await expect(other.getByRole('complementary', { name: 'Resumo do pedido' }).getByTestId('checkout-price')).toHaveText('R$ 297,00');

  // Staff see the use and its revenue.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText('R$ 237,60');
  await context.close();
});

test('the order bump: one PIX for both courses enrolls in both', async ({ page }) => {
  await api('/rest/v1/course_bumps?on_conflict=course_id', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    headers: { Prefer: 'resolution=merge-duplicates' },
    body: JSON.stringify({ course_id: COURSE.marketing, bump_course_id: COURSE.excel, price: 97 }),
  });
  const buyer = await freshStudent('Comprador Combo', { enrollIn: [] });
  await signInAs(page, buyer.email);
  await page.goto('/checkout/marketing-digital');
  const offer = page.getByRole('region', { name: 'Oferta especial' });
  await expect(offer).toContainText('R$ 97,00');
  await offer.getByRole('checkbox', { name: /Leve também: Excel/ }).check();
  const summary = page.getByRole('complementary', { name: 'Resumo do pedido' });
  await expect(summary.getByTestId('checkout-price')).toHaveText('R$ 394,00');
  await fillBuyer(page);
  await page.getByRole('button', { name: 'Pagar R$ 394,00' }).click();

  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  await expect(page.getByText('R$ 394,00')).toBeVisible();
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));
  expect(await enrollmentStatus(buyer.id, COURSE.marketing)).toBe('ACTIVE');
  expect(await enrollmentStatus(buyer.id, COURSE.excel)).toBe('ACTIVE');
  const payments = await api(`/rest/v1/payments?select=value,payment_items(kind)&user_id=eq.${buyer.id}`, { key: LOCAL_SERVICE_ROLE_KEY });
  expect(payments).toHaveLength(1);
  expect(payments[0].value).toBe(394);
});

test('staff refund a sale in Vendas; the enrollment pauses when the refund event arrives', async ({ page, browser }) => {
  const buyer = await freshStudent('Comprador Arrependido', { enrollIn: [] });
  const context = await browser.newContext();
  const student = await context.newPage();
  await signInAs(student, buyer.email);
  await student.goto('/checkout/marketing-digital');
  await fillBuyer(student);
  await student.getByRole('button', { name: /^Pagar R\$ / }).click();
  await expect(student).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  await student.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(student).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));
  expect(await enrollmentStatus(buyer.id, COURSE.marketing)).toBe('ACTIVE');
  await context.close();

  const admin = await freshSchoolAdmin('Admin Vendas');
  await signInAs(page, admin.email);
  await page.goto('/admin/sales');
  const sale = page.getByRole('row').filter({ hasText: 'Comprador Arrependido' });
  await expect(sale).toContainText('Confirmado');
  await sale.getByRole('button', { name: /^Reembolsar a venda de Comprador Arrependido/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Reembolsar venda?' });
  await dialog.getByLabel(/Motivo/).fill('Pediu dentro da garantia');
  await dialog.getByRole('button', { name: /^Reembolsar R\$/ }).click();
  await expect(page.getByText('Reembolso solicitado. O acesso do aluno é pausado quando o Asaas confirmar.')).toBeVisible();
  // The fake delivers PAYMENT_REFUNDED just after answering: then, and only then, access pauses.
  await expect.poll(() => enrollmentStatus(buyer.id, COURSE.marketing)).toBe('PAUSED');
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: 'Comprador Arrependido' })).toContainText('Reembolsado');
});
