// Issue 23, Avaliações: the admin builds a 5-question quiz (one question in the dialog, four from a
// CSV) with pass mark 60% and 2 attempts 1 hour apart, and publishes it. The student fails once and
// sees the wait; the clock moves an hour on (the attempt's times move an hour back, with the service
// role); the student passes, the lesson completes, and only then the certificate can be downloaded.
import { expect, test } from './helpers';
import { SCHOOL_ID, api, freshSchoolAdmin, freshStudent, setProgress, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

test.describe.configure({ timeout: 120_000 });

const service = { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' } };

async function insert(table: string, row: Record<string, unknown>): Promise<string> {
  const rows = await api(`/rest/v1/${table}`, { method: 'POST', ...service, body: JSON.stringify(row) });
  return rows[0].id as string;
}

/** The four questions the CSV brings: statement, options, the numbers of the correct ones. */
const CSV_QUESTIONS = [
  ['Qual função soma um intervalo?', ['SOMA', 'MÉDIA', 'MÁXIMO'], '1'],
  ['O Excel diferencia maiúsculas em nomes de funções?', ['Verdadeiro', 'Falso'], '2'],
  ['Quais são referências absolutas?', ['$A$1', 'A1', '$B$2'], '1,3'],
  ['Qual atalho salva a planilha?', ['Ctrl+S', 'Ctrl+P'], '1'],
] as const;

test('the admin builds a quiz; the student fails, waits an hour, passes, and only then gets the certificate', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 7);
  const courseId = await insert('courses', { school_id: SCHOOL_ID, title: `Excel Avaliado ${tag}`, slug: `e2e-quiz-${tag}`, status: 'PUBLISHED' });
  const moduleId = await insert('modules', { course_id: courseId, title: `Módulo ${tag}`, order_index: 0 });
  const first = await insert('lessons', { module_id: moduleId, course_id: courseId, title: `Aula de fórmulas ${tag}`, order_index: 0, duration_sec: 3600 });
  const exam = await insert('lessons', { module_id: moduleId, course_id: courseId, title: `Prova final ${tag}`, order_index: 1 });
  const admin = await freshSchoolAdmin(`Admin Provas ${tag}`);
  const student = await freshStudent(`Aluno Provas ${tag}`, { enrollIn: [courseId] });

  // ── The admin builds and publishes the quiz ─────────────────────────────────────────────────
  await signInAs(page, admin.email);
  await page.goto(`/admin/courses/${courseId}/content`);
  await page.getByRole('button', { name: `Ações da aula Prova final ${tag}` }).click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const lessonDialog = page.getByRole('dialog', { name: 'Editar Aula' });
  await lessonDialog.getByRole('tab', { name: 'Avaliação' }).click();
  await lessonDialog.getByRole('button', { name: 'Criar avaliação' }).click();

  await lessonDialog.getByLabel('Nota mínima para aprovação (%)').fill('60');
  await lessonDialog.getByLabel('Tentativas permitidas').selectOption('2');
  await lessonDialog.getByLabel('Intervalo entre tentativas (horas)').fill('1');
  await lessonDialog.getByRole('button', { name: 'Salvar configurações' }).click();
  await expect(page.getByText('Configurações salvas!').first()).toBeVisible();

  // One question in the dialog…
  await lessonDialog.getByRole('button', { name: 'Adicionar pergunta' }).click();
  const questionDialog = page.getByRole('dialog', { name: /Nova pergunta/ });
  await questionDialog.getByLabel('Enunciado (Markdown)').fill('Qual fórmula **conta** células não vazias?');
  await questionDialog.getByLabel('Opção 1', { exact: true }).fill('CONT.VALORES');
  await questionDialog.getByLabel('Opção 2', { exact: true }).fill('CONT.SE');
  await questionDialog.getByLabel('Correta').first().click();
  await questionDialog.getByLabel('Explicação (opcional)').fill('CONT.VALORES conta as células preenchidas.');
  await questionDialog.getByRole('button', { name: 'Salvar pergunta' }).click();
  await expect(questionDialog).toBeHidden();

  // …and four from a CSV.
  await lessonDialog.getByRole('button', { name: 'Importar CSV' }).click();
  const importDialog = page.getByRole('dialog', { name: /Importar perguntas/ });
  const csv = ['pergunta;opção 1;opção 2;opção 3;corretas', ...CSV_QUESTIONS.map(([q, options, correct]) => [q, ...options, ...(options.length < 3 ? [''] : []), correct].join(';'))].join('\n');
  await importDialog.getByLabel('Arquivo CSV').setInputFiles({ name: 'perguntas.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await importDialog.getByRole('button', { name: 'Importar 4 perguntas' }).click();
  await expect(importDialog).toBeHidden();
  await expect(lessonDialog.getByRole('heading', { name: 'Perguntas (5)' })).toBeVisible();

  await lessonDialog.getByRole('button', { name: 'Publicar avaliação' }).click();
  await expect(lessonDialog.getByTestId('quiz-status')).toHaveText('Publicada');

  // ── The student: the other lesson done, the quiz failed once ────────────────────────────────
  await setProgress(student.id, first, { completed_at: new Date().toISOString() });
  const context = await browser.newContext();
  const learner = await context.newPage();
  await signInAs(learner, student.email);
  await learner.goto(`/course/${courseId}`);
  await expect(learner.getByRole('button', { name: 'Baixar certificado' })).toHaveCount(0);

  await learner.goto(`/course/${courseId}/lesson/${exam}`);
  await expect(learner.getByText('0 de 2 usadas')).toBeVisible();
  await learner.getByRole('button', { name: 'Iniciar avaliação' }).click();
  await learner.getByRole('button', { name: 'Todas' }).click();
  // Wrong on purpose: CONT.SE, then blanks for the rest.
  await learner.getByRole('radio', { name: 'CONT.SE' }).click();
  await learner.getByRole('button', { name: 'Enviar respostas' }).click();
  const confirm = learner.getByRole('alertdialog');
  await expect(confirm).toContainText('Você deixou 4 perguntas em branco. Enviar mesmo assim?');
  await confirm.getByRole('button', { name: /Enviar/ }).click();
  await expect(learner.getByText('Sua nota: 0%')).toBeVisible();
  await expect(learner.getByText(/Nova tentativa liberada em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/)).toBeVisible();
  // "Reprovado" once on the page (issue 46): the result's verdict.
  await expect(learner.getByTestId('quiz-verdict')).toHaveText('Reprovado');
  await expect(learner.getByText(/Reprovado/)).toHaveCount(1);
  await expect(learner.getByRole('button', { name: 'Iniciar avaliação' })).toHaveCount(0);
  expect(await completedAt(student.id, exam)).toBeNull();

  // ── An hour later ───────────────────────────────────────────────────────────────────────────
  const attempts = await api(`/rest/v1/quiz_attempts?select=id,started_at,submitted_at&user_id=eq.${student.id}`, { key: LOCAL_SERVICE_ROLE_KEY });
  for (const a of attempts as { id: string; started_at: string; submitted_at: string }[]) {
    const back = (at: string) => new Date(Date.parse(at) - 61 * 60_000).toISOString();
    await api(`/rest/v1/quiz_attempts?id=eq.${a.id}`, { method: 'PATCH', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ started_at: back(a.started_at), submitted_at: back(a.submitted_at) }) });
  }
  await learner.reload();
  await expect(learner.getByText('1 de 2 usadas')).toBeVisible();
  await learner.getByRole('button', { name: 'Iniciar avaliação' }).click();
  await learner.getByRole('button', { name: 'Todas' }).click();
  await learner.getByRole('radio', { name: 'CONT.VALORES' }).click();
  await learner.getByRole('radio', { name: 'SOMA' }).click();
  await learner.getByRole('radio', { name: 'Falso' }).click();
  await learner.getByRole('checkbox', { name: '$A$1' }).click();
  await learner.getByRole('checkbox', { name: '$B$2' }).click();
  // Ctrl+S left blank: 4 of 5 = 80%.
  await learner.getByRole('button', { name: 'Enviar respostas' }).click();
  await learner.getByRole('alertdialog').getByRole('button', { name: /Enviar/ }).click();
  await expect(learner.getByText('Sua nota: 80%')).toBeVisible();
  await expect(learner.getByText('CONT.VALORES conta as células preenchidas.')).toBeVisible();
  await expect.poll(() => completedAt(student.id, exam)).not.toBeNull();

  // ── Only now the certificate ────────────────────────────────────────────────────────────────
  await learner.goto(`/course/${courseId}`);
  const button = learner.getByTestId('certificate-card').getByRole('button', { name: 'Baixar certificado' });
  await expect(button).toBeVisible();
  const [download] = await Promise.all([learner.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(`certificado-e2e-quiz-${tag}.pdf`);
  await context.close();
});

async function completedAt(userId: string, lessonId: string): Promise<string | null> {
  const rows = await api(`/rest/v1/progress?select=completed_at&user_id=eq.${userId}&lesson_id=eq.${lessonId}`, { key: LOCAL_SERVICE_ROLE_KEY });
  return (rows[0]?.completed_at as string | undefined) ?? null;
}
