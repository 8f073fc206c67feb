import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import type { AdminComment } from '../../api/admin-queries';
import { CommentsPage } from './comments-page';

const api = vi.hoisted(() => ({
  addComment: vi.fn(),
  deleteComment: vi.fn(),
  hideComment: vi.fn(),
  unhideComment: vi.fn(),
  markCommentAnswer: vi.fn(),
  approveComment: vi.fn(),
}));
const admin = vi.hoisted(() => ({ fetchAdminComments: vi.fn(), fetchAdminCommentCounts: vi.fn() }));
const turmasApi = vi.hoisted(() => ({ fetchCourseTurmas: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
vi.mock('../../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...admin }));
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...turmasApi }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));

const row = (over: Partial<AdminComment>): AdminComment => ({
  id: 'c1',
  parent_id: null,
  course_id: 'course-1',
  course_title: 'Excel do zero',
  lesson_id: 'lesson-1',
  lesson_title: 'Fórmulas básicas',
  user_id: 'student-1',
  author_name: 'Bia Aluna',
  author_avatar_url: null,
  author_role: null,
  comment: 'Como faço um PROCV?',
  status: 'published',
  created_at: '2026-11-20T13:05:00Z',
  edited_at: null,
  hidden_at: null,
  hidden_reason: null,
  hidden_by_name: null,
  marked_answer_at: null,
  parent_author_name: null,
  parent_comment: null,
  reply_count: 0,
  answered: false,
  turma_name: null,
  ...over,
});

const QUESTION = row({});
const ANSWERED = row({
  id: 'c2',
  author_name: 'Caio Aluno',
  comment: 'Onde baixo a planilha?',
  answered: true,
  reply_count: 1,
});
const STAFF_REPLY = row({
  id: 'c3',
  parent_id: 'c2',
  author_name: 'Paula Admin',
  author_role: 'SCHOOL_ADMIN',
  comment: 'Nos materiais da aula: https://exemplo.com.br/planilha',
  parent_author_name: 'Caio Aluno',
  parent_comment: 'Onde baixo a planilha?',
  answered: null,
});
const PENDING = row({ id: 'c4', author_name: 'Davi Aluno', comment: 'Aguardando', status: 'pending' });
const HIDDEN = row({
  id: 'c5',
  author_name: 'Eva Aluna',
  comment: 'Texto ofensivo',
  hidden_at: '2026-11-21T12:00:00Z',
  hidden_reason: 'Linguagem ofensiva',
  hidden_by_name: 'Paula Admin',
});
const ROWS = [QUESTION, ANSWERED, STAFF_REPLY, PENDING, HIDDEN];
const courses = [
  { id: 'course-1', title: 'Excel do zero' },
  { id: 'course-2', title: 'Marketing Digital' },
];

const open = (route = '/admin/comments') => renderScreen(<CommentsPage schoolId="s1" courses={courses} />, { route });
const card = (name: string) => within(screen.getByRole('article', { name }));
const badges = (name: string) => {
  const list = within(screen.getByRole('article', { name })).queryByRole('list', { name: 'Situação' });
  return list
    ? within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent)
    : [];
};

describe('CommentsPage', () => {
  beforeEach(() => {
    for (const fn of [...Object.values(api), ...Object.values(admin)]) fn.mockReset();
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
    admin.fetchAdminComments.mockResolvedValue({ rows: ROWS, total: 5 });
    admin.fetchAdminCommentCounts.mockResolvedValue({ unanswered: 3, pending: 1, hidden: 1 });
    turmasApi.fetchCourseTurmas.mockReset().mockImplementation(async (_c: unknown, courseId: string) =>
      courseId === 'course-2'
        ? [{ id: 't1', course_id: 'course-2', name: 'Turma de março', starts_on: '2026-03-10', ends_on: null, enroll_from: null, enroll_until: null, seats: null, waitlist_enabled: false, status: 'em andamento', students: 3, seats_taken: 3, held: 0, waiting: 0 }]
        : [],
    );
  });

  it('lists every comment with its course, lesson, author, the question a reply answers, its situation and the total', async () => {
    open();
    expect(await screen.findByRole('article', { name: 'Comentário de Bia Aluna' })).toBeInTheDocument();
    expect(admin.fetchAdminComments).toHaveBeenCalledWith(expect.anything(), {
      schoolId: 's1',
      filters: { filter: 'all', courseId: '', turmaId: '', search: '' },
      page: 0,
    });
    const q = card('Comentário de Bia Aluna');
    expect(q.getByText('Como faço um PROCV?')).toBeInTheDocument();
    expect(q.getByText(/Excel do zero › Fórmulas básicas/)).toBeInTheDocument();
    expect(q.getByText('20/11/2026, 10:05')).toBeInTheDocument();
    expect(badges('Comentário de Bia Aluna')).toEqual(['Sem resposta']);
    expect(badges('Comentário de Caio Aluno')).toEqual(['Respondida']);
    expect(badges('Comentário de Davi Aluno')).toEqual(['Pendente']);
    expect(badges('Comentário de Eva Aluna')).toEqual(['Oculto']);
    expect(
      card('Comentário de Eva Aluna').getByText(
        /Oculto para os alunos por Paula Admin em 21\/11\/2026, 09:00 · Motivo: Linguagem ofensiva/,
      ),
    ).toBeInTheDocument();
    const reply = card('Resposta de Paula Admin');
    expect(badges('Resposta de Paula Admin')).toEqual(['Resposta']);
    expect(reply.getByText('Administração')).toBeInTheDocument();
    expect(reply.getByText(/Em resposta a/)).toHaveTextContent('Em resposta a Caio Aluno: Onde baixo a planilha?');
    expect(reply.getByRole('link', { name: 'https://exemplo.com.br/planilha' })).toHaveAttribute(
      'rel',
      'noopener noreferrer nofollow ugc',
    );
    // "Abrir aula" opens the lesson at the comment.
    expect(q.getByRole('link', { name: 'Abrir aula' })).toHaveAttribute(
      'href',
      '/course/course-1/lesson/lesson-1#comentario-c1',
    );
    expect(screen.getByText('5 comentários')).toBeInTheDocument();
  });

  it('offers each action only where the database allows it', async () => {
    open();
    await screen.findByRole('article', { name: 'Comentário de Bia Aluna' });
    const actions = (name: string) =>
      within(screen.getByRole('article', { name }))
        .getAllByRole('button')
        .map((b) => b.textContent);
    expect(actions('Comentário de Bia Aluna')).toEqual(['Responder', 'Ocultar', 'Excluir']);
    expect(actions('Resposta de Paula Admin')).toEqual(['Marcar como resposta', 'Ocultar', 'Excluir']);
    expect(actions('Comentário de Davi Aluno')).toEqual(['Aprovar', 'Ocultar', 'Excluir']);
    expect(actions('Comentário de Eva Aluna')).toEqual(['Mostrar', 'Excluir']);
  });

  it(
    'the filter, the course, the search and the page live in the URL; each change starts again at the first page',
    { timeout: 20_000 },
    async () => {
      admin.fetchAdminComments.mockResolvedValue({ rows: ROWS, total: 45 });
      const view = open('/admin/comments?filtro=sem-resposta&pagina=2');
      await screen.findByRole('article', { name: 'Comentário de Bia Aluna' });
      expect(admin.fetchAdminComments).toHaveBeenLastCalledWith(expect.anything(), {
        schoolId: 's1',
        filters: { filter: 'unanswered', courseId: '', turmaId: '', search: '' },
        page: 1,
      });
      const filters = within(screen.getByRole('group', { name: 'Mostrar' }));
      expect(await filters.findByRole('button', { name: 'Sem resposta (3)' })).toHaveAttribute('aria-pressed', 'true');
      expect(filters.getByRole('button', { name: 'Todos' })).toHaveAttribute('aria-pressed', 'false');
      expect(screen.getByText('Página 2 de 3')).toBeInTheDocument();
      expect(screen.getByText('45 comentários')).toBeInTheDocument();

      await userEvent.click(filters.getByRole('button', { name: 'Ocultos (1)' }));
      await waitFor(() => expect(currentLocation(view)).toBe('/admin/comments?filtro=ocultos'));
      await waitFor(() =>
        expect(admin.fetchAdminComments).toHaveBeenLastCalledWith(expect.anything(), {
          schoolId: 's1',
          filters: { filter: 'hidden', courseId: '', turmaId: '', search: '' },
          page: 0,
        }),
      );

      await userEvent.selectOptions(screen.getByLabelText('Curso'), 'course-2');
      await waitFor(() => expect(currentLocation(view)).toBe('/admin/comments?filtro=ocultos&curso=course-2'));

      await userEvent.type(screen.getByLabelText('Buscar comentário por texto ou autor'), 'procv');
      await waitFor(() => expect(currentLocation(view)).toBe('/admin/comments?filtro=ocultos&curso=course-2&q=procv'));
      await waitFor(() =>
        expect(admin.fetchAdminComments).toHaveBeenLastCalledWith(expect.anything(), {
          schoolId: 's1',
          filters: { filter: 'hidden', courseId: 'course-2', turmaId: '', search: 'procv' },
          page: 0,
        }),
      );

      await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
      await waitFor(() =>
        expect(currentLocation(view)).toBe('/admin/comments?filtro=ocultos&curso=course-2&q=procv&pagina=2'),
      );

      await userEvent.click(filters.getByRole('button', { name: 'Todos' }));
      await waitFor(() => expect(currentLocation(view)).toBe('/admin/comments?curso=course-2&q=procv'));
    },
  );

  it('an unknown filter or course in the URL lists everything', async () => {
    open('/admin/comments?filtro=xyz&curso=outra-escola');
    await screen.findByRole('article', { name: 'Comentário de Bia Aluna' });
    expect(admin.fetchAdminComments).toHaveBeenCalledWith(expect.anything(), {
      schoolId: 's1',
      filters: { filter: 'all', courseId: '', turmaId: '', search: '' },
      page: 0,
    });
  });

  it('"Responder" posts a reply as the signed-in staff under the question, and the list and counts refresh', async () => {
    api.addComment.mockResolvedValue({
      ...STAFF_REPLY,
      id: 'new',
      parent_id: 'c1',
      lesson_id: 'lesson-1',
      status: 'published',
    });
    open();
    await screen.findByRole('article', { name: 'Comentário de Bia Aluna' });
    expect(admin.fetchAdminComments).toHaveBeenCalledTimes(1);
    await userEvent.click(card('Comentário de Bia Aluna').getByRole('button', { name: 'Responder' }));
    const box = card('Comentário de Bia Aluna').getByLabelText('Responder a Bia Aluna');
    await userEvent.type(box, '  Use a função PROCV com 4 argumentos.  ');
    await userEvent.click(card('Comentário de Bia Aluna').getByRole('button', { name: 'Enviar resposta' }));
    await waitFor(() =>
      expect(api.addComment).toHaveBeenCalledWith(expect.anything(), {
        userId: 'u1',
        lessonId: 'lesson-1',
        comment: 'Use a função PROCV com 4 argumentos.',
        parentId: 'c1',
      }),
    );
    expect(toast.success).toHaveBeenCalledWith('Resposta enviada!');
    await waitFor(() =>
      expect(card('Comentário de Bia Aluna').queryByLabelText('Responder a Bia Aluna')).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(admin.fetchAdminComments).toHaveBeenCalledTimes(2));
    expect(admin.fetchAdminCommentCounts).toHaveBeenCalledTimes(2);
  });

  it('a refused reply keeps the text and shows the database message', async () => {
    api.addComment.mockRejectedValue({ code: 'DC400', message: 'Este comentário não aceita respostas no momento.' });
    open();
    await screen.findByRole('article', { name: 'Comentário de Bia Aluna' });
    await userEvent.click(card('Comentário de Bia Aluna').getByRole('button', { name: 'Responder' }));
    await userEvent.type(card('Comentário de Bia Aluna').getByLabelText('Responder a Bia Aluna'), 'Resposta');
    await userEvent.click(card('Comentário de Bia Aluna').getByRole('button', { name: 'Enviar resposta' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Erro ao adicionar comentário',
        expect.objectContaining({ description: 'Este comentário não aceita respostas no momento.' }),
      ),
    );
    expect(card('Comentário de Bia Aluna').getByLabelText('Responder a Bia Aluna')).toHaveValue('Resposta');
  });

  it('marks a reply as the answer, approves, hides with a reason, shows again and deletes after confirming', async () => {
    for (const fn of [api.markCommentAnswer, api.approveComment, api.hideComment, api.unhideComment, api.deleteComment])
      fn.mockResolvedValue(undefined);
    open();
    await screen.findByRole('article', { name: 'Comentário de Bia Aluna' });

    await userEvent.click(card('Resposta de Paula Admin').getByRole('button', { name: 'Marcar como resposta' }));
    await waitFor(() =>
      expect(api.markCommentAnswer).toHaveBeenCalledWith(expect.anything(), { id: 'c3', marked: true }),
    );
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Resposta marcada!'));

    await userEvent.click(card('Comentário de Davi Aluno').getByRole('button', { name: 'Aprovar' }));
    await waitFor(() => expect(api.approveComment).toHaveBeenCalledWith(expect.anything(), 'c4'));

    await userEvent.click(card('Comentário de Bia Aluna').getByRole('button', { name: 'Ocultar' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Ocultar comentário' }));
    await userEvent.type(dialog.getByLabelText('Motivo (opcional)'), 'Fora do assunto');
    await userEvent.click(dialog.getByRole('button', { name: 'Ocultar' }));
    await waitFor(() =>
      expect(api.hideComment).toHaveBeenCalledWith(expect.anything(), { id: 'c1', reason: 'Fora do assunto' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ocultar comentário' })).not.toBeInTheDocument());

    await userEvent.click(card('Comentário de Eva Aluna').getByRole('button', { name: 'Mostrar' }));
    await waitFor(() => expect(api.unhideComment).toHaveBeenCalledWith(expect.anything(), 'c5'));

    await userEvent.click(card('Comentário de Caio Aluno').getByRole('button', { name: 'Excluir' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Excluir comentário?' }));
    expect(api.deleteComment).not.toHaveBeenCalled();
    await userEvent.click(confirm.getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(api.deleteComment).toHaveBeenCalledWith(expect.anything(), 'c2'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Comentário excluído!'));
  });

  it('says when a filter has nothing, and a failed load offers a retry', async () => {
    admin.fetchAdminComments.mockResolvedValueOnce({ rows: [], total: 0 });
    const view = open('/admin/comments?filtro=sem-resposta');
    expect(await screen.findByText('Nenhuma pergunta sem resposta')).toBeInTheDocument();
    expect(screen.getByText('0 comentários')).toBeInTheDocument();
    view.unmount();

    admin.fetchAdminComments.mockReset();
    admin.fetchAdminComments.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ rows: ROWS, total: 5 });
    open();
    expect(await screen.findByText('Não foi possível carregar os comentários')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('article', { name: 'Comentário de Bia Aluna' })).toBeInTheDocument();
  });

  it('Turma (Discussões por turma): for a course with turmas, the turma in the URL reaches the query; another course clears it', async () => {
    const view = open('/admin/comments?curso=course-2');
    await userEvent.selectOptions(await screen.findByLabelText('Turma'), 't1');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/comments?curso=course-2&turma=t1'));
    await waitFor(() =>
      expect(admin.fetchAdminComments).toHaveBeenLastCalledWith(expect.anything(), {
        schoolId: 's1',
        filters: { filter: 'all', courseId: 'course-2', turmaId: 't1', search: '' },
        page: 0,
      }),
    );
    await userEvent.selectOptions(screen.getByLabelText('Curso'), 'course-1');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/comments?curso=course-1'));
    expect(screen.queryByLabelText('Turma')).toBeNull();
  });

  it("shows the turma a comment was written in", async () => {
    admin.fetchAdminComments.mockResolvedValue({ rows: [row({ turma_name: 'Turma de março' })], total: 1 });
    open();
    expect(within(await screen.findByRole('article', { name: 'Comentário de Bia Aluna' })).getByText(/Turma de março/)).toBeInTheDocument();
  });
});
