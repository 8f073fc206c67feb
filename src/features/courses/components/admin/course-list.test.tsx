import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { AdminCourseList } from './course-list';

const fetchAdminCourses = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), fetchAdminCourses }));

const course = (i: number) => ({
  id: `c${i}`,
  title: `Curso ${i}`,
  slug: `curso-${i}`,
  status: 'DRAFT',
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  price: 0,
  max_installments: 1,
  total_lessons: 0,
  created_at: '2026-01-01T00:00:00Z',
});

const session = signedIn({ isAdmin: true, profile: { ...testProfile, school_id: 's1' } });

describe('AdminCourseList', () => {
  beforeEach(() => fetchAdminCourses.mockReset());

  it('reads the page and the search from the URL, shows the total, and moves the page in the URL', async () => {
    fetchAdminCourses.mockImplementation(async (_client, _school, options?: { page?: number }) => ({ rows: [course((options?.page ?? 0) * 24 + 1)], total: 2001 }));
    const view = renderScreen(<AdminCourseList />, { route: '/admin/courses?pagina=2&q=excel', session });
    expect(await screen.findByText('Curso 25')).toBeInTheDocument();
    expect(fetchAdminCourses).toHaveBeenCalledWith(expect.anything(), 's1', { search: 'excel', page: 1 });
    expect(screen.getByText('2.001 cursos')).toBeInTheDocument();
    expect(screen.getByText('Página 2 de 84')).toBeInTheDocument();
    expect(screen.getByLabelText('Buscar curso por título')).toHaveValue('excel');
    await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    expect(await screen.findByText('Curso 49')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/courses?pagina=3&q=excel');
  });

  it('a new search starts again at the first page', async () => {
    fetchAdminCourses.mockResolvedValue({ rows: [course(1)], total: 1 });
    const view = renderScreen(<AdminCourseList />, { route: '/admin/courses?pagina=5', session });
    await userEvent.type(screen.getByLabelText('Buscar curso por título'), 'python');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/courses?q=python'));
    await waitFor(() => expect(fetchAdminCourses).toHaveBeenLastCalledWith(expect.anything(), 's1', { search: 'python', page: 0 }));
  });

  it('shows the load error with a retry', async () => {
    fetchAdminCourses.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ rows: [course(1)], total: 1 });
    renderScreen(<AdminCourseList />, { route: '/admin/courses', session });
    expect(await screen.findByText('Não foi possível carregar os cursos')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Curso 1')).toBeInTheDocument();
  });
});
