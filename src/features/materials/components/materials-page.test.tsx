import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import { MaterialsPage } from './materials-page';

const api = vi.hoisted(() => ({ fetchSchoolMaterials: vi.fn(), saveMaterial: vi.fn(), deleteMaterial: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const courses = [
  { id: 'c1', title: 'Excel Essencial' },
  { id: 'c2', title: 'Python do Zero' },
];
const material = (i: number, extra: object = {}) => ({
  id: `m${i}`,
  title: `Apostila ${i}`,
  type: 'LINK',
  url: `https://exemplo.com/${i}`,
  file_path: null,
  course_id: 'c1',
  lesson_id: null,
  created_at: '2026-01-01T00:00:00Z',
  course: { title: 'Excel Essencial' },
  ...extra,
});
const open = (route = '/admin/materials') => renderScreen(<MaterialsPage schoolId="s1" courses={courses} />, { route });

describe('MaterialsPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    vi.mocked(toast.error).mockReset();
    vi.mocked(toast.success).mockReset();
  });

  it('reads the page and the search from the URL, shows the total and moves the page in the URL', async () => {
    api.fetchSchoolMaterials.mockImplementation(async (_c, _s, { page }: { page: number }) => ({ rows: [material(page * 24 + 1)], total: 5000 }));
    const view = open('/admin/materials?pagina=2&q=apostila');
    expect(await screen.findByText('Apostila 25')).toBeInTheDocument();
    expect(api.fetchSchoolMaterials).toHaveBeenCalledWith(expect.anything(), 's1', { search: 'apostila', page: 1 });
    expect(screen.getByText('5.000 materiais')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    expect(await screen.findByText('Apostila 49')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/materials?pagina=3&q=apostila');
  });

  it('Novo Material says what is missing, keeps what was typed, then saves the link to the chosen course', async () => {
    api.fetchSchoolMaterials.mockResolvedValue({ rows: [], total: 0 });
    api.saveMaterial.mockResolvedValue(undefined);
    open();
    expect(await screen.findByText('Nenhum material cadastrado')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Novo Material' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo Material' });
    await userEvent.type(within(dialog).getByLabelText(/Título/), 'Planilha de exercícios');
    await userEvent.type(within(dialog).getByLabelText(/URL/), 'exemplo.com/planilha');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe uma URL válida (https://...)')).toBeInTheDocument();
    expect(api.saveMaterial).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText(/Título/)).toHaveValue('Planilha de exercícios');

    const url = within(dialog).getByLabelText(/URL/);
    await userEvent.clear(url);
    await userEvent.type(url, 'https://exemplo.com/planilha.xlsx');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Curso/), 'c2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.saveMaterial).toHaveBeenCalledWith(expect.anything(), {
      id: undefined,
      isFile: false,
      values: { title: 'Planilha de exercícios', url: 'https://exemplo.com/planilha.xlsx', type: 'LINK', course_id: 'c2' },
    });
    expect(toast.success).toHaveBeenCalledWith('Material adicionado!');
  });

  it('a file sent in a lesson keeps its file: the URL is not editable and only the title, type and course are saved', async () => {
    api.fetchSchoolMaterials.mockResolvedValue({ rows: [material(1, { url: null, file_path: 's1/c1/aula.pdf', type: 'PDF' })], total: 1 });
    api.saveMaterial.mockResolvedValue(undefined);
    open();
    expect(await screen.findByText('Arquivo: aula.pdf')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Editar Apostila 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Material' });
    expect(within(dialog).getByLabelText(/URL/)).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(api.saveMaterial).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ id: 'm1', isFile: true })));
    expect(toast.success).toHaveBeenCalledWith('Material atualizado!');
  });

  it('Excluir asks first; a refusal keeps the material and says why', async () => {
    api.fetchSchoolMaterials.mockResolvedValue({ rows: [material(1)], total: 1 });
    api.deleteMaterial.mockRejectedValueOnce(Object.assign(new Error('permission denied for table materials'), { code: '42501' }));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir Apostila 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir material?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    expect(api.deleteMaterial).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ id: 'm1', file_path: null }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao excluir', expect.anything()));
    expect(screen.getByText('Apostila 1')).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('a failed read offers a retry', async () => {
    api.fetchSchoolMaterials.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue({ rows: [material(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar os materiais')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Apostila 1')).toBeInTheDocument();
  });
});
