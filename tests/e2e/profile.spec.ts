import { signUpAndConfirm, expect, test, uniqueEmail } from './helpers';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test.beforeEach(async ({ page }) => {
  // Each test works on an account of its own.
  await signUpAndConfirm(page, { name: 'Paula Perfil', email: uniqueEmail('perfil') });
  await page.getByRole('button', { name: 'Menu da conta' }).click();
  await page.getByRole('menuitem', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Meu Perfil' })).toBeVisible();
});

test('profile edits are validated, masked, saved and survive a reload', async ({ page }) => {
  const form = page.getByRole('form', { name: 'Dados pessoais' });
  await expect(form.getByLabel('Nome Completo')).toHaveValue('Paula Perfil');
  await form.getByLabel('Nome Completo').fill('');
  await form.getByLabel('CPF').fill('12345678900');
  await form.getByRole('button', { name: 'Salvar Alterações' }).click();
  await expect(form.getByText('Nome é obrigatório')).toBeVisible();
  await expect(form.getByText('CPF inválido')).toBeVisible();

  await form.getByLabel('Nome Completo').fill('Paula Perfil Atualizada');
  await form.getByLabel('Telefone').fill('11987654321');
  await expect(form.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
  await form.getByLabel('CPF').fill('52998224725');
  await expect(form.getByLabel('CPF')).toHaveValue('529.982.247-25');
  await form.getByLabel('Endereço').fill('Rua das Flores, 123 - São Paulo - SP');
  await form.getByRole('button', { name: 'Salvar Alterações' }).click();
  await expect(page.getByText('Perfil atualizado com sucesso!')).toBeVisible();

  await page.reload();
  await expect(form.getByLabel('Nome Completo')).toHaveValue('Paula Perfil Atualizada');
  await expect(form.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
  await expect(form.getByLabel('CPF')).toHaveValue('529.982.247-25');
  await expect(form.getByLabel('Endereço')).toHaveValue('Rua das Flores, 123 - São Paulo - SP');
});

test('an avatar upload replaces the initials and survives a reload', async ({ page }) => {
  await page.getByLabel('Alterar foto de perfil').setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Foto de perfil atualizada!')).toBeVisible();
  // Served resized through Storage's image transformations (the stored URL's ?v= kept).
  const avatar = page.getByRole('main').locator('img[src*="/storage/v1/render/image/public/avatars/"]');
  await expect(avatar).toBeVisible();
  await expect(avatar).toHaveAttribute('src', /\/avatars\/[0-9a-f-]+\/avatar\.png\?width=\d+&v=\d+/);
  await page.reload();
  await expect(page.getByRole('main').locator('img[src*="/avatars/"][src*="/avatar.png"]')).toBeVisible();
  // The header avatar shows it too.
  await expect(page.getByRole('banner').locator('img[src*="/avatar.png"]')).toBeVisible();
});

test('a too-large or non-image avatar is refused with its message', async ({ page }) => {
  const input = page.getByLabel('Alterar foto de perfil');
  await input.setInputFiles({ name: 'grande.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 1) });
  await expect(page.getByRole('alert').filter({ hasText: 'A imagem deve ter no máximo 2MB' })).toBeVisible();
  await input.setInputFiles({ name: 'doc.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await expect(page.getByRole('alert').filter({ hasText: 'Por favor, selecione uma imagem válida' })).toBeVisible();
  await expect(page.getByText('Foto de perfil atualizada!')).toHaveCount(0);
});
