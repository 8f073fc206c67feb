// Issue 10, Enrollments: the admin enrolls a student, who opens the course; a paused enrollment meets
// 'Acesso Restrito'; activated again, the lesson opens.
import { expect, signInAndWaitHome, test } from './helpers';
import { COURSE, LESSON, freshStudent, signInAs } from './learning-helpers';

test('enroll, pause (Acesso Restrito) and activate again', async ({ page, browser }) => {
  const name = `Matrícula ${Math.random().toString(36).slice(2, 7)}`;
  const s = await freshStudent(name, { enrollIn: [] });
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/enrollments');
  await page.getByRole('button', { name: 'Nova Matrícula' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova Matrícula' });
  const submit = dialog.getByRole('button', { name: 'Matricular' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Buscar aluno').fill(s.email);
  await dialog.getByRole('radio', { name: new RegExp(name) }).click();
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Curso').selectOption(COURSE.excel);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText('Aluno matriculado!')).toBeVisible();

  // The same enrollment again: a clear message.
  await page.getByRole('button', { name: 'Nova Matrícula' }).click();
  const again = page.getByRole('dialog', { name: 'Nova Matrícula' });
  await again.getByLabel('Buscar aluno').fill(s.email);
  await again.getByRole('radio', { name: new RegExp(name) }).click();
  await again.getByLabel('Curso').selectOption(COURSE.excel);
  await again.getByRole('button', { name: 'Matricular' }).click();
  await expect(page.getByText('Erro ao matricular aluno')).toBeVisible();
  await expect(page.getByText('Este aluno já está matriculado neste curso.')).toBeVisible();
  await again.getByRole('button', { name: 'Cancelar' }).click();

  await page.getByLabel('Curso', { exact: true }).selectOption(COURSE.excel);
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
  await expect(card).toContainText('Excel Essencial para o Trabalho');
  await expect(card).toContainText('Ativo');

  const student = await browser.newPage();
  try {
    await signInAs(student, s.email);
    await student.goto(`/course/${COURSE.excel}/lesson/${LESSON.formulas}`);
    await expect(student.getByRole('heading', { level: 1, name: 'Fórmulas básicas' })).toBeVisible();

    await card.getByRole('switch').click();
    await expect(page.getByText('Matrícula pausada!')).toBeVisible();
    await expect(card).toContainText('Pausado');
    await page.getByLabel('Status', { exact: true }).selectOption('PAUSED');
    await expect(card).toBeVisible();

    await student.reload();
    await expect(student.getByRole('heading', { name: 'Acesso Restrito' })).toBeVisible();

    await card.getByRole('switch').click();
    await expect(page.getByText('Matrícula ativada!')).toBeVisible();
    await student.reload();
    await expect(student.getByRole('heading', { level: 1, name: 'Fórmulas básicas' })).toBeVisible();
  } finally {
    await student.close();
  }
});
