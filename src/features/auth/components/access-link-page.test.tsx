import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { sessionValue } from '@/test/session';
import { AccessLinkPage } from './access-link-page';

const invokeFunction = vi.hoisted(() => vi.fn());
vi.mock('@/platform/functions', () => ({ invokeFunction }));
/** What invokeFunction throws for a refused call (src/platform/functions.ts's FunctionCallError). */
const refused = (message: string, status: number, body: object | null) => Object.assign(new Error(message), { status, body });

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';
const open = () => renderScreen(<AccessLinkPage />, { route: '/acesso', session: sessionValue() });

describe('AccessLinkPage', () => {
  const assign = vi.fn();
  beforeEach(() => {
    invokeFunction.mockReset();
    assign.mockReset();
    window.history.replaceState(null, '', `/acesso#token=${TOKEN}`);
    vi.stubGlobal('location', { ...window.location, assign, hash: `#token=${TOKEN}`, pathname: '/acesso' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('Criar minha senha spends the link and goes to the platform page for choosing the password', async () => {
    invokeFunction.mockResolvedValue({ action_link: 'http://api/auth/v1/verify?token=x&type=recovery' });
    open();
    expect(screen.getByRole('heading', { name: 'Crie sua senha' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Criar minha senha' }));
    expect(invokeFunction).toHaveBeenCalledWith('access-link', { token: TOKEN });
    expect(assign).toHaveBeenCalledWith('http://api/auth/v1/verify?token=x&type=recovery');
  });

  it('a used link says so and sends a new one on request', async () => {
    invokeFunction
      .mockRejectedValueOnce(refused('Este link já foi usado.', 410, { reason: 'used', can_resend: true, school_slug: 'escola-demo' }))
      .mockResolvedValueOnce({ resent: true });
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Criar minha senha' }));
    expect(await screen.findByRole('heading', { name: 'Este link já foi usado.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir para o login' })).toHaveAttribute('href', '/escola-demo');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar novo link' }));
    expect(invokeFunction).toHaveBeenLastCalledWith('access-link', { token: TOKEN, resend: true });
    expect(await screen.findByRole('heading', { name: 'Enviamos um novo link' })).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('an expired link says so; a second request for a new one says it was sent already', async () => {
    invokeFunction
      .mockRejectedValueOnce(refused('Este link expirou.', 410, { reason: 'expired', can_resend: true }))
      .mockRejectedValueOnce(refused('Um novo link já foi enviado para o seu e-mail. Confira sua caixa de entrada.', 409, null));
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Criar minha senha' }));
    expect(await screen.findByRole('heading', { name: 'Este link expirou.' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Enviar novo link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Um novo link já foi enviado para o seu e-mail.');
  });

  it('without a token (a mangled link) it is Link inválido at once, with the way to the login', () => {
    vi.stubGlobal('location', { ...window.location, assign, hash: '', pathname: '/acesso' });
    open();
    expect(screen.getByRole('heading', { name: 'Link inválido' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Criar minha senha' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir para o login' })).toHaveAttribute('href', '/auth');
    expect(invokeFunction).not.toHaveBeenCalled();
  });
});
