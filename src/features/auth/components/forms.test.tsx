import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthApiError } from '@supabase/supabase-js';
import { sessionValue, signedIn, WithSession } from '@/test/session';

const auth = vi.hoisted(() => ({
  signInWithPassword: vi.fn(),
  signUp: vi.fn(),
  signOut: vi.fn(async () => ({ error: null })),
  updateUser: vi.fn(async () => ({ data: {}, error: null })),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('@/lib/supabase', () => ({
  supabase: {
    auth,
    from: () => ({
      update: () => ({ eq: async () => ({ error: null }) }),
      select: () => ({ eq: () => ({ maybeSingle: async () => ({ data: null, error: null }) }) }),
    }),
  },
}));
vi.mock('@/lib/toast', () => ({ toast }));

import { ChangePasswordDialog } from './change-password-dialog';
import { LoginForm } from './login-form';
import { SignUpForm } from './sign-up-form';

function wrap(ui: ReactNode, value = sessionValue()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
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
    await waitFor(() => expect(auth.updateUser).toHaveBeenCalledWith({ password: 'novaSenha1', data: { must_change_password: false } }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Senha alterada!', { description: 'Sua senha foi atualizada com sucesso' }));
  });
});
