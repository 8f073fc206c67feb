import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { ClientsPage } from './clients-page';

const api = vi.hoisted(() => ({ fetchClients: vi.fn(), fetchSchools: vi.fn() }));
// src/lib/accounts.ts runs for real over the edge function call and the profiles update.
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

  it('reset password and the active switch are the one set of account operations', async () => {
    api.fetchClients.mockResolvedValue({ rows: [client(1)], total: 1 });
    invokeFunction.mockResolvedValue({ user_id: 'a1', temporary_password: 'Tmp-9911-ab' });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Resetar senha de Admin 1' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Resetar senha' }));
    expect(invokeFunction).toHaveBeenCalledWith('admin-reset-password', { user_id: 'a1' });
    expect(within(await screen.findByRole('dialog', { name: 'Senha redefinida' })).getByText('Tmp-9911-ab')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('switch'));
    await waitFor(() => expect(profileUpdate).toHaveBeenCalledWith('profiles', { is_active: false }, 'a1'));
  });

  it('a failed read offers a retry', async () => {
    api.fetchClients.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue({ rows: [client(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar os clientes')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Admin 1')).toBeInTheDocument();
  });
});
