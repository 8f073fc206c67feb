// Issue 10, Clients (super admin): a new school and its administrator, who signs in at the new school's
// page with the temporary password, changes it and reaches the admin area. Other staff never see it.
import { expect, signIn, signInAndWaitHome, test } from './helpers';

test('the super admin creates a school and its admin, who signs in at the new page', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 7);
  const slug = `escola-${tag}`;
  const email = `cliente.${tag}@exemplo.com.br`;
  await signInAndWaitHome(page, 'super@plataforma.com.br');
  await page.goto('/admin/clients');
  await expect(page.getByRole('heading', { level: 1, name: 'Clientes' })).toBeVisible();

  await page.getByRole('button', { name: 'Nova Escola' }).click();
  const school = page.getByRole('dialog', { name: 'Nova Escola' });
  await school.getByLabel('Nome da escola').fill(`Escola ${tag}`);
  await school.getByLabel('Endereço na web').fill('Com Espaço');
  await school.getByLabel('Nome da área de membros').fill(`Portal ${tag}`);
  await school.getByRole('button', { name: 'Criar escola' }).click();
  await expect(school.getByText('Use letras minúsculas, números e hífens (ex.: minha-escola)')).toBeVisible();
  await school.getByLabel('Endereço na web').fill(slug);
  await school.getByRole('button', { name: 'Criar escola' }).click();
  await expect(page.getByText('Escola criada!')).toBeVisible();

  await page.getByRole('button', { name: 'Novo Cliente' }).click();
  const client = page.getByRole('dialog', { name: 'Novo Cliente' });
  await client.getByLabel('Nome').fill(`Cliente ${tag}`);
  await client.getByLabel('Email').fill(email);
  await client.getByLabel('Escola').selectOption({ label: `Escola ${tag} (/${slug})` });
  await client.getByRole('button', { name: 'Cadastrar' }).click();
  const shown = page.getByRole('dialog', { name: 'Cliente cadastrado' });
  await expect(shown).toContainText(`Enviamos a Cliente ${tag} um e-mail com o link para criar a senha`);
  const password = (await shown.getByLabel('Senha inicial').textContent())!.trim();
  expect(password.length).toBeGreaterThanOrEqual(6);
  await shown.getByRole('button', { name: 'Concluir' }).click();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Cliente ${tag}` }) });
  await expect(card).toContainText(`Escola ${tag}`);
  await expect(card).toContainText(`/${slug}`);
  await expect(card).toContainText(`Portal ${tag}`);
  await expect(card).toContainText('Ativo');

  const admin = await browser.newPage();
  try {
    await admin.goto(`/${slug}`);
    await expect(admin.getByRole('heading', { level: 1, name: `Portal ${tag}` })).toBeVisible();
    await signIn(admin, email, password, slug);
    const change = admin.getByRole('dialog', { name: 'Alterar Senha' });
    await change.getByLabel('Nova Senha').fill('senhaNova123');
    await change.getByLabel('Confirmar Senha').fill('senhaNova123');
    await change.getByRole('button', { name: 'Alterar Senha' }).click();
    await expect(admin.getByText('Senha alterada!')).toBeVisible();
    await admin.goto('/admin');
    await expect(admin.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(admin.getByRole('link', { name: 'Clientes' })).toHaveCount(0);
    await admin.goto('/admin/clients');
    await expect(admin).toHaveURL(/\/admin$/);
  } finally {
    await admin.close();
  }
});
