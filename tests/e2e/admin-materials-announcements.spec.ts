// Issue 9: the Materials and Announcements screens. A staff member adds, copies and deletes a link
// material; an announcement with priority 100 pops up for a student of the school. (The announcement
// journey runs at Academia Rival so the Escola Demo popup other journeys meet stays as seeded.)
import { expect, PASSWORD, signInAndWaitHome, test } from './helpers';

test('materials: add a link to a course, copy it, edit and delete it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const title = `Guia rápido ${Math.random().toString(36).slice(2, 7)}`;
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/materials');
  await expect(page.getByRole('heading', { level: 1, name: 'Materiais' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Materiais' }).getByRole('listitem').first()).toBeVisible();

  await page.getByRole('button', { name: 'Novo Material' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo Material' });
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText('Título é obrigatório')).toBeVisible();
  await expect(dialog.getByText('URL é obrigatória')).toBeVisible();
  await dialog.getByLabel('Título').fill(title);
  await dialog.getByLabel('URL').fill('https://exemplo.com/guia');
  await dialog.getByLabel('Tipo').selectOption('LINK');
  await dialog.getByLabel('Curso').selectOption({ label: 'Excel Essencial para o Trabalho' });
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Material adicionado!')).toBeVisible();

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card).toContainText('Excel Essencial para o Trabalho');
  await expect(card).toContainText('Link');
  await card.getByRole('button', { name: `Copiar link de ${title}` }).click();
  await expect(page.getByText('Link copiado!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('https://exemplo.com/guia');
  await expect(page.getByText('Link copiado!')).toBeHidden({ timeout: 5000 });

  await card.getByRole('button', { name: `Editar ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Material' });
  await edit.getByLabel('Título').fill(`${title} (v2)`);
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Material atualizado!')).toBeVisible();
  const edited = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `${title} (v2)` }) });
  await edited.getByRole('button', { name: `Excluir ${title} (v2)` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Material excluído!')).toBeVisible();
  await expect(edited).toHaveCount(0);
});

test('announcements: priority 100 goes first and pops up for a student; inactive ones are tagged', async ({ page, browser }) => {
  const title = `Aviso urgente ${Math.random().toString(36).slice(2, 7)}`;
  await signInAndWaitHome(page, 'admin@academia-rival.com.br', PASSWORD, 'academia-rival');
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: 'Novo Anúncio' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo Anúncio' });
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText('Título é obrigatório')).toBeVisible();
  await expect(dialog.getByText('Mensagem é obrigatória')).toBeVisible();
  await dialog.getByLabel('Título').fill(title);
  await dialog.getByRole('textbox', { name: 'Mensagem' }).fill('Aula ao vivo amanhã às 20h.');
  await dialog.getByRole('radio', { name: 'YouTube ou Vimeo' }).click();
  await dialog.getByLabel('URL do vídeo').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await dialog.getByLabel('Prioridade').fill('100');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Anúncio criado!')).toBeVisible();
  const items = page.getByRole('list', { name: 'Anúncios' }).getByRole('listitem');
  await expect(items.first()).toContainText(title);
  await expect(items.first()).toContainText('Prioridade 100');

  const student = await browser.newPage();
  try {
    await student.goto('/academia-rival');
    const form = student.getByRole('form', { name: 'Login' });
    await form.getByLabel('Email').fill('aluno@academia-rival.com.br');
    await form.getByLabel('Senha').fill(PASSWORD);
    await form.getByRole('button', { name: 'Entrar' }).click();
    const popup = student.getByRole('dialog', { name: title });
    await expect(popup).toBeVisible();
    await expect(popup).toContainText('Aula ao vivo amanhã às 20h.');
    await popup.getByRole('button', { name: 'Entendi' }).click();
  } finally {
    await student.close();
  }

  // Deactivate: the list tags it 'Inativo'; then delete it.
  await items.first().getByRole('button', { name: `Editar ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Anúncio' });
  await edit.getByRole('switch', { name: 'Ativo' }).click();
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Anúncio atualizado!')).toBeVisible();
  const row = items.filter({ hasText: title });
  await expect(row.getByText('Inativo')).toBeVisible();
  await row.getByRole('button', { name: `Excluir ${title}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Anúncio excluído!')).toBeVisible();
  await expect(row).toHaveCount(0);
});
