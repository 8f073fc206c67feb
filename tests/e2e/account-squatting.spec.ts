// Issue 19 item 1 on the staff screens: an address a stranger signed up (never confirmed) is imported
// and enrolled like any other, but the import and the Enrollments screen say "Aguardando confirmação do
// e-mail" instead of pretending the student has access.
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { expect, signInAndWaitHome, test } from './helpers';
import { COURSE, SCHOOL_ID, api, freshSchoolAdmin } from './learning-helpers';

test('a squatted address is imported and enrolled as waiting for confirmation, on the import and on Matrículas', async ({ page }) => {
  test.setTimeout(90_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const squatted = `vitima.${tag}@exemplo.com.br`;
  const squatterName = `Atacante ${tag}`;
  // What a stranger's sign-up leaves: an unconfirmed account with their own password.
  await api('/auth/v1/admin/users', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ email: squatted, password: 'senhaDoAtacante1', email_confirm: false, user_metadata: { name: squatterName, school_id: SCHOOL_ID } }),
  });
  const csv = Buffer.from(['nome;email', `Dona Real;${squatted}`, `Aluno Novo;novo.${tag}@exemplo.com.br`].join('\r\n'), 'utf8');

  const admin = await freshSchoolAdmin('Admin Confirmação');
  await signInAndWaitHome(page, admin.email);
  await page.goto('/admin/students');
  await page.getByRole('button', { name: 'Importar CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar alunos' });
  await dialog.getByLabel('Arquivo CSV').setInputFiles({ name: 'alunos.csv', mimeType: 'text/csv', buffer: csv });
  await dialog.getByLabel('Matricular todos no curso (opcional)').selectOption({ label: 'Excel Essencial para o Trabalho' });
  await dialog.getByRole('button', { name: 'Importar 2 alunos' }).click();
  const result = dialog.getByRole('list', { name: 'Resultado da importação' });
  await expect(result).toContainText('1 aluno criado');
  await expect(result).toContainText('1 aguardando confirmação do e-mail');
  await expect(result).toContainText('0 com falha');
  const waiting = dialog.getByRole('table', { name: 'Aguardando confirmação do e-mail' });
  await expect(waiting.getByRole('row', { name: new RegExp(squatted.replace(/\./g, '\\.')) })).toContainText('Aguardando confirmação do e-mail');
  await dialog.getByRole('button', { name: 'Concluir' }).click();

  await page.goto('/admin/enrollments');
  await page.getByLabel('Curso', { exact: true }).selectOption(COURSE.excel);
  await page.getByLabel('Status', { exact: true }).selectOption('PENDING');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: squatterName }) });
  await expect(card).toContainText('Aguardando confirmação');
  await expect(card).toContainText('O acesso será liberado quando o aluno confirmar o e-mail');
  await expect(card.getByRole('switch')).toHaveCount(0);

  // The enrollment dialog says the same about a new enrollment of that account.
  await page.getByRole('button', { name: 'Nova Matrícula' }).click();
  const enroll = page.getByRole('dialog', { name: 'Nova Matrícula' });
  await enroll.getByLabel('Buscar aluno').fill(squatted);
  await enroll.getByRole('radio', { name: new RegExp(squatterName) }).click();
  await enroll.getByLabel('Curso').selectOption(COURSE.marketing);
  await enroll.getByRole('button', { name: 'Matricular' }).click();
  await expect(page.getByText('Matrícula aguardando confirmação do e-mail')).toBeVisible();
  await expect(page.getByText('Aluno matriculado!')).toHaveCount(0);
});
