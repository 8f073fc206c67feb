import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { sessionValue } from '@/test/session';
import { UnsubscribePage } from './unsubscribe-page';

const api = vi.hoisted(() => ({ unsubscribeByToken: vi.fn(), resubscribeByToken: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const TOKEN = 'a0000000-0000-4000-8000-000000000011.we_miss_you.' + 'ab'.repeat(32);
const open = (token = TOKEN) => {
  window.history.replaceState(null, '', `/descadastrar#token=${token}`);
  return renderScreen(<UnsubscribePage />, { route: '/descadastrar', session: sessionValue() });
};

describe('UnsubscribePage', () => {
  beforeEach(() => {
    api.unsubscribeByToken.mockReset().mockResolvedValue('we_miss_you');
    api.resubscribeByToken.mockReset().mockResolvedValue('we_miss_you');
  });
  afterEach(() => window.history.replaceState(null, '', '/'));

  // Issue 46: opening the link stopped the e-mails at once, with no question and no way back.
  it('opening the link stops nothing: it says which e-mails and asks; the token leaves the address bar', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Parar de receber estes e-mails?' })).toBeInTheDocument();
    expect(screen.getByText(/Você vai deixar de receber os e-mails de "Sentimos sua falta" da escola/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Não quero mais receber estes e-mails' })).toBeInTheDocument();
    expect(api.unsubscribeByToken).not.toHaveBeenCalled();
    expect(window.location.hash).toBe('');
  });

  it('the confirmation stops that kind and offers Desfazer, which sends it again', async () => {
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Não quero mais receber estes e-mails' }));
    const done = await screen.findByRole('heading', { name: 'Pronto: estes e-mails não vão mais chegar' });
    expect(done).toHaveFocus();
    expect(screen.getByText(/Você não vai mais receber os e-mails de "Sentimos sua falta"/)).toBeInTheDocument();
    expect(api.unsubscribeByToken).toHaveBeenCalledExactlyOnceWith(TOKEN);

    await userEvent.click(screen.getByRole('button', { name: 'Desfazer' }));
    expect(await screen.findByRole('heading', { name: 'Você vai continuar recebendo estes e-mails' })).toHaveFocus();
    expect(api.resubscribeByToken).toHaveBeenCalledExactlyOnceWith(TOKEN);
    // And may stop them again.
    expect(screen.getByRole('button', { name: 'Não quero mais receber estes e-mails' })).toBeInTheDocument();
  });

  it('a refused, altered or missing token is Link inválido, with nothing to press', async () => {
    api.unsubscribeByToken.mockRejectedValue(Object.assign(new Error('Link inválido'), { status: 400 }));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Não quero mais receber estes e-mails' }));
    expect(await screen.findByRole('heading', { name: 'Link inválido' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Não quero|Desfazer/ })).not.toBeInTheDocument();
  });

  it('a kind that cannot be stopped, or no token, is Link inválido at once', async () => {
    open(TOKEN.replace('we_miss_you', 'access_granted'));
    expect(await screen.findByRole('heading', { name: 'Link inválido' })).toBeInTheDocument();
    expect(api.unsubscribeByToken).not.toHaveBeenCalled();
  });

  it('a failure that is not the link says what happened and lets the student try again', async () => {
    api.unsubscribeByToken.mockRejectedValueOnce(Object.assign(new Error('Erro interno. Tente novamente mais tarde.'), { status: 500 }));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Não quero mais receber estes e-mails' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro interno. Tente novamente mais tarde.');
    await userEvent.click(screen.getByRole('button', { name: 'Não quero mais receber estes e-mails' }));
    expect(await screen.findByRole('heading', { name: 'Pronto: estes e-mails não vão mais chegar' })).toBeInTheDocument();
  });
});
