import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { TurmaPage } from './turma-page';

const api = vi.hoisted(() => ({ fetchTurma: vi.fn(), fetchTurmaStudents: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const student = (extra: object = {}) => ({
  enrollment_id: 'e1',
  user_id: 'u1',
  name: 'Ana Souza',
  email: 'ana@exemplo.com.br',
  phone: '(11) 98765-4321',
  status: 'ACTIVE',
  total: 10,
  released: 4,
  completed: 4,
  behind: 0,
  last_activity: '2026-03-20T15:00:00Z',
  inactive_days: 1,
  at_risk: false,
  ...extra,
});
const bruno = student({ enrollment_id: 'e2', user_id: 'u2', name: 'Bruno Lima', email: 'bruno@exemplo.com.br', completed: 2, behind: 2, at_risk: true, inactive_days: 8 });
const carla = student({ enrollment_id: 'e3', user_id: 'u3', name: 'Carla Dias', email: 'carla@exemplo.com.br', phone: null, completed: 4, behind: 0, at_risk: true, inactive_days: 9 });

describe('TurmaPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    api.fetchTurma.mockResolvedValue({ id: 't1', name: 'Turma de março', course_id: 'c1', starts_on: '2026-03-10', ends_on: null, course: { title: 'Excel Essencial' } });
    api.fetchTurmaStudents.mockImplementation(async (_c: unknown, _t: string, { atRiskOnly }: { atRiskOnly: boolean }) =>
      atRiskOnly ? { rows: [bruno, carla], total: 2 } : { rows: [student(), bruno, carla], total: 3 },
    );
  });

  it('shows each student against the calendar ("Em dia", "Atrasado 2 aulas") and the last activity', async () => {
    renderScreen(<TurmaPage turmaId="t1" />, { route: '/admin/turmas/t1' });
    expect(await screen.findByRole('heading', { name: 'Turma de março' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Alunos da turma' });
    const ana = within(table).getByRole('row', { name: /Ana Souza/ });
    expect(ana).toHaveTextContent('4 de 10 aulas');
    expect(ana).toHaveTextContent('4 liberadas até hoje');
    expect(ana).toHaveTextContent('Em dia');
    expect(ana).toHaveTextContent('Há 1 dia');
    expect(within(table).getByRole('row', { name: /Bruno Lima/ })).toHaveTextContent('Atrasado 2 aulas');
    expect(screen.getByText('3 alunos')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Comunicado para a turma' })).toHaveAttribute('href', '/admin/announcements?turma=t1&curso=c1');
  });

  it('"Alunos em risco" gives the reason, a wa.me link with a ready message naming the course and turma, an e-mail, and says when there is no phone', async () => {
    renderScreen(<TurmaPage turmaId="t1" />, { route: '/admin/turmas/t1' });
    await userEvent.click(await screen.findByRole('tab', { name: 'Alunos em risco' }));
    const table = await screen.findByRole('table', { name: 'Alunos em risco' });
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/turmas/t1?lista=risco');
    const b = within(table).getByRole('row', { name: /Bruno Lima/ });
    expect(b).toHaveTextContent('Sem atividade há 8 dias · Atrasado 2 aulas');
    const wa = within(b).getByRole('link', { name: 'Chamar Bruno Lima no WhatsApp' });
    const url = new URL(wa.getAttribute('href')!);
    expect(url.origin + url.pathname).toBe('https://wa.me/5511987654321');
    expect(url.searchParams.get('text')).toBe(
      'Olá, Bruno! Tudo bem? Aqui é da equipe do curso Excel Essencial (Turma de março). Sentimos sua falta nas aulas: posso ajudar em algo para você continuar acompanhando a turma?',
    );
    expect(within(b).getByRole('link', { name: 'Enviar e-mail para Bruno Lima' }).getAttribute('href')).toMatch(/^mailto:bruno@exemplo\.com\.br\?subject=/);
    const c = within(table).getByRole('row', { name: /Carla Dias/ });
    expect(within(c).queryByRole('link', { name: /WhatsApp/ })).not.toBeInTheDocument();
    expect(c).toHaveTextContent('Sem telefone no cadastro');
  });
});
