import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import type { ProfileRow } from '@/platform/session';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { ProfilePage } from './profile-page';

const updateProfile = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), updateProfile }));

/** The profile page as the route mounts it: in its unsaved-changes scope, with the session's profile. */
const open = (profile: ProfileRow = testProfile) =>
  renderScreen(
    <UnsavedChangesScope>
      <ProfilePage />
    </UnsavedChangesScope>,
    { route: '/profile', session: signedIn({ profile }) },
  );
const reloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

describe('ProfilePage', () => {
  beforeEach(() => {
    updateProfile.mockReset();
  });

  it('shows who the user is, and saves the personal data of the signed-in user', async () => {
    updateProfile.mockImplementation(async (_client, _id, values: object) => ({ ...testProfile, ...values }));
    open();
    expect(screen.getByRole('heading', { name: 'Meu Perfil' })).toBeInTheDocument();
    expect(screen.getByText(/^Membro desde /)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('aluno@escola-demo.com.br');
    await userEvent.clear(screen.getByLabelText(/^Nome Completo/));
    await userEvent.type(screen.getByLabelText(/^Nome Completo/), 'Ana Maria');
    await userEvent.type(screen.getByLabelText('Endereço'), 'Rua A, 1');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() => expect(updateProfile).toHaveBeenCalledWith(expect.anything(), 'u1', { name: 'Ana Maria', phone: '', cpf: '', address: 'Rua A, 1' }));
  });

  it('asks before leaving unsaved, saves, changes and saves again; a reload shows the last save', async () => {
    let kept: ProfileRow = { ...testProfile };
    updateProfile.mockImplementation(async (_client, _id, values: Partial<ProfileRow>) => (kept = { ...kept, ...values }));
    const view = open(kept);
    const address = screen.getByLabelText('Endereço');
    await userEvent.type(address, 'Rua A, 1');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() => expect(kept.address).toBe('Rua A, 1'));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    expect(toast.success).toHaveBeenCalledWith('Perfil atualizado com sucesso!');
    await userEvent.type(screen.getByLabelText('Telefone'), '11987654321');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() => expect(kept.phone).toBe('(11) 98765-4321'));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    expect(updateProfile).toHaveBeenCalledTimes(2);
    view.unmount();
    open(kept);
    expect(screen.getByLabelText('Endereço')).toHaveValue('Rua A, 1');
    expect(screen.getByLabelText('Telefone')).toHaveValue('(11) 98765-4321');
  });

  it('a refused save keeps what was typed, and leaving still asks', async () => {
    updateProfile.mockImplementation(async () => {
      throw { code: '42501', message: 'permission denied' };
    });
    open();
    await userEvent.type(screen.getByLabelText('Endereço'), 'Rua B, 2');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao atualizar perfil', { description: 'Você não tem permissão para esta ação.' }));
    expect(screen.getByLabelText('Endereço')).toHaveValue('Rua B, 2');
    expect(reloadAsks()).toBe(true);
  });

  it('the page is a spinner until the profile is known', () => {
    open(null as unknown as ProfileRow);
    expect(screen.queryByRole('heading', { name: 'Meu Perfil' })).not.toBeInTheDocument();
  });
});
