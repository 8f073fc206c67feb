// Issue 10, Settings: member-area name rule, integrations (masked key, toggle, delete) and the system
// key card that only the master super admin sees. Issue 11: the Asaas webhook URL and token.
import { expect, signInAndWaitHome, test } from './helpers';
import { API_URL } from './learning-helpers';

const RIVAL_SCHOOL = '5c000000-0000-4000-8000-000000000002';

test('a school admin manages integrations; the member-area name cannot be empty; no system key card', async ({ page }) => {
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/settings');
  const nameForm = page.getByRole('form', { name: 'Nome da área de membros' });
  await nameForm.getByLabel('Nome da área de membros').fill('  ');
  await nameForm.getByRole('button', { name: 'Salvar' }).click();
  await expect(nameForm.getByText('Nome não pode estar vazio')).toBeVisible();
  await nameForm.getByLabel('Nome da área de membros').fill('Área de Membros Demo');
  await nameForm.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Área de membros atualizada!')).toBeVisible();

  const form = page.getByRole('form', { name: 'Adicionar integração' });
  await form.getByRole('button', { name: 'Adicionar integração' }).click();
  await expect(form.getByText('Preencha a chave API')).toBeVisible();
  const last4 = String(Math.floor(1000 + Math.random() * 8999));
  await form.getByLabel('Provedor').selectOption('stripe');
  await form.getByLabel('Chave API').fill(`sk_test_chave_${last4}`);
  await form.getByRole('button', { name: 'Adicionar integração' }).click();
  await expect(page.getByText('Integração adicionada!')).toBeVisible();
  const item = page.getByRole('list', { name: 'Integrações' }).getByRole('listitem').filter({ hasText: `••••${last4}` });
  await expect(item).toContainText('Stripe · Sandbox (testes)');
  await expect(item).not.toContainText('sk_test');
  await item.getByRole('switch').click();
  await expect(item).toContainText('Inativa');
  await item.getByRole('button', { name: /Excluir integração/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Integração excluída!')).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Chave do sistema' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Webhook de alunos (student-webhook)' })).toHaveCount(0);
});

test("a school's staff reveal and rotate the student-webhook secret (Academia Rival, so the documented demo secret stays)", async ({ page }) => {
  await signInAndWaitHome(page, 'admin@academia-rival.com.br', 'senha123', 'academia-rival');
  await page.goto('/admin/settings');
  const secret = page.getByLabel('Segredo do webhook', { exact: true });
  await expect(secret).toHaveText(/^•{12}\S{4}$/);
  await page.getByRole('button', { name: 'Mostrar' }).click();
  await expect(secret).toHaveText(/^whsec_/);
  const before = await secret.textContent();
  await page.getByRole('button', { name: 'Gerar novo' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Gerar novo' }).click();
  await expect(page.getByText('Novo segredo gerado!')).toBeVisible();
  await expect(secret).not.toHaveText(before!);
  await expect(secret).toHaveText(/^whsec_[0-9a-f]{64}$/);
});

test('a school admin sees the Asaas webhook URL and replaces the webhook token; the new token authenticates, the old does not', async ({ page }) => {
  await signInAndWaitHome(page, 'admin@academia-rival.com.br', 'senha123', 'academia-rival');
  await page.goto('/admin/settings');
  const url = `${API_URL}/functions/v1/asaas-webhook?school=${RIVAL_SCHOOL}`;
  await expect(page.getByLabel('URL do webhook de pagamentos (cadastre no painel do Asaas)')).toHaveText(url);
  const item = page.getByRole('list', { name: 'Integrações' }).getByRole('listitem').filter({ hasText: '••••ival' });
  await expect(item).toContainText('webhook configurado');
  await item.getByRole('button', { name: 'Token do webhook da integração Asaas Sandbox (testes)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Token do webhook do Asaas' });
  await dialog.getByLabel('Token (asaas-access-token)').fill('curto');
  await dialog.getByRole('button', { name: 'Salvar token' }).click();
  await expect(dialog.getByText('O Asaas exige um token com pelo menos 32 caracteres')).toBeVisible();
  const token = `whtok_novo_${Date.now()}_0123456789abcdefghij`;
  await dialog.getByLabel('Token (asaas-access-token)').fill(token);
  await dialog.getByRole('button', { name: 'Salvar token' }).click();
  await expect(page.getByText('Token do webhook salvo!')).toBeVisible();
  await expect(dialog).toBeHidden();

  const event = { id: `evt_${Date.now()}`, event: 'PAYMENT_CREATED', payment: { id: 'pay_de_fora', externalReference: null } };
  const send = (t: string) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'asaas-access-token': t }, body: JSON.stringify(event) });
  expect((await send('whtok_academia_rival_local_0123456789abcdef')).status).toBe(401);
  const ok = await send(token);
  expect(ok.status).toBe(200);
  expect(await ok.json()).toMatchObject({ received: true, outcome: 'unknown_payment' });
});

test('the master super admin saves the system key', async ({ page }) => {
  await signInAndWaitHome(page, 'super@plataforma.com.br');
  await page.goto('/admin/settings');
  const form = page.getByRole('form', { name: 'Chave do sistema' });
  await form.getByRole('button', { name: 'Salvar chave' }).click();
  await expect(form.getByText('A chave não pode estar vazia')).toBeVisible();
  await form.getByLabel('Nova chave API (Asaas)').fill('$aact_chave_nova_9876');
  await form.getByRole('button', { name: 'Salvar chave' }).click();
  await expect(page.getByText('Chave salva!')).toBeVisible();
  await expect(page.getByText('••••9876')).toBeVisible();
  const docs = page.getByRole('region', { name: 'Webhook de alunos (student-webhook)' });
  await expect(docs).toContainText('/functions/v1/student-webhook');
  await expect(docs).toContainText('x-webhook-secret');
  await expect(page.getByRole('region', { name: 'Webhook de escolas (tenant-webhook)' })).toContainText('company_slug');
});
