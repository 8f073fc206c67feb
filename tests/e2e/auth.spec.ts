import path from 'node:path';
import { PASSWORD, confirmationLink, inbox, signIn, signInAndWaitHome, signOut, signUp, expect, test, uniqueEmail } from './helpers';

const SEEDED_LOGIN_BANNER = `http://localhost:${Number(process.env.E2E_API_PORT || 54331)}/storage/v1/object/public/school-banners/5c000000-0000-4000-8000-000000000001/login-banner.jpg`;

test.describe('school login pages', () => {
  // The login-settings journey below changes and restores Escola Demo's login page: keep these serial.
  test.describe.configure({ mode: 'serial' });

  test('escola-demo shows its branding, both tabs and the WhatsApp support button', async ({ page }) => {
    await page.goto('/escola-demo');
    await expect(page.getByRole('heading', { level: 1, name: 'Área de Membros Demo' })).toBeVisible();
    await expect(page.getByTestId('login-banner')).toContainText('Área de Membros Demo');
    await expect(page.getByTestId('login-banner')).toContainText('Escola Demo');
    await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    const login = page.getByRole('form', { name: 'Login' });
    await expect(login.getByLabel('Email')).toBeVisible();
    await expect(login.getByLabel('Senha')).toBeVisible();
    await expect(login.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await page.getByRole('tab', { name: 'Criar Conta' }).click();
    const signup = page.getByRole('form', { name: 'Criar Conta' });
    await expect(signup.getByLabel('Nome Completo')).toBeVisible();
    await expect(signup.getByRole('button', { name: 'Criar Conta' })).toBeVisible();
    const whatsapp = page.getByRole('link', { name: 'Falar com o suporte pelo WhatsApp' });
    await expect(whatsapp).toHaveAttribute('href', 'https://wa.me/5511999998888');
    await expect(whatsapp).toHaveAttribute('target', '_blank');
  });

  test('login settings: the admin changes the login banner and WhatsApp and sees them on /escola-demo', async ({ page, browser }) => {
    const banner = path.resolve(import.meta.dirname, '../../supabase/seed-files/school-banners/5c000000-0000-4000-8000-000000000002/login-banner.jpg');
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    await page.goto('/admin/login-settings');
    await expect(page.getByRole('textbox', { name: 'URL de acesso' })).toHaveValue(/\/escola-demo$/);
    const bannerField = page.getByRole('group', { name: 'Banner de login' });
    await bannerField.getByLabel('Selecionar banner de login').setInputFiles(banner);
    await expect(page.getByText('Banner atualizado!')).toBeVisible();
    const whatsappForm = page.getByRole('form', { name: 'WhatsApp de suporte' });
    await whatsappForm.getByLabel('WhatsApp').fill('55119');
    await whatsappForm.getByRole('button', { name: 'Salvar WhatsApp' }).click();
    await expect(whatsappForm.getByText(/12 ou 13 dígitos/)).toBeVisible();
    await whatsappForm.getByLabel('WhatsApp').fill('5521988887777');
    await whatsappForm.getByRole('button', { name: 'Salvar WhatsApp' }).click();
    await expect(page.getByText('WhatsApp atualizado!')).toBeVisible();

    const visitor = await browser.newPage();
    try {
      await visitor.goto('/escola-demo');
      await expect(visitor.getByRole('link', { name: 'Falar com o suporte pelo WhatsApp' })).toHaveAttribute('href', 'https://wa.me/5521988887777');
      await expect(visitor.getByRole('img', { name: /Banner de/ })).toHaveAttribute('src', /school-banners\/5c000000-0000-4000-8000-000000000001\/5c000000-0000-4000-8000-000000000001-\d+\.jpg$/);
    } finally {
      await visitor.close();
      // Restore the seeded login page that the other tests of this file assert.
      await whatsappForm.getByLabel('WhatsApp').fill('5511999998888');
      await whatsappForm.getByRole('button', { name: 'Salvar WhatsApp' }).click();
      await expect(page.getByText('WhatsApp atualizado!').first()).toBeVisible();
      await bannerField.getByRole('tab', { name: 'URL da imagem' }).click();
      await bannerField.getByLabel('URL da imagem (Banner de login)').fill(SEEDED_LOGIN_BANNER);
      await bannerField.getByLabel('URL da imagem (Banner de login)').blur();
      await expect(page.getByText('Banner atualizado!').first()).toBeVisible();
    }
  });

  test('academia-rival shows its own branding and no WhatsApp button', async ({ page }) => {
    await page.goto('/academia-rival');
    await expect(page.getByRole('heading', { level: 1, name: 'Portal do Aluno Rival' })).toBeVisible();
    await expect(page.getByTestId('login-banner')).toContainText('Academia Rival');
    await expect(page.getByRole('link', { name: 'Falar com o suporte pelo WhatsApp' })).toHaveCount(0);
    // The school's primary colour drives the theme.
    const primary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-primary').trim());
    expect(primary.toLowerCase()).toBe('#dc2626');
  });

  test('/auth works without a school', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('heading', { level: 1, name: 'Área de Membros' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Criar Conta' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Falar com o suporte pelo WhatsApp' })).toHaveCount(0);
  });

  test('an unknown slug shows Escola não encontrada', async ({ page }) => {
    await page.goto('/escola-que-nao-existe');
    await expect(page.getByRole('heading', { name: 'Escola não encontrada' })).toBeVisible();
  });

  test('login form validation messages', async ({ page }) => {
    await page.goto('/escola-demo');
    const form = page.getByRole('form', { name: 'Login' });
    await form.getByRole('button', { name: 'Entrar' }).click();
    await expect(form.getByText('Informe seu email')).toBeVisible();
    await expect(form.getByText('Informe sua senha')).toBeVisible();
    await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  });
});

test('sign-up at a school page: the confirmation e-mail signs the new account of that school in', async ({ page, baseURL }) => {
  const email = uniqueEmail('cadastro');
  await signUp(page, { name: 'Carla Cadastro', email });
  await expect(page.getByText('Conta criada com sucesso!')).toBeVisible();
  // No session yet: the card says where the link went, and stays on the school page.
  await expect(page.getByRole('heading', { name: 'Confirme seu e-mail' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Confirme seu e-mail' }).getByRole('status')).toHaveText(`Enviamos um link de confirmação para ${email}. Abra-o para ativar sua conta.`);
  await expect(page).toHaveURL(/\/escola-demo$/);

  // Signing in before opening the link is refused, with a way to get the e-mail again.
  await page.getByRole('tab', { name: 'Login' }).click();
  await signIn(page, email);
  await expect(page.getByText(`Confirme seu e-mail antes de entrar. Enviamos o link para ${email}.`).first()).toBeVisible();
  await expect(page).toHaveURL(/\/escola-demo$/);

  // The e-mail in the local inbox (JSON), in pt-BR, linking back to this school's page.
  const mails = await inbox(email);
  expect(mails.map((m) => m.subject)).toEqual(['Confirme seu cadastro']);
  expect(mails[0]!.text).toContain(`criar uma conta com o e-mail ${email}`);
  const link = await confirmationLink(email);
  expect(new URL(link).searchParams.get('redirect_to')).toBe(`${baseURL}/escola-demo`);

  // The link lands on the school's page signed in, and goes on to the home.
  await page.goto(link);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
  // The header shows the school's member-area name: the account belongs to escola-demo.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Área de Membros Demo' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);

  // From now on the password signs in.
  await signOut(page);
  await signInAndWaitHome(page, email);
});

test('Reenviar e-mail mails the confirmation again after the per-address minute', async ({ page }) => {
  const email = uniqueEmail('reenvio');
  await signUp(page, { name: 'Rui Reenvio', email });
  await expect(page.getByRole('heading', { name: 'Confirme seu e-mail' })).toBeVisible();
  // Within the minute the server asks to wait (GoTrue's 429), said in pt-BR.
  await page.getByRole('button', { name: 'Reenviar e-mail' }).click();
  await expect(page.getByText('Aguarde um minuto antes de pedir outro e-mail.')).toBeVisible();
  expect((await inbox(email)).length).toBe(1);
});

test('sign-up validation: short password and missing name', async ({ page }) => {
  await page.goto('/escola-demo');
  await page.getByRole('tab', { name: 'Criar Conta' }).click();
  const form = page.getByRole('form', { name: 'Criar Conta' });
  await form.getByLabel('Email').fill('x@exemplo.com.br');
  await form.getByLabel('Senha').fill('123');
  await form.getByRole('button', { name: 'Criar Conta' }).click();
  await expect(form.getByText('Informe seu nome completo')).toBeVisible();
  await expect(form.getByText('A senha deve ter no mínimo 6 caracteres')).toBeVisible();
});

test('a student signs in (no Admin button), the session survives a reload, and signs out to the school page', async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
  await page.getByRole('button', { name: 'Menu da conta' }).click();
  await expect(page.getByRole('menuitem', { name: 'Perfil' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await signOut(page);
  await expect(page).toHaveURL(/\/escola-demo$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth$/);
});

test('an admin signs in, sees the Admin button and reaches /admin, then signs out', async ({ page }) => {
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  const admin = page.getByRole('banner').getByRole('link', { name: 'Admin' });
  await expect(admin).toBeVisible();
  // The day's announcement popup may open as the click lands (its dialog's code loads on demand): it
  // can take the click (the URL stays on /; the handler closes it), or open just before the navigation
  // and hold the URL check while the handler waits on it. Click again only while still on the home.
  await expect(async () => {
    if (new URL(page.url()).pathname !== '/admin') await admin.click({ timeout: 2_000 });
    await expect(page).toHaveURL(/\/admin$/, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('navigation', { name: 'Menu administrativo' })).toBeVisible();
  await expect(page.getByText('Administrador', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/escola-demo$/);
});

test('a student of the other school signs out to their own school page', async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@academia-rival.com.br', PASSWORD, 'academia-rival');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Portal do Aluno Rival' })).toBeVisible();
  await signOut(page);
  await expect(page).toHaveURL(/\/academia-rival$/);
});

test('a student visiting /admin is sent to /', async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  await page.goto('/admin/courses');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
});

test('an inactive account is refused with its message', async ({ page }) => {
  await signIn(page, 'inativo@escola-demo.com.br');
  await expect(page.getByText('Sua conta está inativa. Entre em contato com o administrador.')).toBeVisible();
  await expect(page).toHaveURL(/\/escola-demo$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
});

test('a wrong password shows Erro ao fazer login with the server message', async ({ page }) => {
  await signIn(page, 'aluno@escola-demo.com.br', 'senha-errada');
  await expect(page.getByText('Erro ao fazer login')).toBeVisible();
  await expect(page.getByText(/invalid login credentials/i)).toBeVisible();
  await expect(page).toHaveURL(/\/escola-demo$/);
});

test('novo@ must change the password, cannot dismiss the dialog, and signs in with the new one', async ({ page }) => {
  const newPassword = 'novaSenha456';
  await signIn(page, 'novo@escola-demo.com.br');
  const dialog = page.getByRole('dialog', { name: 'Alterar Senha' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Fechar' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  // Protected pages send the user back to the dialog.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/escola-demo$/);
  await expect(dialog).toBeVisible();

  await dialog.getByLabel('Nova Senha').fill('123');
  await dialog.getByLabel('Confirmar Senha').fill('123');
  await dialog.getByRole('button', { name: 'Alterar Senha' }).click();
  await expect(dialog.getByText('A senha deve ter no mínimo 6 caracteres')).toBeVisible();
  await dialog.getByLabel('Nova Senha').fill(newPassword);
  await dialog.getByLabel('Confirmar Senha').fill('outraSenha');
  await dialog.getByRole('button', { name: 'Alterar Senha' }).click();
  await expect(dialog.getByText('Por favor, digite a mesma senha nos dois campos')).toBeVisible();
  await dialog.getByLabel('Confirmar Senha').fill(newPassword);
  await dialog.getByRole('button', { name: 'Alterar Senha' }).click();
  await expect(page.getByText('Senha alterada!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(dialog).toHaveCount(0);

  await signOut(page);
  await expect(page).toHaveURL(/\/escola-demo$/);
  await signIn(page, 'novo@escola-demo.com.br', PASSWORD);
  await expect(page.getByText('Erro ao fazer login')).toBeVisible();
  await signInAndWaitHome(page, 'novo@escola-demo.com.br', newPassword);
  await expect(page.getByRole('dialog', { name: 'Alterar Senha' })).toHaveCount(0);
});
