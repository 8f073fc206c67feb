import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import { StudentsPage } from './students-page';

const api = vi.hoisted(() => ({ fetchStudents: vi.fn(), resendStudentAccess: vi.fn(), fetchStudentEmails: vi.fn() }));
// The account operations of src/concepts/accounts.ts run for real over these two: the edge function call and
// the profiles update.
const invokeFunction = vi.hoisted(() => vi.fn());
const profileUpdate = vi.hoisted(() => vi.fn());
vi.mock('@/platform/functions', () => ({ invokeFunction }));
vi.mock('@/platform/supabase', () => ({
  supabase: {
    from: (table: string) => ({
      update: (row: object) => ({ eq: (_col: string, id: string) => ({ select: async () => (profileUpdate(table, row, id), { data: [{ id }], error: null }) }) }),
    }),
  },
}));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));

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
  beforeEach(() => {
    [api.fetchStudents, api.resendStudentAccess, api.fetchStudentEmails, invokeFunction, profileUpdate].forEach((f) => f.mockReset());
    vi.mocked(toast.error).mockReset();
  });

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

  it('Redefinir senha goes through the one account operation and shows the temporary password once', async () => {
    api.fetchStudents.mockResolvedValue({ rows: [student(1)], total: 1 });
    invokeFunction.mockResolvedValue({ user_id: 'u1', temporary_password: 'Tmp-4821-xq' });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Redefinir senha de Aluna 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Redefinir senha?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Redefinir senha' }));
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

  it('Reenviar acesso queues the access e-mail at once for a student who never chose a password', async () => {
    api.fetchStudents.mockResolvedValue({ rows: [student(1), { ...student(2), must_change_password: true }], total: 2 });
    api.resendStudentAccess.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Reenviar acesso de Aluna 2' }));
    await waitFor(() => expect(api.resendStudentAccess).toHaveBeenCalledWith(expect.anything(), 'u2'));
    expect(api.resendStudentAccess).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('Reenviar acesso to an active student who chose a password asks first; Cancelar sends nothing', async () => {
    api.fetchStudents.mockResolvedValue({ rows: [student(1)], total: 1 });
    api.resendStudentAccess.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Reenviar acesso de Aluna 1' }));
    let ask = await screen.findByRole('alertdialog', { name: 'Reenviar acesso?' });
    expect(ask).toHaveAccessibleDescription('Aluna 1 já criou a própria senha. O e-mail traz um link para criar outra; a senha atual continua valendo até o link ser usado.');
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.resendStudentAccess).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Reenviar acesso de Aluna 1' }));
    ask = await screen.findByRole('alertdialog', { name: 'Reenviar acesso?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Reenviar acesso' }));
    await waitFor(() => expect(api.resendStudentAccess).toHaveBeenCalledWith(expect.anything(), 'u1'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledWith('Acesso reenviado! O aluno receberá um e-mail com o link para criar a senha.');
  });

  it("a staff account's card: the database's pt-BR refusal is the error toast", async () => {
    api.fetchStudents.mockResolvedValue({ rows: [{ ...student(1), must_change_password: true }], total: 1 });
    api.resendStudentAccess.mockRejectedValue({ code: '22023', message: 'O acesso só pode ser reenviado a alunos da escola, não a contas da equipe ou de administradores.' });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Reenviar acesso de Aluna 1' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao reenviar acesso', {
        description: 'O acesso só pode ser reenviado a alunos da escola, não a contas da equipe ou de administradores.',
      }),
    );
  });

  it('Novo Aluno says one thing: the e-mail with the link first, the initial password (the CPF, or the default) as the fallback', async () => {
    api.fetchStudents.mockResolvedValue({ rows: [], total: 0 });
    invokeFunction.mockResolvedValue({ user_id: 'u9', email: 'mariana@exemplo.com.br', temporary_password: '52998224725', password_rule: 'cpf' });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Novo Aluno' }));
    const form = await screen.findByRole('dialog', { name: 'Novo Aluno' });
    expect(form).toHaveAccessibleDescription(
      'O acesso é pelo e-mail informado: enviamos a ele um link para criar a senha e, se o e-mail não chegar, a senha inicial é o CPF (só os números) ou, sem CPF, a senha padrão da plataforma, trocada no primeiro acesso.',
    );
    await userEvent.type(within(form).getByLabelText(/^Nome Completo/), 'Mariana Souza');
    await userEvent.type(within(form).getByLabelText(/^Email/), 'mariana@exemplo.com.br');
    await userEvent.type(within(form).getByLabelText('CPF'), '52998224725');
    await userEvent.click(within(form).getByRole('button', { name: 'Cadastrar' }));
    const shown = await screen.findByRole('dialog', { name: 'Aluno cadastrado' });
    expect(shown).toHaveAccessibleDescription(
      'Enviamos a Mariana Souza um e-mail com o link para criar a senha; se ele não chegar, a senha inicial abaixo (o CPF, só os números) também dá acesso, e uma nova senha será pedida no primeiro acesso.',
    );
    expect(within(shown).getByLabelText('Senha inicial')).toHaveTextContent('52998224725');
    expect(shown).not.toHaveTextContent(/Envie esta senha/);
  });

  it('each card: a long address stays in the card (wraps, two lines at most), and every action is named with the student', async () => {
    const address = 'Rua Professora Maria José Albuquerque de Vasconcellos Cavalcanti, 1234, Bloco B, Apartamento 1502, Jardim Paulistano, São Paulo - SP, 01452-000';
    api.fetchStudents.mockResolvedValue({ rows: [{ ...student(1), name: 'Mariana Souza', address }, student(2)], total: 2 });
    open();
    const card = (await screen.findByRole('heading', { name: 'Mariana Souza' })).closest('li')!;
    const shown = within(card).getByText(address);
    expect(shown).toHaveClass('line-clamp-2');
    expect(shown).not.toHaveClass('truncate');
    expect(shown).toHaveAttribute('title', address);
    const names = within(card)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(names).toEqual(['Editar Mariana Souza', 'Redefinir senha de Mariana Souza', 'Reenviar acesso de Mariana Souza', 'E-mails de Mariana Souza', 'Ver atividade de Mariana Souza']);
    // The visible word starts the name (WCAG 2.5.3 label in name).
    for (const button of within(card).getAllByRole('button')) expect(button.getAttribute('aria-label')!.startsWith(button.textContent!.trim())).toBe(true);
    expect(within(card).getByRole('switch', { name: /^Mariana Souza:\s*Ativo$/ })).toBeChecked();
    expect(screen.getByRole('list', { name: 'Alunos' })).not.toHaveTextContent(/resetar/i);
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
