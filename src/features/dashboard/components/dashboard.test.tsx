import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolRow } from '@/lib/session';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { Dashboard } from './dashboard';

const fetchDashboardCounts = vi.hoisted(() => vi.fn());
vi.mock('@/lib/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), fetchDashboardCounts }));

const school = { id: 's1', name: 'Escola Demo', member_area_name: 'Área Demo' } as SchoolRow;
const session = signedIn({ isAdmin: true, school });

describe('Dashboard', () => {
  beforeEach(() => fetchDashboardCounts.mockReset());

  it("shows the school's four counters", async () => {
    fetchDashboardCounts.mockResolvedValue({ courses: 2001, students: 35, materials: 4, active_enrollments: 12 });
    renderScreen(<Dashboard />, { route: '/admin', session });
    expect(screen.getByText('Visão geral de Área Demo')).toBeInTheDocument();
    expect(await screen.findByText('2.001')).toBeInTheDocument();
    expect(screen.getByLabelText('Total de Alunos')).toHaveTextContent('35');
    expect(screen.getByLabelText('Materiais')).toHaveTextContent('4');
    expect(screen.getByLabelText('Matrículas Ativas')).toHaveTextContent('12');
    expect(fetchDashboardCounts).toHaveBeenCalledWith(expect.anything(), 's1');
  });

  it('a failed read shows "—" and LoadError, and the retry shows the counters', async () => {
    fetchDashboardCounts.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ courses: 1, students: 2, materials: 3, active_enrollments: 4 });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderScreen(<Dashboard />, { route: '/admin', session });
    expect(await screen.findByText('Não foi possível carregar os contadores')).toBeInTheDocument();
    expect(screen.getByLabelText('Total de Cursos')).toHaveTextContent('—');
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(screen.getByLabelText('Matrículas Ativas')).toHaveTextContent('4'));
    expect(screen.queryByText('Não foi possível carregar os contadores')).not.toBeInTheDocument();
  });
});
