// Issue 26 "Done when", the lesson's side: a student asks under a lesson; a staff member replies in
// the lesson and marks the reply as the answer; the student sees "Resposta da equipe" with it; staff
// hide another student's comment and it is gone for students (and hidden in the database). Fresh
// accounts only: the rate limit counts a student's comments, and no other journey sees these.
import { expect, test, type Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { COURSE, LESSON, api, freshSchoolAdmin, freshStudent, passwordSession, signInAs } from './learning-helpers';

test.describe.configure({ timeout: 90_000 });

const LESSON_URL = `/course/${COURSE.excel}/lesson/${LESSON.procv}`;
const thread = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: /^Comentários/ }) });

test('a student asks, staff answer and mark it, the student sees the staff answer; a hidden comment is gone for students', async ({ browser }) => {
  const run = Date.now().toString(36);
  const ana = await freshStudent('Ana Pergunta');
  const bia = await freshStudent('Bia Desvio');
  const staff = await freshSchoolAdmin('Gil da Equipe');
  const question = `Como o PROCV encontra o valor? (${run})`;
  const answerText = `Ele procura na primeira coluna da tabela e devolve a coluna pedida. Veja https://exemplo.com.br/procv (${run})`;
  const offTopic = `Alguém quer comprar meu curso pirata? (${run})`;

  // Another student's comment, written through the API as that student.
  const biaSession = await passwordSession(bia.email);
  const [biaComment] = (await api('/rest/v1/lesson_comments?select=id', {
    method: 'POST',
    token: biaSession.access_token,
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify({ user_id: bia.id, lesson_id: LESSON.procv, comment: offTopic }),
  })) as { id: string }[];

  // 1. The student asks.
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  await signInAs(student, ana.email);
  await student.goto(LESSON_URL);
  await student.getByLabel('Escreva um comentário').fill(question);
  await student.getByRole('button', { name: 'Comentar' }).click();
  await expect(student.getByText('Comentário adicionado!')).toBeVisible();
  const asked = student.getByRole('article', { name: 'Comentário de Ana Pergunta' }).filter({ hasText: question });
  await expect(asked).toBeVisible();
  await expect(asked.getByRole('button', { name: 'Editar' })).toBeVisible();
  await expect(student.getByText(offTopic)).toBeVisible();

  // 2. Staff reply in the lesson, then mark the reply as the answer.
  const staffContext = await browser.newContext();
  const admin = await staffContext.newPage();
  await signInAs(admin, staff.email);
  await admin.goto(LESSON_URL);
  const theQuestion = admin.getByRole('listitem').filter({ has: admin.getByRole('article', { name: 'Comentário de Ana Pergunta' }).filter({ hasText: question }) });
  await theQuestion.getByRole('button', { name: 'Responder' }).click();
  await theQuestion.getByLabel('Responder a Ana Pergunta').fill(answerText);
  await theQuestion.locator('form').getByRole('button', { name: 'Responder' }).click();
  await expect(admin.getByText('Resposta enviada!')).toBeVisible();
  const reply = theQuestion.getByRole('article', { name: 'Resposta de Gil da Equipe' });
  await expect(reply.getByTestId('staff-badge')).toHaveText('Administração');
  await reply.getByRole('button', { name: 'Marcar como resposta' }).click();
  await expect(admin.getByText('Resposta marcada!')).toBeVisible();
  await expect(theQuestion.getByTestId('pinned-answer')).toContainText('Resposta da equipe');
  await expect(theQuestion.getByTestId('pinned-answer').getByRole('button', { name: 'Desmarcar resposta' })).toBeVisible();

  // 3. Staff hide the other student's comment, with a reason.
  const offTopicCard = admin.getByRole('article', { name: 'Comentário de Bia Desvio' }).filter({ hasText: offTopic });
  await offTopicCard.getByRole('button', { name: 'Ocultar' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Ocultar comentário' });
  await dialog.getByLabel('Motivo (opcional)').fill('Oferta de material pirata');
  await dialog.getByRole('button', { name: 'Ocultar' }).click();
  await expect(dialog).toBeHidden();
  await expect(offTopicCard).toContainText('Oculto para os alunos');
  await expect(offTopicCard).toContainText('Motivo: Oferta de material pirata');

  // In the database: hidden, with the reason kept for staff; the reply is the marked staff answer.
  const [hidden] = (await api(`/rest/v1/lesson_comments?select=hidden_at,lesson_comment_moderation(hidden_reason)&id=eq.${biaComment!.id}`, { key: LOCAL_SERVICE_ROLE_KEY })) as {
    hidden_at: string | null;
    lesson_comment_moderation: { hidden_reason: string } | null;
  }[];
  expect(hidden!.hidden_at).not.toBeNull();
  expect(hidden!.lesson_comment_moderation?.hidden_reason).toBe('Oferta de material pirata');
  const replies = (await api(`/rest/v1/lesson_comments?select=comment,author_role,marked_answer_at,parent:parent_id(comment)&user_id=eq.${staff.id}`, { key: LOCAL_SERVICE_ROLE_KEY })) as {
    comment: string;
    author_role: string;
    marked_answer_at: string | null;
    parent: { comment: string };
  }[];
  expect(replies).toEqual([{ comment: answerText, author_role: 'SCHOOL_ADMIN', marked_answer_at: expect.any(String), parent: { comment: question } }]);

  // 4. The student sees the staff answer pinned under the question; the hidden comment is gone.
  await student.reload();
  const mine = student.getByRole('listitem').filter({ has: student.getByRole('article', { name: 'Comentário de Ana Pergunta' }).filter({ hasText: question }) });
  const pinned = mine.getByTestId('pinned-answer');
  await expect(pinned).toContainText('Resposta da equipe');
  await expect(pinned).toContainText('Gil da Equipe');
  await expect(pinned.getByTestId('staff-badge')).toHaveText('Administração');
  const link = pinned.getByRole('link', { name: 'https://exemplo.com.br/procv' });
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(pinned.getByRole('button', { name: 'Marcar como resposta' })).toHaveCount(0);
  await expect(pinned.getByRole('button', { name: 'Ocultar' })).toHaveCount(0);
  await expect(student.getByText(offTopic)).toHaveCount(0);
  // And Bia, the author, no longer reads it either.
  const biaRows = (await api(`/rest/v1/lesson_comments?select=id&id=eq.${biaComment!.id}`, { token: biaSession.access_token })) as unknown[];
  expect(biaRows).toEqual([]);

  // Screenshots of the thread: staff and student, at 1280 and 360 px.
  for (const [who, page] of [
    ['equipe', admin],
    ['aluno', student],
  ] as const) {
    for (const width of [1280, 360]) {
      // Opened at that width, as a phone or a desktop would.
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(thread(page).getByTestId('comment').first()).toBeVisible();
      await thread(page).scrollIntoViewIfNeeded();
      await thread(page).screenshot({ path: test.info().outputPath(`discussao-${who}-${width}.png`) });
      // Nothing of the page sticks out to the right (the elements that do are named).
      const wider = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && el.getBoundingClientRect().width > 0)
          .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 60)} → ${Math.round(el.getBoundingClientRect().right)}`)
          .slice(0, 5),
      );
      expect(wider, `no horizontal scroll at ${width} px (${who})`).toEqual([]);
    }
  }
  await studentContext.close();
  await staffContext.close();
});
