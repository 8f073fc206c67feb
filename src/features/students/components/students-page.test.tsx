import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { StudentsPage } from './students-page';

const api = vi.hoisted(() => ({ fetchStudents: vi.fn(), resendStudentAccess: vi.fn(), fetchStudentEmails: vi.fn() }));
// The account operations of src/lib/accounts.ts run for real over these two: the edge function call and
// the profiles update.
const invokeFunction = vi.hoisted(() => vi.fn());
const profileUpdate = vi.hoisted(() => vi.fn());
vi.mock('@/lib/functions', () => ({ invokeFunction }));
vi.mock('@/lib/supabase', () => ({
  supabase: {
    from: (table: string) => ({
      update: (row: object) => ({ eq: (_col: string, id: string) => ({ select: async () => (profileUpdate(table, row, id), { data: [{ id }], error: null }) }) }),
    }),
  },
}));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const student = (i: number) => ({
  id: `u${i}`,
  name: `Aluna ${i}`,
  email: `aluna${i}@escola.com.br`,
  cpf: '52998224725',
  phone: null,
  address: null,
  avatar_url: null,
  is_active: true,
  must_change_password: false,
  created_at: '2026-01-01T00:00:00Z',
});
const open = (route = '/admin/students') => renderScreen(<StudentsPage schoolId="s1" courses={[]} />, { route });

describe('StudentsPage', () => {
  beforeEach(() => [api.fetchStudents, api.resendStudentAccess, api.fetchStudentEmails, invokeFunction, profileUpdate].forEach((f) => f.mockReset()));

  it('reads the page and the search from the URL, shows the total and moves the page in the URL', async () => {
    api.fetchStudents.mockImplementation(async (_c, _s, _q: string, page: number) => ({ rows: [student(page * 24 + 1)], total: 30 }));
    const view = open('/admin/students?pagina=1&q=aluna');
    expect(await screen.findByText('Aluna 1')).toBeInTheDocument();
    expect(api.fetchStudents).toHaveBeenCalledWith(expect.anything(), 's1', 'aluna', 0);
    expect(screen.getByText('30 alunos encontrados')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    expect(await screen.findByText('Aluna 25')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/students?pagina=2&q=aluna');
  });

  it('Resetar senha goes through the one account operation and shows the temporary password once', async () => {
    api.fetchStudents.mockResolvedValue({ rows: [student(1)], total: 1 });
    invokeFunction.mockResolvedValue({ user_id: 'u1', temporary_password: 'Tmp-4821-xq' });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Resetar senha de Aluna 1' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Resetar senha' }));
    expect(invokeFunction).toHaveBeenCalledWith('admin-reset-password', { user_id: 'u1' });
    const shown = await screen.findByRole('dialog', { name: 'Senha redefinida' });
    expect(within(shown).getByText('Tmp-4821-xq')).toBeInTheDocument();
  });

  it('the Ativo switch deactivates through the same account operation', async () => {
    api.fetchStudents.mockResolvedValue({ rows: [student(1)], total: 1 });
    open();
    await userEvent.click(await screen.findByRole('switch'));
    await waitFor(() => expect(profileUpdate).toHaveBeenCalledWith('profiles', { is_active: false }, 'u1'));
  });

  it('Reenviar acesso queues the access e-mail for that student', async () => {
    api.fetchStudents.mockResolvedValue({ rows: [student(1), student(2)], total: 2 });
    api.resendStudentAccess.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Reenviar acesso de Aluna 2' }));
    await waitFor(() => expect(api.resendStudentAccess).toHaveBeenCalledWith(expect.anything(), 'u2'));
    expect(api.resendStudentAccess).toHaveBeenCalledTimes(1);
  });

  it("E-mails shows what the school sent the student, with a failure's reason", async () => {
    api.fetchStudents.mockResolvedValue({ rows: [student(1)], total: 1 });
    api.fetchStudentEmails.mockResolvedValue([
      { id: 'e2', kind: 'payment_pending', status: 'failed', attempts: 5, last_error: 'SMTP: 550 5.1.1 mailbox unavailable', created_at: '2026-11-25T12:00:00Z', sent_at: null },
      { id: 'e1', kind: 'access_granted', status: 'sent', attempts: 1, last_error: null, created_at: '2026-11-24T12:00:00Z', sent_at: '2026-11-24T12:01:00Z' },
      { id: 'e0', kind: 'payment_pending', status: 'skipped', attempts: 0, last_error: 'O pagamento já foi confirmado.', created_at: '2026-11-23T12:00:00Z', sent_at: null },
    ]);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'E-mails de Aluna 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'E-mails de Aluna 1' });
    const items = within(within(dialog).getByRole('list', { name: 'E-mails enviados' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Pagamento pendente');
    expect(items[0]).toHaveTextContent('Falhou');
    expect(items[0]).toHaveTextContent('5 tentativas');
    expect(items[0]).toHaveTextContent('Motivo: SMTP: 550 5.1.1 mailbox unavailable');
    expect(items[1]).toHaveTextContent('Acesso liberado');
    expect(items[1]).toHaveTextContent('Enviado em 24/11/2026, 09:01');
    // Not sent because its reason passed (issue 46): said in pt-BR, with why.
    expect(items[2]).toHaveTextContent('Não enviado');
    expect(items[2]).toHaveTextContent('Motivo: O pagamento já foi confirmado.');
    expect(api.fetchStudentEmails).toHaveBeenCalledWith(expect.anything(), 'u1');
  });

  it('a failed read offers a retry', async () => {
    api.fetchStudents.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue({ rows: [student(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar os alunos')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Aluna 1')).toBeInTheDocument();
  });
});
