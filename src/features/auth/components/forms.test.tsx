import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@/platform/query-client';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthApiError } from '@supabase/supabase-js';
import { sessionValue, signedIn, WithSession } from '@/test/session';

const auth = vi.hoisted(() => ({
  signInWithPassword: vi.fn(),
  signUp: vi.fn(),
  signOut: vi.fn(async () => ({ error: null })),
  updateUser: vi.fn(async () => ({ data: {}, error: null as unknown })),
  refreshSession: vi.fn(async () => ({ data: {}, error: null })),
  resend: vi.fn(async () => ({ data: { user: null, session: null }, error: null as unknown })),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('@/platform/supabase', () => ({
  supabase: {
    auth,
    from: () => ({
      update: () => ({ eq: async () => ({ error: null }) }),
      select: () => ({ eq: () => ({ maybeSingle: async () => ({ data: null, error: null }) }) }),
    }),
  },
}));
vi.mock('@/platform/toast', () => ({ toast }));

import { ChangePasswordDialog } from './change-password-dialog';
import { LoginForm } from './login-form';
import { SignUpForm } from './sign-up-form';

function wrap(ui: ReactNode, value = sessionValue()) {
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

describe('LoginForm', () => {
  it('announces missing fields and does not call the server', async () => {
    wrap(<LoginForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Informe seu email')).toHaveAttribute('role', 'alert');
    expect(screen.getByText('Informe sua senha')).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email.getAttribute('aria-describedby')).toContain(screen.getByText('Informe seu email').id);
    expect(auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it('rejects a malformed email', async () => {
    wrap(<LoginForm />);
    await userEvent.type(screen.getByLabelText('Email'), 'nao-e-email');
    await userEvent.type(screen.getByLabelText('Senha'), 'senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Informe um email válido')).toBeInTheDocument();
  });

  it('shows Erro ao fazer login with the server message', async () => {
    auth.signInWithPassword.mockResolvedValueOnce({ data: { user: null, session: null }, error: { message: 'Invalid login credentials' } });
    const value = sessionValue();
    wrap(<LoginForm />, value);
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.com');
    await userEvent.type(screen.getByLabelText('Senha'), 'errada1');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao fazer login', { description: 'Invalid login credentials' }));
    expect(value.setAuthFlowPending).toHaveBeenCalledWith(true);
    expect(value.setAuthFlowPending).toHaveBeenLastCalledWith(false);
  });

  it('explains the sign-in rate limit (429) in pt-BR instead of the server text', async () => {
    // What auth-js makes of GoTrue's 429 over_request_rate_limit.
    const error = new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit');
    auth.signInWithPassword.mockResolvedValueOnce({ data: { user: null, session: null }, error });
    wrap(<LoginForm />);
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.com');
    await userEvent.type(screen.getByLabelText('Senha'), 'errada1');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao fazer login', {
        description: 'Muitas tentativas de login. Aguarde alguns minutos e tente de novo.',
      }),
    );
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeEnabled();
  });

  it('asks an unconfirmed account to confirm its e-mail and mails the link again', async () => {
    // GoTrue's 400 email_not_confirmed (the right password of an account whose link was never opened).
    const error = new AuthApiError('Email not confirmed', 400, 'email_not_confirmed');
    auth.signInWithPassword.mockResolvedValueOnce({ data: { user: null, session: null }, error });
    wrap(<LoginForm schoolSlug="escola-demo" />);
    await userEvent.type(screen.getByLabelText('Email'), 'nova@exemplo.com');
    await userEvent.type(screen.getByLabelText('Senha'), 'senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    const description = 'Confirme seu e-mail antes de entrar. Enviamos o link para nova@exemplo.com.';
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao fazer login', { description }));
    expect(await screen.findByText(description)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reenviar e-mail' }));
    await waitFor(() =>
      expect(auth.resend).toHaveBeenCalledWith({ type: 'signup', email: 'nova@exemplo.com', options: { emailRedirectTo: `${window.location.origin}/escola-demo` } }),
    );
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('E-mail reenviado', expect.anything()));
  });
});

describe('SignUpForm', () => {
  it('requires the name, a valid email and a 6-character password', async () => {
    wrap(<SignUpForm />);
    await userEvent.type(screen.getByLabelText('Email'), 'x');
    await userEvent.type(screen.getByLabelText('Senha'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Criar Conta' }));
    expect(await screen.findByText('Informe seu nome completo')).toBeInTheDocument();
    expect(screen.getByText('Informe um email válido')).toBeInTheDocument();
    expect(screen.getByText('A senha deve ter no mínimo 6 caracteres')).toBeInTheDocument();
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it('sends the school id in the metadata', async () => {
    auth.signUp.mockResolvedValueOnce({ data: { session: {}, user: {} }, error: null });
    wrap(<SignUpForm schoolId="s1" schoolSlug="escola-demo" />);
    await userEvent.type(screen.getByLabelText('Nome Completo'), 'Maria Souza');
    await userEvent.type(screen.getByLabelText('Email'), 'maria@exemplo.com');
    await userEvent.type(screen.getByLabelText('Senha'), 'senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Criar Conta' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Conta criada com sucesso!'));
    expect(auth.signUp).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'maria@exemplo.com', password: 'senha123', options: expect.objectContaining({ data: { name: 'Maria Souza', school_id: 's1' } }) }),
    );
  });

  it('without a session (confirmations on) says where the link went, resends it, and lands the link on the school page', async () => {
    auth.signUp.mockResolvedValueOnce({ data: { session: null, user: { id: 'u1' } }, error: null });
    wrap(<SignUpForm schoolId="s1" schoolSlug="escola-demo" />);
    await userEvent.type(screen.getByLabelText('Nome Completo'), 'Maria Souza');
    await userEvent.type(screen.getByLabelText('Email'), 'maria@exemplo.com');
    await userEvent.type(screen.getByLabelText('Senha'), 'senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Criar Conta' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Enviamos um link de confirmação para maria@exemplo.com. Abra-o para ativar sua conta.');
    expect(screen.getByRole('heading', { name: 'Confirme seu e-mail' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Criar Conta' })).toBeNull();
    expect(auth.signUp).toHaveBeenCalledWith(expect.objectContaining({ options: expect.objectContaining({ emailRedirectTo: `${window.location.origin}/escola-demo` }) }));

    await userEvent.click(screen.getByRole('button', { name: 'Reenviar e-mail' }));
    await waitFor(() => expect(auth.resend).toHaveBeenCalledWith(expect.objectContaining({ type: 'signup', email: 'maria@exemplo.com' })));

    // A 429 (a minute between two e-mails) in pt-BR.
    auth.resend.mockResolvedValueOnce({ data: { user: null, session: null }, error: new AuthApiError('For security purposes, you can only request this after 42 seconds.', 429, 'over_email_send_rate_limit') });
    await userEvent.click(screen.getByRole('button', { name: 'Reenviar e-mail' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao reenviar e-mail', { description: 'Aguarde um minuto antes de pedir outro e-mail.' }));

    await userEvent.click(screen.getByRole('button', { name: 'Usar outro e-mail' }));
    expect(screen.getByRole('form', { name: 'Criar Conta' })).toBeInTheDocument();
  });
});

describe('ChangePasswordDialog', () => {
  it('cannot be closed and validates length and confirmation with the SPEC messages', async () => {
    wrap(<ChangePasswordDialog open />, signedIn({ mustChangePassword: true }));
    const dialog = screen.getByRole('dialog', { name: 'Alterar Senha' });
    expect(screen.queryByRole('button', { name: 'Fechar' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(dialog).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Nova Senha'), '123');
    await userEvent.type(screen.getByLabelText('Confirmar Senha'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar Senha' }));
    expect(await screen.findByText('A senha deve ter no mínimo 6 caracteres')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('Senha muito curta', { description: 'A senha deve ter no mínimo 6 caracteres' });

    await userEvent.clear(screen.getByLabelText('Nova Senha'));
    await userEvent.type(screen.getByLabelText('Nova Senha'), 'novaSenha1');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar Senha' }));
    expect(await screen.findByText('Por favor, digite a mesma senha nos dois campos')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('Senhas não coincidem', { description: 'Por favor, digite a mesma senha nos dois campos' });
    expect(auth.updateUser).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Confirmar Senha'));
    await userEvent.type(screen.getByLabelText('Confirmar Senha'), 'novaSenha1');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar Senha' }));
    // Only the password: the server clears must_change_password when it really changes.
    await waitFor(() => expect(auth.updateUser).toHaveBeenCalledWith({ password: 'novaSenha1' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Senha alterada!', { description: 'Sua senha foi atualizada com sucesso' }));
    // The session is re-read (its metadata carries the flag the server cleared).
    expect(auth.refreshSession).toHaveBeenCalled();
  });

  it('says in pt-BR that the new password must differ from the current one (422 same_password)', async () => {
    auth.updateUser.mockResolvedValueOnce({ data: {}, error: new AuthApiError('New password should be different from the old password.', 422, 'same_password') });
    wrap(<ChangePasswordDialog open />, signedIn({ mustChangePassword: true }));
    await userEvent.type(screen.getByLabelText('Nova Senha'), 'mesmaSenha1');
    await userEvent.type(screen.getByLabelText('Confirmar Senha'), 'mesmaSenha1');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar Senha' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao alterar senha', { description: 'A nova senha deve ser diferente da senha atual.' }));
    expect(auth.refreshSession).not.toHaveBeenCalled();
  });
});
