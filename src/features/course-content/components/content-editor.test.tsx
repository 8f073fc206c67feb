// The editor's screens and dialogs; dragging itself is a browser journey (tests/e2e/admin-content.spec.ts),
// since jsdom lays nothing out for dnd-kit's keyboard coordinates.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { ContentEditor } from './content-editor';

const api = vi.hoisted(() => ({ fetchCourseContent: vi.fn(), fetchLessonForEdit: vi.fn(), saveModule: vi.fn(), deleteContent: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const course = { id: 'c1', school_id: 's1', title: 'Excel Essencial', status: 'PUBLISHED' };
const lesson = (id: string, title: string, order_index: number) => ({
  id,
  module_id: 'm1',
  title,
  order_index,
  is_preview: false,
  duration_sec: 600,
  video_type: 'youtube',
});
const module1 = {
  id: 'm1',
  course_id: 'c1',
  title: 'Fórmulas',
  description: null,
  thumbnail_url: null,
  order_index: 0,
  release_mode: 'IMMEDIATE',
  release_after_days: null,
  release_on: null,
  lessons: [lesson('l1', 'SOMA e MÉDIA', 0), lesson('l2', 'PROCV', 1)],
};
const open = () => renderScreen(<ContentEditor courseId="c1" renderMaterials={() => null} renderQuiz={() => null} />, { route: '/admin/courses/c1/content' });

describe('ContentEditor', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    vi.mocked(toast.error).mockReset();
    vi.mocked(toast.success).mockReset();
  });

  it('shows the course outline, modules with their lessons in order', async () => {
    api.fetchCourseContent.mockResolvedValue({ course, modules: [module1] });
    open();
    expect(await screen.findByRole('heading', { name: 'Conteúdo do Curso' })).toBeInTheDocument();
    expect(screen.getByText('Excel Essencial')).toBeInTheDocument();
    const lessons = within(screen.getByRole('list', { name: 'Aulas' })).getAllByRole('listitem');
    expect(lessons.map((li) => li.textContent)).toEqual([expect.stringContaining('SOMA e MÉDIA'), expect.stringContaining('PROCV')]);
    expect(screen.getByRole('button', { name: 'Arrastar aula PROCV' })).toBeInTheDocument();
  });

  it("a free lesson's badge says so in Portuguese, keeping SPEC's 'Preview' beside it (issue 46)", async () => {
    api.fetchCourseContent.mockResolvedValue({ course, modules: [{ ...module1, lessons: [{ ...lesson('l1', 'Boas-vindas', 0), is_preview: true }, lesson('l2', 'PROCV', 1)] }] });
    open();
    const [free, paid] = within(await screen.findByRole('list', { name: 'Aulas' })).getAllByRole('listitem');
    expect(within(free!).getByText('Aula gratuita (Preview)')).toBeInTheDocument();
    expect(paid).not.toHaveTextContent('Aula gratuita');
  });

  it("another school's course, or one that is gone, is 'Curso não encontrado'", async () => {
    api.fetchCourseContent.mockResolvedValue({ course: null, modules: [] });
    open();
    expect(await screen.findByText('Curso não encontrado')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Criar primeiro módulo' })).not.toBeInTheDocument();
  });

  it('the first module: drip release by days needs a whole number of days, then it is saved at the end of the outline', async () => {
    api.fetchCourseContent.mockResolvedValue({ course, modules: [] });
    api.saveModule.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Criar primeiro módulo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo Módulo' });
    await userEvent.type(within(dialog).getByLabelText(/Título/), 'Introdução');
    await userEvent.click(within(dialog).getByLabelText('Dias após a matrícula'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe em quantos dias após a matrícula o módulo é liberado')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: /Dias após a matrícula/ }), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe um número inteiro de dias, a partir de 1')).toBeInTheDocument();
    expect(api.saveModule).not.toHaveBeenCalled();

    const days = within(dialog).getByRole('spinbutton', { name: /Dias após a matrícula/ });
    await userEvent.clear(days);
    await userEvent.type(days, '7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.saveModule).toHaveBeenCalledWith(expect.anything(), 'c1', {
      id: undefined,
      orderIndex: 0,
      values: { title: 'Introdução', description: '', thumbnail_url: null, release_mode: 'AFTER_ENROLLMENT', release_after_days: 7, release_on: null },
    });
    expect(toast.success).toHaveBeenCalledWith('Módulo criado!');
  });

  it('deleting a lesson names what goes with it and removes that lesson only', async () => {
    api.fetchCourseContent.mockResolvedValue({ course, modules: [module1] });
    api.deleteContent.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Ações da aula PROCV' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir aula?' });
    expect(confirm).toHaveTextContent('A aula "PROCV", com seus materiais, comentários e avaliações, será excluída.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Aula excluída!'));
    expect(api.deleteContent).toHaveBeenCalledWith(expect.anything(), { table: 'lessons', id: 'l2', title: 'PROCV' });
  });

  it("the lesson dialog's Avaliação tab shows the route's quiz slot for a saved lesson, and asks a new one to be saved first", async () => {
    api.fetchCourseContent.mockResolvedValue({ course, modules: [module1] });
    api.fetchLessonForEdit.mockResolvedValue({ lesson: lesson('l2', 'PROCV', 1), content: '', video_url: 'https://youtu.be/abc' });
    renderScreen(
      <ContentEditor courseId="c1" renderMaterials={() => null} renderQuiz={(ref) => <p>Avaliação de {JSON.stringify(ref)}</p>} />,
      { route: '/admin/courses/c1/content' },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Ações da aula PROCV' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Aula' });
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Avaliação' }));
    expect(within(dialog).getByText('Avaliação de {"schoolId":"s1","courseId":"c1","lessonId":"l2"}')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Aula em Fórmulas' }));
    const created = await screen.findByRole('dialog', { name: 'Nova Aula' });
    await userEvent.click(within(created).getByRole('tab', { name: 'Avaliação' }));
    expect(within(created).getByText('Salve a aula para adicionar uma avaliação.')).toBeVisible();
  });

  it('a refused module save keeps the dialog and what was typed, and says why', async () => {
    api.fetchCourseContent.mockResolvedValue({ course, modules: [module1] });
    api.saveModule.mockRejectedValueOnce(Object.assign(new Error('new row violates row-level security policy'), { code: '42501' }));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Ações do módulo Fórmulas' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Módulo' });
    const title = within(dialog).getByLabelText(/Título/);
    await userEvent.clear(title);
    await userEvent.type(title, 'Fórmulas avançadas');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao salvar módulo', expect.anything()));
    expect(screen.getByRole('dialog', { name: 'Editar Módulo' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Título/)).toHaveValue('Fórmulas avançadas');
  });
});
