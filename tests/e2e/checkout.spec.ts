// Issue 11 "Done when": a student buys a locked course through the fake Asaas and finds it unlocked,
// with no staff action: aluna with PIX, a new student with Cartão (installments), and the course page
// waiting for a boleto's confirmation. Plus the checkout's own rules and messages.
import { expect, test } from '@playwright/test';
import { COURSE, freshStudent, signInAs } from './learning-helpers';

const MARKETING = 'Marketing Digital para Pequenos Negócios';
const ASAAS_PORT = Number(process.env.E2E_ASAAS_PORT || 54339);

test.describe.configure({ timeout: 60_000 });

test('aluna buys a locked course with PIX, simulates the payment and finds it unlocked', async ({ page }) => {
  await signInAs(page, 'aluna@escola-demo.com.br');
  await page.goto('/');
  const card = page.getByTestId('course-card').filter({ hasText: MARKETING });
  await expect(card.getByText('Curso Bloqueado')).toBeVisible();
  await card.getByRole('link', { name: 'Comprar Curso' }).click();
  await expect(page).toHaveURL(/\/checkout\/marketing-digital$/);

  const summary = page.getByRole('complementary', { name: 'Resumo do pedido' });
  await expect(summary.getByText(MARKETING)).toBeVisible();
  await expect(summary.getByTestId('checkout-price')).toHaveText('R$ 297,00');
  await expect(summary.getByText('em até 12x de R$ 24,75')).toBeVisible();
  await expect(page.getByRole('button', { name: 'PIX' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('E-mail')).toHaveValue('aluna@escola-demo.com.br');

  await page.getByLabel('Nome Completo').fill('Aluna Sem Matrícula');
  await page.getByLabel('CPF').fill('52998224725');
  await expect(page.getByLabel('CPF')).toHaveValue('529.982.247-25');
  await page.getByLabel('Telefone').fill('11988887777');
  await page.getByRole('button', { name: 'Pagar R$ 297,00' }).click();

  // Asaas's invoice (the fake), then back to the course.
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  await expect(page.getByText('R$ 297,00')).toBeVisible();
  await expect(page.getByText('Pix', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page.getByText('Pagamento confirmado!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));
  await expect(page.getByText('Você ainda não está matriculado neste curso')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Começar curso' })).toBeVisible();
  // A paid lesson opens.
  await page.goto(`/course/${COURSE.marketing}/lesson/e0000000-0000-4000-8000-000000000008`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Acesso Restrito')).toHaveCount(0);
  // And the home page lists it under "Meus Cursos".
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Meus Cursos' })).toBeVisible();
});

test('a new student pays by card in installments and the course unlocks', async ({ page }) => {
  const { email } = await freshStudent('Comprador Cartão', { enrollIn: [] });
  await signInAs(page, email);
  await page.goto(`/checkout?course=${COURSE.marketing}`);
  await expect(page.getByRole('complementary', { name: 'Resumo do pedido' }).getByText(MARKETING)).toBeVisible();
  await page.getByLabel('CPF').fill('390.533.447-05');
  await page.getByLabel('Telefone').fill('(21) 99876-5432');
  await page.getByRole('button', { name: 'Cartão' }).click();
  await expect(page.getByRole('button', { name: 'Cartão' })).toHaveAttribute('aria-pressed', 'true');

  // Card fields empty: 'Dados do cartão obrigatórios', nothing sent.
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page.getByText('Dados do cartão obrigatórios')).toBeVisible();
  await expect(page.getByText('Informe o número do cartão')).toBeVisible();
  await expect(page).toHaveURL(/\/checkout/);

  await page.getByLabel('Nome impresso no cartão').fill('COMPRADOR CARTAO');
  await page.getByLabel('Número do cartão').fill('5162306219378829');
  await expect(page.getByLabel('Número do cartão')).toHaveValue('5162 3062 1937 8829');
  await expect(page.getByLabel('Mês')).toHaveAttribute('maxlength', '2');
  await expect(page.getByLabel('Ano')).toHaveAttribute('maxlength', '4');
  await expect(page.getByLabel('CVV')).toHaveAttribute('maxlength', '4');
  await page.getByLabel('Mês').fill('05');
  await page.getByLabel('Ano').fill('2031');
  await page.getByLabel('CVV').fill('318');
  await page.getByLabel('CEP do titular').fill('01310100');
  await page.getByLabel('Número do endereço').fill('1000');
  await page.getByLabel('Parcelas').selectOption({ label: '3x de R$ 99,00' });
  await page.getByRole('button', { name: 'Pagar R$ 297,00 em 3x' }).click();

  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  await expect(page.getByText('Cartão de crédito')).toBeVisible();
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.marketing}`));
  await expect(page.getByText('Você ainda não está matriculado neste curso')).toHaveCount(0);
  await page.goto(`/course/${COURSE.marketing}/lesson/e0000000-0000-4000-8000-000000000008`);
  await expect(page.getByText('Acesso Restrito')).toHaveCount(0);
});

test('back from a boleto, the course waits for the confirmation and unlocks by itself', async ({ page, request }) => {
  const { email } = await freshStudent('Comprador Boleto', { enrollIn: [] });
  await signInAs(page, email);
  await page.goto('/checkout/marketing-digital');
  await page.getByLabel('CPF').fill('111.444.777-35');
  await page.getByLabel('Telefone').fill('(31) 3222-1234');
  await page.getByRole('button', { name: 'Boleto' }).click();
  await page.getByRole('button', { name: 'Pagar R$ 297,00' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  const invoice = page.url();

  // The student comes back before paying: the course says it is waiting, and offers the invoice.
  await page.goto(`/course/${COURSE.marketing}?pagamento=retorno`);
  const waiting = page.getByRole('status').filter({ hasText: 'Aguardando confirmação do pagamento' });
  await expect(waiting).toBeVisible();
  await expect(waiting.getByRole('link', { name: 'Ver fatura' })).toHaveAttribute('href', invoice);
  await expect(page.getByText('Você ainda não está matriculado neste curso')).toBeVisible();

  // The boleto is paid elsewhere: the page notices on its own.
  const paid = await request.post(`${invoice}/pay`, { maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  await expect(page.getByText('Pagamento confirmado!')).toBeVisible({ timeout: 15_000 });
  await expect(waiting).toHaveCount(0);
  await expect(page.getByText('Você ainda não está matriculado neste curso')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.marketing}$`));
});

test('the checkout refuses what it cannot sell and says why', async ({ page }) => {
  const { email } = await freshStudent('Curioso', { enrollIn: [] });
  await signInAs(page, email);

  // Neither slug nor id: 'Redirecionando...' and home.
  await page.goto('/checkout');
  await expect(page.getByText('Redirecionando...')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/checkout/curso-que-nao-existe');
  await expect(page.getByRole('heading', { name: 'Curso não encontrado' })).toBeVisible();
  await page.goto('/checkout?course=nao-e-um-id');
  await expect(page.getByRole('heading', { name: 'Curso não encontrado' })).toBeVisible();

  // Required fields: 'Campos obrigatórios', nothing charged.
  await page.goto('/checkout/marketing-digital');
  await page.getByLabel('Nome Completo').fill('');
  await page.getByRole('button', { name: 'Pagar R$ 297,00' }).click();
  await expect(page.getByText('Campos obrigatórios')).toBeVisible();
  await expect(page.getByText('Informe seu CPF')).toBeVisible();
  await expect(page.getByLabel('CPF')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('CPF').fill('123.456.789-00');
  await expect(page.getByText('CPF inválido')).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\/marketing-digital$/);
});

test('a student already enrolled is sent to the course instead of paying twice', async ({ page }) => {
  await signInAs(page, 'aluno@escola-demo.com.br');
  await page.goto('/checkout/excel-essencial');
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.excel}$`));
  await expect(page.getByText('Você já está matriculado neste curso')).toBeVisible();
});
