// Issue 19: the database's 32-character minimum of the Asaas webhook token reaches the staff in pt-BR
// (the add-integration form sends any token; the database refuses), and the super admin's webhook docs
// show the signed student-webhook request (curl + Node) and say it is the safer one.
import { expect, signInAndWaitHome, test } from './helpers';

test('a webhook token under 32 characters is refused by the database and said in pt-BR', async ({ page }) => {
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/settings');
  const form = page.getByRole('form', { name: 'Adicionar integração' });
  const last4 = String(Math.floor(1000 + Math.random() * 8999));
  await form.getByLabel('Provedor').selectOption('stripe');
  await form.getByLabel('Chave API').fill(`sk_test_token_curto_${last4}`);
  await form.getByLabel('Token do webhook (asaas-access-token), opcional').fill('curto-demais');
  await form.getByRole('button', { name: 'Adicionar integração' }).click();
  await expect(page.getByText('Erro ao adicionar integração')).toBeVisible();
  await expect(page.getByText('O token do webhook deve ter pelo menos 32 caracteres (exigência do Asaas).')).toBeVisible();
  await expect(page.getByText(/violates check constraint/)).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Integrações' }).getByRole('listitem').filter({ hasText: `••••${last4}` })).toHaveCount(0);
});

test('the super admin reads how to sign a student-webhook request, and that it is the safer way', async ({ page }) => {
  await signInAndWaitHome(page, 'super@plataforma.com.br');
  await page.goto('/admin/settings');
  const docs = page.getByRole('region', { name: 'Webhook de alunos (student-webhook)' });
  await expect(docs.getByRole('heading', { name: 'Requisição assinada (recomendada)' })).toBeVisible();
  await expect(docs).toContainText('É mais seguro: o segredo nunca trafega');
  await expect(docs).toContainText('x-webhook-signature: t=$T,v1=$SIG');
  await expect(docs).toContainText("openssl dgst -sha256 -hmac");
  await expect(docs).toContainText("createHmac('sha256', process.env.SEGREDO_DA_ESCOLA)");
  await expect(docs.getByRole('button', { name: 'Copiar: Exemplo assinado (Node.js 18+)' })).toBeVisible();
  await docs.screenshot({ path: 'test-results/h3b-webhook-docs.png' });
});
