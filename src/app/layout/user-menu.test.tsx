// The member header's account menu (issue 21): a look-alike button until its Radix code has loaded,
// which a click or the keyboard opens all the same.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { UserMenu } from './user-menu';

const affiliates = vi.hoisted(() => ({ fetchIsApprovedAffiliate: vi.fn(async () => false) }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/features/affiliates/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...affiliates }));

describe('UserMenu', { timeout: 20_000 }, () => {
  it('opens on the first click with Perfil and Sair, and Admin only for staff', async () => {
    const user = userEvent.setup();
    renderScreen(<UserMenu />, { session: signedIn({ isAdmin: false }) });
    await user.click(screen.getByRole('button', { name: 'Menu da conta' }));
    const menu = await screen.findByRole('menu', {}, { timeout: 10_000 });
    expect(within(menu).getByRole('menuitem', { name: 'Perfil' })).toHaveAttribute('href', '/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Sair' })).toBeVisible();
    expect(within(menu).queryByRole('menuitem', { name: 'Admin' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Painel do afiliado' })).toBeNull();
  });

  it('offers "Painel do afiliado" to an approved affiliate (issue 43)', async () => {
    affiliates.fetchIsApprovedAffiliate.mockResolvedValue(true);
    const user = userEvent.setup();
    renderScreen(<UserMenu />, { session: signedIn({ isAdmin: false }) });
    await user.click(screen.getByRole('button', { name: 'Menu da conta' }));
    const menu = await screen.findByRole('menu', {}, { timeout: 10_000 });
    expect(await within(menu).findByRole('menuitem', { name: 'Painel do afiliado' })).toHaveAttribute('href', '/afiliado');
    expect(affiliates.fetchIsApprovedAffiliate).toHaveBeenCalledWith(expect.anything(), 'u1');
  });

  it('keeps the focus when its code arrives, and opens from the keyboard', async () => {
    // A fresh copy of the menu (its code not loaded yet) on a page still fetching its data: only
    // the focus reaching the button asks for the code.
    vi.resetModules();
    const { UserMenu: FreshUserMenu } = await import('./user-menu');
    const { queryClient } = await import('@/platform/query-client');
    const fresh = { ...(await import('@/test/render')), ...(await import('@/test/session')) };
    queryClient.fetchQuery({ queryKey: ['page-data'], queryFn: () => new Promise(() => undefined) }).catch(() => undefined);
    const user = userEvent.setup();
    fresh.renderScreen(<FreshUserMenu />, { session: fresh.signedIn({ isAdmin: true }) });
    expect(screen.getByRole('button', { name: 'Menu da conta' })).not.toHaveAttribute('data-state');
    await user.tab();
    // The real trigger (Radix's, with its data-state) takes the focus over.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Menu da conta' })).toHaveAttribute('data-state', 'closed'), { timeout: 10_000 });
    expect(screen.getByRole('button', { name: 'Menu da conta' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Admin' })).toBeVisible();
    queryClient.clear();
  });
});
