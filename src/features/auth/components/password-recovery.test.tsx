import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@/platform/query-client';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { signedIn, WithSession } from '@/test/session';

const auth = vi.hoisted(() => ({
  resetPasswordForEmail: vi.fn(async () => ({ data: {}, error: null as unknown })),
  updateUser: vi.fn(async () => ({ data: {}, error: null as unknown })),
  refreshSession: vi.fn(async () => ({ data: {}, error: null })),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('@/platform/supabase', () => ({
  supabase: { auth, from: () => ({ update: () => ({ eq: async () => ({ error: null }) }) }) },
}));
vi.mock('@/platform/toast', () => ({ toast }));

import { ChangePasswordDialog } from './change-password-dialog';
import { ForgotPasswordDialog } from './forgot-password-dialog';

function wrap(ui: ReactNode, value = signedIn()) {
  // The app's client: its one mutation error path shows the error toasts.
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  return render(
    <QueryClientProvider client={client}>
      <WithSession value={value}>
        <MemoryRouter>{ui}</MemoryRouter>
      </WithSession>
    </QueryClientProvider>,
  );
}

beforeEach(() => vi.clearAllMocks());

describe('ForgotPasswordDialog', () => {
  it('validates the e-mail with the login form messages', async () => {
    wrap(<ForgotPasswordDialog open onOpenChange={() => {}} schoolSlug="escola-demo" />);
    expect(screen.getByRole('dialog', { name: 'Esqueci minha senha' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Enviar link' }));
    expect(await screen.findByText('Informe seu email')).toHaveAttribute('role', 'alert');
    await userEvent.type(screen.getByLabelText('Email'), 'nao-e-email');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar link' }));
    expect(await screen.findByText('Informe um email válido')).toBeInTheDocument();
    expect(auth.resetPasswordForEmail).not.toHaveBeenCalled();
  });

  it('sends the link back to the school page and says it was sent', async () => {
    wrap(
      <ForgotPasswordDialog
        open
        onOpenChange={() => {}}
        schoolSlug="escola-demo"
        defaultEmail=" aluno@escola-demo.com.br "
      />,
    );
    expect(screen.getByLabelText('Email')).toHaveValue('aluno@escola-demo.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar link' }));
    expect(await screen.findByText('Enviamos um link para o seu e-mail')).toBeInTheDocument();
    expect(auth.resetPasswordForEmail).toHaveBeenCalledWith('aluno@escola-demo.com.br', {
      redirectTo: `${window.location.origin}/escola-demo`,
    });
    expect(screen.getByRole('status')).toHaveFocus();
  });

  it('explains the per-address limit in pt-BR', async () => {
    auth.resetPasswordForEmail.mockResolvedValueOnce({
      data: {},
      error: Object.assign(new Error('For security purposes, you can only request this after 42 seconds.'), {
        status: 429,
        code: 'over_email_send_rate_limit',
      }),
    });
    wrap(<ForgotPasswordDialog open onOpenChange={() => {}} />);
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.com');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Muitas tentativas. Aguarde um minuto e tente de novo.');
    expect(screen.queryByText('Enviamos um link para o seu e-mail')).toBeNull();
  });
});

describe('ChangePasswordDialog after a recovery link', () => {
  it('asks for the new password with the SPEC rules, then ends the recovery', async () => {
    const value = signedIn({ passwordRecovery: true });
    wrap(<ChangePasswordDialog open recovery />, value);
    expect(screen.getByRole('dialog', { name: 'Redefinir senha' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Nova Senha'), '123');
    await userEvent.type(screen.getByLabelText('Confirmar Senha'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByText('A senha deve ter no mínimo 6 caracteres')).toBeInTheDocument();
    expect(auth.updateUser).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Nova Senha'));
    await userEvent.clear(screen.getByLabelText('Confirmar Senha'));
    await userEvent.type(screen.getByLabelText('Nova Senha'), 'novaSenha1');
    await userEvent.type(screen.getByLabelText('Confirmar Senha'), 'novaSenha1');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Senha alterada!', {
        description: 'Sua senha foi atualizada com sucesso',
      }),
    );
    expect(auth.updateUser).toHaveBeenCalledWith({ password: 'novaSenha1' });
    expect(value.endPasswordRecovery).toHaveBeenCalled();
  });

  it('says in pt-BR that the new password must differ from the current one', async () => {
    auth.updateUser.mockResolvedValueOnce({
      data: {},
      error: Object.assign(new Error('New password should be different from the old password.'), {
        status: 422,
        code: 'same_password',
      }),
    });
    wrap(<ChangePasswordDialog open recovery />, signedIn({ passwordRecovery: true }));
    await userEvent.type(screen.getByLabelText('Nova Senha'), 'senha123');
    await userEvent.type(screen.getByLabelText('Confirmar Senha'), 'senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao alterar senha', {
        description: 'A nova senha deve ser diferente da senha atual.',
      }),
    );
  });
});
