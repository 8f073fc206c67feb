import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { toast } from '@/platform/toast';
import type { DiscussionComment } from '../api/queries';
import LessonDiscussion from './lesson-discussion';

const api = vi.hoisted(() => ({
  fetchLessonComments: vi.fn(),
  addComment: vi.fn(),
  editComment: vi.fn(),
  deleteComment: vi.fn(),
  hideComment: vi.fn(),
  unhideComment: vi.fn(),
  markCommentAnswer: vi.fn(),
  approveComment: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const HOUR = 3_600_000;
let n = 0;
function comment(over: Partial<DiscussionComment>): DiscussionComment {
  n += 1;
  return {
    id: `c${n}`,
    user_id: 'outro',
    lesson_id: 'l1',
    parent_id: null,
    comment: `Comentário ${n}`,
    author_name: 'Bia Aluna',
    author_avatar_url: null,
    author_role: null,
    status: 'published',
    created_at: ago(5 * HOUR),
    edited_at: null,
    hidden_at: null,
    marked_answer_at: null,
    lesson_comment_moderation: null,
    ...over,
  };
}

function show(comments: DiscussionComment[], { isStaff = false, userId = 'u1' } = {}) {
  api.fetchLessonComments.mockResolvedValue(comments);
  return renderScreen(<LessonDiscussion lessonId="l1" userId={userId} userName="Ana Aluna" isStaff={isStaff} />);
}

describe('LessonDiscussion', () => {
  beforeEach(() => {
    for (const fn of Object.values(api)) fn.mockReset();
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
  });

  it('shows questions newest first, replies under their question in order, the staff badge and the pinned answer', async () => {
    const old = comment({ id: 'q-old', comment: 'Pergunta antiga', created_at: ago(10 * HOUR) });
    const recent = comment({ id: 'q-new', comment: 'Pergunta nova', created_at: ago(2 * HOUR) });
    const r1 = comment({ parent_id: 'q-old', comment: 'Primeira resposta', author_name: 'Caio Aluno', created_at: ago(9 * HOUR) });
    const staff = comment({ parent_id: 'q-old', comment: 'Resposta do instrutor', author_name: 'Igor', author_role: 'INSTRUCTOR', created_at: ago(8 * HOUR), marked_answer_at: ago(HOUR) });
    const r3 = comment({ parent_id: 'q-old', comment: 'Terceira resposta', author_name: 'Caio Aluno', created_at: ago(7 * HOUR) });
    const admin = comment({ parent_id: 'q-new', comment: 'Da administração', author_name: 'Ana Admin', author_role: 'SCHOOL_ADMIN', created_at: ago(HOUR) });
    // The list arrives newest first (as the database sends it), replies mixed in.
    show([admin, recent, r3, staff, r1, old]);

    const questions = await screen.findAllByTestId('comment');
    expect(questions.map((q) => q.querySelector('p.whitespace-pre-line')?.textContent)).toEqual(['Pergunta nova', 'Pergunta antiga']);
    expect(screen.getByRole('heading', { name: /Comentários/ })).toHaveTextContent('(6)');

    const oldThread = questions[1]!.closest('li')!;
    const pinned = within(oldThread).getByTestId('pinned-answer');
    expect(pinned).toHaveTextContent('Resposta da equipe');
    expect(pinned).toHaveTextContent('Resposta do instrutor');
    expect(within(pinned).getByTestId('staff-badge')).toHaveTextContent('Instrutor');
    const replies = within(within(oldThread).getByRole('list', { name: 'Respostas ao comentário de Bia Aluna' })).getAllByTestId('reply');
    expect(replies.map((r) => r.textContent)).toEqual([expect.stringContaining('Primeira resposta'), expect.stringContaining('Terceira resposta')]);

    const newThread = questions[0]!.closest('li')!;
    expect(within(newThread).getByTestId('staff-badge')).toHaveTextContent('Administração');
    expect(within(newThread).queryByTestId('pinned-answer')).toBeNull();
  });

  it('"Responder" opens a reply box under the question and sends the reply with its parent', async () => {
    const q = comment({ id: 'q1', comment: 'Como faço?' });
    show([q]);
    await userEvent.click(await screen.findByRole('button', { name: 'Responder' }));
    api.addComment.mockResolvedValue(comment({ id: 'r1', parent_id: 'q1', user_id: 'u1', author_name: 'Ana Aluna', comment: 'Assim', created_at: new Date().toISOString() }));
    await userEvent.type(screen.getByLabelText('Responder a Bia Aluna'), 'Assim');
    await userEvent.click(within(screen.getByLabelText('Responder a Bia Aluna').closest('form')!).getByRole('button', { name: 'Responder' }));
    await waitFor(() => expect(api.addComment).toHaveBeenCalledWith(expect.anything(), { userId: 'u1', lessonId: 'l1', comment: 'Assim', parentId: 'q1' }));
    expect(await screen.findByTestId('reply')).toHaveTextContent('Assim');
    expect(screen.queryByLabelText('Responder a Bia Aluna')).toBeNull();
    expect(toast.success).toHaveBeenCalledWith('Resposta enviada!');
  });

  it("marks the student's own pending comment and says so when it is sent", async () => {
    show([comment({ user_id: 'u1', author_name: 'Ana Aluna', status: 'pending', comment: 'Minha dúvida' })]);
    const mine = await screen.findByTestId('comment');
    expect(mine).toHaveTextContent('Aguardando aprovação');
    api.addComment.mockResolvedValue(comment({ user_id: 'u1', author_name: 'Ana Aluna', status: 'pending', comment: 'Outra', created_at: new Date().toISOString() }));
    await userEvent.type(screen.getByLabelText('Escreva um comentário'), 'Outra');
    await userEvent.click(screen.getByRole('button', { name: 'Comentar' }));
    await waitFor(() => expect(screen.getAllByText('Aguardando aprovação')).toHaveLength(2));
    expect(toast.success).toHaveBeenCalledWith('Comentário enviado!', expect.objectContaining({ description: expect.stringContaining('aprovado') }));
  });

  it('offers "Editar" to the author only, and takes it away 15 minutes after posting', async () => {
    const fresh = comment({ id: 'mine', user_id: 'u1', author_name: 'Ana Aluna', comment: 'Texto', created_at: ago(15 * 60_000 - 700) });
    const theirs = comment({ comment: 'De outra pessoa', created_at: ago(60_000) });
    show([fresh, theirs]);
    const mine = (await screen.findAllByTestId('comment')).find((c) => c.textContent?.includes('Texto'))!;
    expect(within(mine).getByRole('button', { name: 'Editar' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Editar' })).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Editar' })).toBeNull(), { timeout: 2000 });
    // Own comments can still be deleted; others' cannot (not staff).
    expect(within(mine).getByRole('button', { name: 'Excluir' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Excluir' })).toHaveLength(1);
  });

  it('saves an edit and marks the comment "editado"', async () => {
    const fresh = comment({ id: 'mine', user_id: 'u1', author_name: 'Ana Aluna', comment: 'Texto', created_at: ago(60_000) });
    show([fresh]);
    await userEvent.click(await screen.findByRole('button', { name: 'Editar' }));
    const box = screen.getByLabelText('Editar comentário');
    await userEvent.clear(box);
    await userEvent.type(box, 'Texto corrigido');
    api.editComment.mockResolvedValue({ ...fresh, comment: 'Texto corrigido', edited_at: new Date().toISOString() });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.getByTestId('comment')).toHaveTextContent('Texto corrigido'));
    expect(screen.getByTestId('comment')).toHaveTextContent('(editado)');
    expect(api.editComment).toHaveBeenCalledWith(expect.anything(), { id: 'mine', comment: 'Texto corrigido' });
  });

  it('links http(s) addresses with rel="noopener noreferrer nofollow ugc" in a new tab; javascript: and HTML stay text', async () => {
    show([comment({ comment: 'Veja https://exemplo.com.br/aula?x=1. Não clique javascript:alert(1) nem <b>negrito</b> <img src=x onerror=alert(1)>' })]);
    const c = await screen.findByTestId('comment');
    const links = within(c).getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://exemplo.com.br/aula?x=1');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveTextContent('https://exemplo.com.br/aula?x=1');
    expect(c).toHaveTextContent('javascript:alert(1)');
    expect(c).toHaveTextContent('<b>negrito</b>');
    expect(c.querySelector('b, img')).toBeNull();
  });

  it("shows the database's rate-limit message when a student comments too often", async () => {
    show([]);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    api.addComment.mockRejectedValue({ code: 'DC429', message: 'Você comentou muitas vezes em pouco tempo. Aguarde um minuto.', details: null, hint: null });
    await screen.findByText('Seja o primeiro a comentar.');
    await userEvent.type(screen.getByLabelText('Escreva um comentário'), 'Mais um');
    await userEvent.click(screen.getByRole('button', { name: 'Comentar' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao adicionar comentário', { description: 'Você comentou muitas vezes em pouco tempo. Aguarde um minuto.' }),
    );
    // The text stays in the box to send again later.
    expect(screen.getByLabelText('Escreva um comentário')).toHaveValue('Mais um');
  });

  it('gives staff "Marcar como resposta", "Ocultar" with an optional reason in a dialog, and "Excluir" with a confirmation', async () => {
    const q = comment({ id: 'q1', comment: 'Pergunta' });
    const r = comment({ id: 'r1', parent_id: 'q1', comment: 'Uma resposta', author_name: 'Caio Aluno', created_at: ago(HOUR) });
    show([r, q], { isStaff: true, userId: 'staff' });
    const reply = await screen.findByTestId('reply');
    api.markCommentAnswer.mockResolvedValue(undefined);
    await userEvent.click(within(reply).getByRole('button', { name: 'Marcar como resposta' }));
    await waitFor(() => expect(api.markCommentAnswer).toHaveBeenCalledWith(expect.anything(), { id: 'r1', marked: true }));
    // The question has no "Marcar como resposta" (only a reply can be the answer).
    expect(within(screen.getByTestId('comment')).queryByRole('button', { name: 'Marcar como resposta' })).toBeNull();

    api.hideComment.mockResolvedValue(undefined);
    await userEvent.click(within(screen.getByTestId('comment')).getByRole('button', { name: 'Ocultar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ocultar comentário' });
    await userEvent.type(within(dialog).getByLabelText('Motivo (opcional)'), 'Fora do tema');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ocultar' }));
    await waitFor(() => expect(api.hideComment).toHaveBeenCalledWith(expect.anything(), { id: 'q1', reason: 'Fora do tema' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    api.deleteComment.mockResolvedValue(undefined);
    await userEvent.click(within(screen.getByTestId('reply')).getByRole('button', { name: 'Excluir' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir resposta?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(api.deleteComment).toHaveBeenCalledWith(expect.anything(), 'r1'));
    await waitFor(() => expect(screen.queryByTestId('reply')).toBeNull());
  });

  it('shows staff a hidden comment with its reason', async () => {
    show([comment({ comment: 'Spam', hidden_at: ago(HOUR), lesson_comment_moderation: { hidden_reason: 'Propaganda', hidden_at: ago(HOUR) } })], { isStaff: true, userId: 'staff' });
    const c = await screen.findByTestId('comment');
    expect(c).toHaveTextContent('Oculto para os alunos');
    expect(c).toHaveTextContent('Motivo: Propaganda');
    expect(within(c).getByRole('button', { name: 'Mostrar para os alunos' })).toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'Responder' })).toBeNull();
  });
});
