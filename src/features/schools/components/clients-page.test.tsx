import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { ClientsPage } from './clients-page';

const api = vi.hoisted(() => ({ fetchClients: vi.fn(), fetchSchools: vi.fn() }));
// src/concepts/accounts.ts runs for real over the edge function call and the profiles update.
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

const client = (i: number) => ({
  user_id: `a${i}`,
  school: { id: `s${i}`, name: `Escola ${i}`, slug: `escola-${i}`, member_area_name: null },
  profile: { name: `Admin ${i}`, email: `admin${i}@escola.com.br`, is_active: true },
});
const open = (route = '/admin/clients') => renderScreen(<ClientsPage />, { route, session: signedIn({ isAdmin: true }) });

describe('ClientsPage', () => {
  beforeEach(() => [api.fetchClients, api.fetchSchools, invokeFunction, profileUpdate].forEach((f) => f.mockReset()));

  it('pages through the school administrators with the page in the URL and the total shown', async () => {
    api.fetchClients.mockImplementation(async (_c, page: number) => ({ rows: [client(page * 24 + 1)], total: 30 }));
    const view = open('/admin/clients?pagina=2');
    expect(await screen.findByText('Admin 25')).toBeInTheDocument();
    expect(screen.getByText('30 clientes')).toBeInTheDocument();
    expect(screen.getByText('Página 2 de 2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Anterior/ }));
    expect(await screen.findByText('Admin 1')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/clients');
  });

  it('Redefinir senha (not the anglicism "Resetar") and the active switch are the one set of account operations', async () => {
    api.fetchClients.mockResolvedValue({ rows: [client(1)], total: 1 });
    invokeFunction.mockResolvedValue({ user_id: 'a1', temporary_password: 'Tmp-9911-ab' });
    open();
    expect(await screen.findByRole('list', { name: 'Clientes' })).not.toHaveTextContent(/resetar/i);
    expect(screen.getByText('Endereço:')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Redefinir senha de Admin 1' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Redefinir senha?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Redefinir senha' }));
    expect(invokeFunction).toHaveBeenCalledWith('admin-reset-password', { user_id: 'a1' });
    expect(within(await screen.findByRole('dialog', { name: 'Senha redefinida' })).getByText('Tmp-9911-ab')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('switch'));
    await waitFor(() => expect(profileUpdate).toHaveBeenCalledWith('profiles', { is_active: false }, 'a1'));
  });

  it('Novo Cliente says one thing: the e-mail with the link first, the initial password if it does not arrive', async () => {
    api.fetchClients.mockResolvedValue({ rows: [client(1)], total: 1 });
    api.fetchSchools.mockResolvedValue([{ id: 's9', name: 'Escola Nova', slug: 'escola-nova' }]);
    invokeFunction.mockResolvedValue({ user_id: 'a9', email: 'nova@escola.com.br', school_id: 's9', temporary_password: 'Admin@2026' });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Novo Cliente' }));
    const form = await screen.findByRole('dialog', { name: 'Novo Cliente' });
    expect(form).toHaveAccessibleDescription(/enviamos a ele um link para criar a senha e, se o e-mail não chegar, a senha inicial é a senha padrão de administradores/);
    await userEvent.type(within(form).getByLabelText(/^Nome/), 'Nair Nova');
    await userEvent.type(within(form).getByLabelText(/^Email/), 'nova@escola.com.br');
    await userEvent.selectOptions(await within(form).findByLabelText(/^Escola/), 's9');
    await userEvent.click(within(form).getByRole('button', { name: 'Cadastrar' }));
    const shown = await screen.findByRole('dialog', { name: 'Cliente cadastrado' });
    expect(shown).toHaveAccessibleDescription(
      'Enviamos a Nair Nova um e-mail com o link para criar a senha; se ele não chegar, a senha inicial abaixo (a senha padrão de administradores) também dá acesso, e uma nova senha será pedida no primeiro acesso.',
    );
    expect(within(shown).getByLabelText('Senha inicial')).toHaveTextContent('Admin@2026');
    expect(shown).not.toHaveTextContent('Envie esta senha');
  });

  it('a failed read offers a retry', async () => {
    api.fetchClients.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue({ rows: [client(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar os clientes')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Admin 1')).toBeInTheDocument();
  });
});
