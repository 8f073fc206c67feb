import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import { AnnouncementsPage } from './announcements-page';

const api = vi.hoisted(() => ({ fetchSchoolAnnouncements: vi.fn(), saveAnnouncement: vi.fn(), deleteAnnouncement: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
const turmasApi = vi.hoisted(() => ({ fetchCourseTurmas: vi.fn() }));
// A course's turmas ("Para quem") come through the shared concept's read.
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...turmasApi }));

const announcement = (i: number, extra: object = {}) => ({
  id: `a${i}`,
  school_id: 's1',
  instructor_id: 'staff-1',
  title: `Aviso ${i}`,
  body: '<p>Aula ao vivo na sexta.</p>',
  image_url: null,
  video_url: null,
  video_type: 'youtube',
  priority: 10,
  is_active: true,
  created_at: '2026-11-01T12:00:00Z',
  updated_at: '2026-11-01T12:00:00Z',
  ...extra,
});
const open = (route = '/admin/announcements') => renderScreen(<AnnouncementsPage schoolId="s1" userId="staff-1" courses={courses} />, { route });
const courses = [
  { id: 'c1', title: 'Excel Essencial' },
  { id: 'c2', title: 'Marketing Digital' },
];
const turma = (id: string, name: string) => ({ id, course_id: 'c1', name, starts_on: '2026-03-10', ends_on: null, enroll_from: null, enroll_until: null, seats: null, waitlist_enabled: false, status: 'em andamento', students: 1, seats_taken: 1, waiting: 0 });

describe('AnnouncementsPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    turmasApi.fetchCourseTurmas.mockReset().mockImplementation(async (_c: unknown, courseId: string) => (courseId === 'c1' ? [turma('t1', 'Turma de março'), turma('t2', 'Turma de abril')] : []));
    vi.mocked(toast.error).mockReset();
    vi.mocked(toast.success).mockReset();
  });

  it('reads the page and the search from the URL, shows the total and moves the page in the URL', async () => {
    api.fetchSchoolAnnouncements.mockImplementation(async (_c, _s, { page }: { page: number }) => ({ rows: [announcement(page * 20 + 1)], total: 300 }));
    const view = open('/admin/announcements?pagina=3&q=aviso');
    expect(await screen.findByText('Aviso 41')).toBeInTheDocument();
    expect(api.fetchSchoolAnnouncements).toHaveBeenCalledWith(expect.anything(), 's1', { search: 'aviso', page: 2 });
    expect(screen.getByText('300 anúncios')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Anterior/ }));
    expect(await screen.findByText('Aviso 21')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/announcements?pagina=2&q=aviso');
  });

  it('Novo Anúncio says what is missing and saves nothing', async () => {
    api.fetchSchoolAnnouncements.mockResolvedValue({ rows: [], total: 0 });
    open();
    expect(await screen.findByText('Nenhum anúncio criado ainda')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Novo Anúncio' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo Anúncio' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Título é obrigatório')).toBeInTheDocument();
    expect(within(dialog).getByText('Mensagem é obrigatória')).toBeInTheDocument();
    expect(api.saveAnnouncement).not.toHaveBeenCalled();
  });

  it('editing checks the priority and the video URL with the one rule, then saves the video as a YouTube link', async () => {
    api.fetchSchoolAnnouncements.mockResolvedValue({ rows: [announcement(1)], total: 1 });
    api.saveAnnouncement.mockResolvedValue('a1');
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Editar Aviso 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Anúncio' });
    const priority = within(dialog).getByLabelText(/Prioridade/);
    await userEvent.clear(priority);
    await userEvent.type(priority, '150');
    await userEvent.click(within(dialog).getByLabelText('YouTube ou Vimeo'));
    await userEvent.type(within(dialog).getByLabelText(/URL do vídeo/), 'https://exemplo.com/video');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Máximo 100')).toBeInTheDocument();
    expect(within(dialog).getByText('Informe uma URL válida do YouTube ou do Vimeo')).toBeInTheDocument();
    expect(api.saveAnnouncement).not.toHaveBeenCalled();

    await userEvent.clear(priority);
    await userEvent.type(priority, '80');
    const url = within(dialog).getByLabelText(/URL do vídeo/);
    await userEvent.clear(url);
    await userEvent.type(url, 'https://youtu.be/dQw4w9WgXcQ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.saveAnnouncement).toHaveBeenCalledWith(expect.anything(), {
      id: 'a1',
      schoolId: 's1',
      instructorId: 'staff-1',
      values: expect.objectContaining({ title: 'Aviso 1', priority: 80, video_url: 'https://youtu.be/dQw4w9WgXcQ', video_type: 'youtube', is_active: true, email_students: false }),
    });
    expect(toast.success).toHaveBeenCalledWith('Anúncio atualizado!');
  });

  it('"Comunicado para a turma" (?turma=&curso=) opens a new one for that turma; "Para quem" needs a turma once chosen, and saves turma_id and "Enviar também por e-mail"', async () => {
    api.fetchSchoolAnnouncements.mockResolvedValue({ rows: [], total: 0 });
    api.saveAnnouncement.mockResolvedValue('a9');
    const view = open('/admin/announcements?turma=t2&curso=c1');
    const dialog = await screen.findByRole('dialog', { name: 'Novo Anúncio' });
    expect(within(dialog).getByRole('radio', { name: 'Uma turma' })).toBeChecked();
    expect(within(dialog).getByLabelText(/^Curso/)).toHaveValue('c1');
    await waitFor(() => expect(within(dialog).getByLabelText(/^Turma/)).toHaveValue('t2'));
    await userEvent.type(within(dialog).getByLabelText(/Título/), 'Aula extra da turma');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Mensagem/ }), 'Sexta às 20h.');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Curso/), 'c2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Selecione a turma');
    expect(api.saveAnnouncement).not.toHaveBeenCalled();
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Curso/), 'c1');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Turma/), 't2');
    // "Enviar também por e-mail": off unless chosen.
    const email = within(dialog).getByRole('switch', { name: 'Enviar também por e-mail' });
    expect(email).not.toBeChecked();
    await userEvent.click(email);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(api.saveAnnouncement).toHaveBeenCalledTimes(1));
    expect(api.saveAnnouncement.mock.calls[0]![1]).toMatchObject({ values: { title: 'Aula extra da turma', turma_id: 't2', email_students: true } });
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/announcements'));
  }, 20_000);

  it('Excluir asks first; a refusal keeps the announcement and says why', async () => {
    api.fetchSchoolAnnouncements.mockResolvedValue({ rows: [announcement(1)], total: 1 });
    api.deleteAnnouncement.mockRejectedValueOnce(new Error('Anúncio não encontrado ou sem permissão'));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir Aviso 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir anúncio?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao excluir', expect.anything()));
    expect(api.deleteAnnouncement).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ id: 'a1' }));
    expect(screen.getByText('Aviso 1')).toBeInTheDocument();
  });

  it('a failed read offers a retry', async () => {
    api.fetchSchoolAnnouncements.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue({ rows: [announcement(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar os anúncios')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Aviso 1')).toBeInTheDocument();
  });
});
