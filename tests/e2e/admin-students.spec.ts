// Issue 10, Students: the admin registers a student with a CPF; the student signs in with the CPF
// digits, must change the password, and sees their course. Search, reset password (shown once), and
// deactivation that ends an open session.
import { expect, signIn, signInAndWaitHome, test } from './helpers';
import { COURSE, SCHOOL_ID, api, freshSchoolAdmin, freshStudent } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

// Each journey signs in two or three people one after the other: 25 s on a loaded 2-core CI run, and
// over 60 s on one where other builds and browsers shared the cores.
test.describe.configure({ timeout: 90_000 });

/** A valid CPF from 9 random digits (check digits computed), formatted. */
function randomCpf(): string {
  const n = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (n.every((d) => d === n[0])) n[0] = (n[0]! + 1) % 10;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += n[i]! * (len + 1 - i);
    const r = (sum * 10) % 11;
    n.push(r === 10 ? 0 : r);
  }
  const d = n.join('');
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

test('the admin registers a student who signs in with the CPF, changes the password and sees the course', async ({ page, browser }) => {
  const cpf = randomCpf();
  const email = `e2e.aluno.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@exemplo.com.br`;
  const name = `Estudante ${Math.random().toString(36).slice(2, 7)}`;
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/students');
  await page.getByRole('button', { name: 'Novo Aluno' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo Aluno' });
  await expect(dialog).toContainText('O acesso é pelo e-mail informado: enviamos a ele um link para criar a senha');
  await dialog.getByLabel('CPF').fill('111.111.111-11');
  await dialog.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(dialog.getByText('Nome é obrigatório')).toBeVisible();
  await expect(dialog.getByText('CPF inválido')).toBeVisible();
  await dialog.getByLabel('Nome Completo').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('CPF').fill(cpf);
  await dialog.getByLabel('Telefone').fill('11987654321');
  await dialog.getByRole('button', { name: 'Cadastrar' }).click();
  const shown = page.getByRole('dialog', { name: 'Aluno cadastrado' });
  await expect(shown).toContainText(`Enviamos a ${name} um e-mail com o link para criar a senha; se ele não chegar, a senha inicial abaixo (o CPF, só os números)`);
  await expect(shown.getByLabel('Senha inicial')).toHaveText(cpf.replace(/\D/g, ''));
  await shown.getByRole('button', { name: 'Concluir' }).click();

  // A duplicate e-mail is refused with the server's message.
  await page.getByRole('button', { name: 'Novo Aluno' }).click();
  const again = page.getByRole('dialog', { name: 'Novo Aluno' });
  await again.getByLabel('Nome Completo').fill(name);
  await again.getByLabel('Email').fill(email);
  await again.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page.getByText('Erro ao cadastrar aluno')).toBeVisible();
  await expect(page.getByText('Já existe uma conta com este e-mail')).toBeVisible();
  await again.getByRole('button', { name: 'Cancelar' }).click();

  // Server-side search by CPF digits and by e-mail.
  const search = page.getByRole('searchbox', { name: 'Buscar aluno por nome, e-mail ou CPF' });
  await search.fill(cpf.replace(/\D/g, '').slice(0, 9));
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(cpf);
  await expect(card).toContainText('(11) 98765-4321');
  await expect(card).toContainText('Ativo');
  await search.fill(email);
  await expect(card).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Alunos' }).getByRole('listitem')).toHaveCount(1);

  // Enrollment made through the service role (the Enrollments screen is another journey).
  const { id } = (await api(`/rest/v1/profiles?select=id&email=eq.${encodeURIComponent(email)}`, { key: LOCAL_SERVICE_ROLE_KEY }))[0];
  await api('/rest/v1/enrollments', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ user_id: id, course_id: COURSE.excel, status: 'ACTIVE' }) });

  const student = await browser.newPage();
  const popup = student.getByRole('dialog').getByRole('button', { name: 'Entendi' });
  await student.addLocatorHandler(popup, () => popup.click());
  try {
    await signIn(student, email, cpf.replace(/\D/g, ''));
    const change = student.getByRole('dialog', { name: 'Alterar Senha' });
    await expect(change).toBeVisible();
    await change.getByLabel('Nova Senha').fill('minhaSenha123');
    await change.getByLabel('Confirmar Senha').fill('minhaSenha123');
    await change.getByRole('button', { name: 'Alterar Senha' }).click();
    await expect(student.getByText('Senha alterada!')).toBeVisible();
    await expect(student.getByRole('region', { name: 'Meus Cursos' }).getByRole('heading', { name: 'Excel Essencial para o Trabalho' })).toBeVisible();
  } finally {
    await student.close();
  }
});

test('reset password shows the temporary password once; deactivating ends an open session', async ({ page, browser }) => {
  const s = await freshStudent(`Desativar ${Math.random().toString(36).slice(2, 7)}`);
  const student = await browser.newPage();
  const popup = student.getByRole('dialog').getByRole('button', { name: 'Entendi' });
  await student.addLocatorHandler(popup, () => popup.click());
  try {
    await signInAndWaitHome(student, s.email);
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    await page.goto('/admin/students');
    await page.getByRole('searchbox', { name: 'Buscar aluno por nome, e-mail ou CPF' }).fill(s.email);
    const card = page.getByRole('list', { name: 'Alunos' }).getByRole('listitem');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('CPF não informado');

    await card.getByRole('button', { name: /Redefinir senha de/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Redefinir senha' }).click();
    const shown = page.getByRole('dialog', { name: 'Senha redefinida' });
    await expect(shown.getByLabel('Senha temporária')).toHaveText(/\S{6,}/);
    await shown.getByRole('button', { name: 'Concluir' }).click();
    await expect(shown).toHaveCount(0);

    await card.getByRole('switch').click();
    await expect(page.getByText('Aluno desativado! O acesso foi bloqueado.')).toBeVisible();
    await expect(card).toContainText('Inativo');

    // The student's open tab: the next read of the profile signs them out with the SPEC message.
    await student.bringToFront();
    await student.evaluate(() => window.dispatchEvent(new Event('focus')));
    await student.reload();
    await expect(student.getByText('Sua conta está inativa. Entre em contato com o administrador.')).toBeVisible();
    await expect(student).toHaveURL(/\/escola-demo$/);
  } finally {
    await student.close();
  }
  expect(SCHOOL_ID).toBeTruthy();
});

test("a student's card keeps a long address inside its border at 1280 and 360 px, and names each action with the student (issue 46)", async ({ page }) => {
  const s = await freshStudent(`Endereço Longo ${Math.random().toString(36).slice(2, 7)}`, { enrollIn: [] });
  const address = 'Rua Professora Maria José Albuquerque de Vasconcellos Cavalcanti, 1234, Bloco B, Apartamento 1502, Condomínio Residencial Jardim das Acácias Floridas, Jardim Paulistano, São Paulo - SP, 01452-000';
  await api(`/rest/v1/profiles?id=eq.${s.id}`, { method: 'PATCH', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ address }) });
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/admin/students?q=${encodeURIComponent(s.email)}`);
    const card = page.getByRole('list', { name: 'Alunos' }).getByRole('listitem');
    await expect(card).toHaveCount(1);
    const shown = card.getByText(address);
    await expect(shown).toBeVisible();
    const cardBox = (await card.boundingBox())!;
    const addressBox = (await shown.boundingBox())!;
    expect(addressBox.x + addressBox.width, `${width} px`).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    // Two lines at most: the rest is clipped, and read in full by the title and screen readers.
    const lineHeight = await shown.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(addressBox.height, `${width} px`).toBeLessThanOrEqual(2 * lineHeight + 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
    const name = (await card.getByRole('heading').textContent())!;
    for (const action of [`Editar ${name}`, `Redefinir senha de ${name}`, `Reenviar acesso de ${name}`, `E-mails de ${name}`, `Ver atividade de ${name}`]) {
      await expect(card.getByRole('button', { name: action, exact: true })).toBeVisible();
    }
    await page.screenshot({ path: test.info().outputPath(`student-card-${width}.png`) });
  }
});

test('a 200-row CSV with two bad rows imports 198, reports the two, and re-importing creates nothing new', async ({ page }) => {
  // 396 accounts through admin-create-student (bcrypt each): 3.3 min on a quiet CI run, over 5 on a busy one.
  test.setTimeout(480_000);
  // Letters only: a search with 3 or more digits also matches CPFs by their digits (admin_list_students),
  // so a tag like "mwxunxqn769" found a 199th student whose CPF holds 769.
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
  const lines = ['nome;email;cpf;telefone'];
  for (let i = 1; i <= 200; i++) lines.push(`Aluno Importado ${i};import.${tag}.${i}@exemplo.com.br;;`);
  lines[50] = `Sem Email;;;`; // row 50 (line 51): no e-mail
  lines[120] = `CPF Ruim;import.${tag}.ruim@exemplo.com.br;111.111.111-11;`; // line 121: invalid CPF
  const csv = Buffer.from(lines.join('\r\n'), 'latin1');

  // Its own admin: the import takes a while, and other journeys sign the seeded admin out everywhere.
  const admin = await freshSchoolAdmin('Admin Importação');
  await signInAndWaitHome(page, admin.email);
  await page.goto('/admin/students');
  for (const round of [1, 2]) {
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar alunos' });
    await dialog.getByLabel('Arquivo CSV').setInputFiles({ name: 'alunos.csv', mimeType: 'text/csv', buffer: csv });
    await expect(dialog.getByText('200 linhas, 198 válidas, 2 com erro (não serão importadas).', { exact: false })).toBeVisible();
    const preview = dialog.getByRole('table', { name: 'Prévia da importação' });
    await expect(preview.getByRole('row', { name: /^51 / })).toContainText('E-mail é obrigatório');
    await expect(preview.getByRole('row', { name: /^121 / })).toContainText('CPF inválido');
    await dialog.getByLabel('Matricular todos no curso (opcional)').selectOption({ label: 'Excel Essencial para o Trabalho' });
    await dialog.getByRole('button', { name: 'Importar 198 alunos' }).click();
    const result = dialog.getByRole('list', { name: 'Resultado da importação' });
    await expect(result).toBeVisible({ timeout: 210_000 });
    const failures = (await dialog.getByRole('table', { name: 'Linhas com falha' }).textContent()) ?? '';
    const summary = (await result.textContent()) ?? '';
    if (round === 1) expect(summary, failures).toContain('198 alunos criados0 já existiam');
    else expect(summary, failures).toContain('0 alunos criados198 já existiam');
    expect(summary, failures).toContain('2 com falha');
    const failed = dialog.getByRole('table', { name: 'Linhas com falha' });
    await expect(failed.getByRole('row')).toHaveCount(3);
    await expect(failed).toContainText('CPF inválido');
    await dialog.getByRole('button', { name: 'Concluir' }).click();
  }
  await page.getByRole('searchbox', { name: 'Buscar aluno por nome, e-mail ou CPF' }).fill(`import.${tag}.`);
  await expect(page.getByText('198 alunos encontrados')).toBeVisible();
});
