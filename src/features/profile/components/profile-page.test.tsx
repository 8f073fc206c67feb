import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { ProfilePage } from './profile-page';

const updateProfile = vi.hoisted(() => vi.fn());
vi.mock('@/lib/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), updateProfile }));

describe('ProfilePage', () => {
  beforeEach(() => updateProfile.mockReset());

  it('shows who the user is, and saves the personal data of the signed-in user', async () => {
    updateProfile.mockImplementation(async (_client, _id, values: object) => ({ ...testProfile, ...values }));
    renderScreen(<ProfilePage />, { route: '/profile', session: signedIn() });
    expect(screen.getByRole('heading', { name: 'Meu Perfil' })).toBeInTheDocument();
    expect(screen.getByText(/^Membro desde /)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('aluno@escola-demo.com.br');
    await userEvent.clear(screen.getByLabelText(/^Nome Completo/));
    await userEvent.type(screen.getByLabelText(/^Nome Completo/), 'Ana Maria');
    await userEvent.type(screen.getByLabelText('Endereço'), 'Rua A, 1');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() => expect(updateProfile).toHaveBeenCalledWith(expect.anything(), 'u1', { name: 'Ana Maria', phone: '', cpf: '', address: 'Rua A, 1' }));
  });

  it('the page is a spinner until the profile is known', () => {
    renderScreen(<ProfilePage />, { route: '/profile', session: signedIn({ profile: null }) });
    expect(screen.queryByRole('heading', { name: 'Meu Perfil' })).not.toBeInTheDocument();
  });
});
