// Issue 6 "Done when": the enrolled student's journeys. Read-only journeys use the seeded student
// (aluno: Excel, 2 of 7 lessons completed; the 7th, "Avaliação final", is a quiz); journeys that change data use a fresh enrolled student.
import { expect, test } from '@playwright/test';
import { COURSE, LESSON, freshStudent, readProgress, setProgress, signInAs } from './learning-helpers';

// The first requests to a freshly started backend can be slow: allow more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

test('home shows the true progress numbers and continues the last lesson', async ({ page }) => {
  await signInAs(page, 'aluno@escola-demo.com.br');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Bem-vindo de volta' })).toBeVisible();
  const mine = page.locator('section', { has: page.getByRole('heading', { name: 'Meus Cursos' }) });
  const excel = mine.getByTestId('course-card').filter({ hasText: 'Excel Essencial para o Trabalho' });
  await expect(excel.getByText('2 de 7 aulas completas')).toBeVisible();
  await expect(excel.getByText('29%')).toBeVisible();
  await expect(excel.getByText('Curso Bloqueado')).toHaveCount(0);
  await expect(page.getByTestId('overall-progress')).toContainText('2 de 7 aulas completas');
  await expect(page.getByTestId('overall-progress').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '29');
  // Not enrolled in Marketing: locked, with purchase and free lessons.
  const marketing = page.locator('section', { has: page.getByRole('heading', { name: 'Cursos Disponíveis' }) }).getByTestId('course-card').filter({ hasText: 'Marketing Digital' });
  await expect(marketing.getByText('Curso Bloqueado')).toBeVisible();
  await expect(marketing.getByRole('link', { name: 'Comprar Curso' })).toHaveAttribute('href', '/checkout/marketing-digital');
  await expect(marketing.getByRole('link', { name: 'Ver Aulas Gratuitas' })).toHaveAttribute('href', `/course/${COURSE.marketing}/lesson/e0000000-0000-4000-8000-000000000007`);

  // "Continuar assistindo": the lesson in progress (Fórmulas básicas, stopped at 0:03).
  await expect(page.getByRole('heading', { name: 'Continuar assistindo' })).toBeVisible();
  await page.getByRole('link', { name: /Continuar assistindo: Fórmulas básicas/ }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.excel}/lesson/${LESSON.formulas}$`));
  const video = page.getByTestId('lesson-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(2.9);
});

test('opens a course, a module and a lesson; moves across modules; opens materials', async ({ page }) => {
  await signInAs(page, 'aluno@escola-demo.com.br');
  await page.goto('/');
  await page.getByRole('link', { name: 'Excel Essencial para o Trabalho' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.excel}$`));
  await expect(page.getByRole('heading', { name: 'Módulos do Curso' })).toBeVisible();
  await expect(page.getByTestId('module-counts')).toHaveText('3 módulos · 7 aulas');
  await expect(page.getByTestId('not-enrolled')).toHaveCount(0);
  // The header ring shows the course progress.
  await expect(page.getByRole('banner').getByRole('progressbar', { name: 'Progresso do curso' })).toHaveAttribute('aria-valuenow', '29');

  await page.getByRole('link', { name: /Módulo 2: Fórmulas e funções/ }).click();
  await expect(page).toHaveURL(new RegExp(`/lesson/${LESSON.formulas}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Fórmulas básicas' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Trilha de navegação' })).toContainText('Início');
  await expect(page.getByRole('navigation', { name: 'Trilha de navegação' })).toContainText('Fórmulas e funções');
  await expect(page.getByTestId('lesson-content').getByRole('heading', { name: 'Fórmulas básicas' })).toBeVisible();
  // No download, no picture-in-picture, no context menu on the uploaded video.
  const video = page.getByTestId('lesson-video');
  await expect(video).toHaveAttribute('controlslist', /nodownload/);
  await expect(video).toHaveAttribute('disablepictureinpicture', '');
  expect(await video.getAttribute('src')).toContain('/storage/v1/object/sign/lesson-videos/');
  // Side panel: modules with whole-minute durations.
  await expect(page.getByRole('heading', { name: 'Ver todos os módulos' })).toBeVisible();
  await expect(page.getByTestId('lesson-sidebar').getByRole('link', { name: /PROCV na prática\s*15 min/ })).toBeVisible();

  // Materials: the PDF is saved stamped with the student's name (issue 39; its pages: watermark.spec.ts).
  await page.getByRole('tab', { name: /Materiais/ }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Apostila de fórmulas/ }).click()]);
  expect(download.suggestedFilename()).toBe('apostila-formulas.pdf');

  // Previous crosses back into module 1; next moves into module 2's second lesson.
  await page.getByRole('link', { name: 'Aula anterior' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Conhecendo a interface' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Trilha de navegação' })).toContainText('Primeiros passos');
  await page.getByRole('link', { name: 'Próxima aula' }).click();
  await page.getByRole('link', { name: 'Próxima aula' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'PROCV na prática' })).toBeVisible();
  await page.getByRole('tab', { name: /Materiais/ }).click();
  await expect(page.getByRole('link', { name: /Documentação oficial do PROCV/ })).toHaveAttribute('target', '_blank');
});

test('moving between lessons does not refetch the course outline', async ({ page }) => {
  await signInAs(page, 'aluno@escola-demo.com.br');
  const courseReads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/rest/v1/courses')) courseReads.push(r.url());
  });
  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.welcome}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Boas-vindas ao curso' })).toBeVisible();
  await page.getByRole('link', { name: 'Próxima aula' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Conhecendo a interface' })).toBeVisible();
  const panel = page.getByTestId('lesson-sidebar');
  await panel.getByRole('button', { name: /Gráficos e relatórios/ }).click();
  await panel.getByRole('link', { name: /Criando gráficos/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Criando gráficos' }).first()).toBeVisible();
  await expect(page.getByText('Nenhum vídeo disponível para esta aula.')).toBeVisible();
  expect(courseReads).toHaveLength(1);
});

test('completing a lesson by the button changes the progress on the home page', async ({ page }) => {
  const s = await freshStudent('Clara Conclui');
  await signInAs(page, s.email);
  await page.goto('/');
  const excel = page.getByTestId('course-card').filter({ hasText: 'Excel Essencial para o Trabalho' });
  await expect(excel.getByText('0 de 7 aulas completas')).toBeVisible();

  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.charts}`);
  const button = page.getByRole('button', { name: 'Marcar como concluída' });
  await button.click();
  await expect(page.getByText('Aula marcada como concluída!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aula concluída' })).toBeDisabled();
  await expect(page.getByRole('banner').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '14');
  // The check in the side panel completes another lesson.
  await page.getByRole('checkbox', { name: 'Marcar "Tabelas dinâmicas" como concluída' }).click();
  await expect(page.getByRole('checkbox', { name: 'Tabelas dinâmicas: concluída' })).toBeDisabled();
  await expect(page.getByRole('banner').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '29');

  await page.getByRole('link', { name: 'Início' }).click();
  await expect(excel.getByText('2 de 7 aulas completas')).toBeVisible();
  await expect(page.getByTestId('overall-progress')).toContainText('2 de 7 aulas completas');
  expect((await readProgress(s.id, LESSON.charts))?.completed_at).toBeTruthy();
});

test('rating saves on click and replaces the earlier one; comments newest first', async ({ page }) => {
  const s = await freshStudent('Rui Avaliador');
  await signInAs(page, s.email);
  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.procv}`);
  const stars = page.getByRole('radiogroup', { name: 'Avaliar esta aula' });
  await stars.getByRole('radio', { name: '4 estrelas' }).click();
  await expect(page.getByText('Avaliação enviada!').first()).toBeVisible();
  await stars.getByRole('radio', { name: '2 estrelas' }).click();
  await expect(stars.getByRole('radio', { name: '2 estrelas' })).toHaveAttribute('aria-checked', 'true');
  await page.reload();
  await expect(page.getByRole('radiogroup', { name: 'Avaliar esta aula' }).getByRole('radio', { name: '2 estrelas' })).toHaveAttribute('aria-checked', 'true');

  const send = page.getByRole('button', { name: 'Comentar' });
  const box = page.getByLabel('Escreva um comentário');
  await expect(send).toBeDisabled();
  await box.fill('   ');
  await expect(send).toBeDisabled();
  await box.fill('Primeiro comentário do Rui');
  await send.click();
  await expect(page.getByText('Comentário adicionado!')).toBeVisible();
  await expect(box).toHaveValue('');
  await box.fill('Segundo comentário do Rui');
  await send.click();
  const comments = page.getByTestId('comment');
  await expect(comments.first()).toContainText('Segundo comentário do Rui');
  await expect(comments.first()).toContainText('Rui Avaliador');
  await expect(comments.nth(1)).toContainText('Primeiro comentário do Rui');
  await page.reload();
  await expect(page.getByTestId('comment').first()).toContainText('Segundo comentário do Rui');
});

test('an uploaded video resumes at the saved position, saves it when leaving and completes at 90%', async ({ page }) => {
  const s = await freshStudent('Vera Vídeo');
  await setProgress(s.id, LESSON.formulas, { last_position_sec: 2 });
  await signInAs(page, s.email);
  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.formulas}`);
  const video = page.getByTestId('lesson-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(1.9);

  // Our speed control drives the player.
  await page.getByRole('button', { name: /Velocidade de reprodução/ }).click();
  await page.getByRole('menuitemradio', { name: '1,5x' }).click();
  expect(await video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.5);

  // Play to 4 s, pause, leave inside the app: the position is saved.
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    v.currentTime = 4;
    await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
    await v.play();
    await new Promise((r) => setTimeout(r, 300));
    v.pause();
  });
  await page.getByRole('link', { name: 'Voltar para o curso' }).click();
  await expect(page.getByRole('heading', { name: 'Módulos do Curso' })).toBeVisible();
  await expect.poll(async () => (await readProgress(s.id, LESSON.formulas))?.last_position_sec).toBeGreaterThanOrEqual(4);

  // Reopen: resumes there; playing on past 90% of duration_sec (6 s) completes the lesson.
  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.formulas}`);
  await expect.poll(() => page.getByTestId('lesson-video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(3.9);
  await page.getByTestId('lesson-video').evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect(page.getByText('Aula marcada como concluída!')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Aula concluída' })).toBeDisabled();
  expect((await readProgress(s.id, LESSON.formulas))?.completed_at).toBeTruthy();
});
