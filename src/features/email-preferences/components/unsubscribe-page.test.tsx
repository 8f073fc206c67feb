import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { sessionValue } from '@/test/session';
import { UnsubscribePage } from './unsubscribe-page';

const api = vi.hoisted(() => ({ unsubscribeByToken: vi.fn() }));
vi.mock('@/lib/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const TOKEN = 'a0000000-0000-4000-8000-000000000011.we_miss_you.' + 'ab'.repeat(32);
const open = () => renderScreen(<UnsubscribePage />, { route: '/descadastrar', session: sessionValue() });

describe('UnsubscribePage', () => {
  beforeEach(() => {
    api.unsubscribeByToken.mockReset();
    window.history.replaceState(null, '', `/descadastrar#token=${TOKEN}`);
  });
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('opening the link stops that kind at once, says which, and takes the token out of the address bar', async () => {
    api.unsubscribeByToken.mockResolvedValue('we_miss_you');
    open();
    expect(await screen.findByRole('heading', { name: 'Pronto, descadastrado' })).toBeInTheDocument();
    expect(screen.getByText(/Você não vai mais receber os e-mails de "Sentimos sua falta"/)).toBeInTheDocument();
    expect(api.unsubscribeByToken).toHaveBeenCalledWith(TOKEN);
    expect(api.unsubscribeByToken).toHaveBeenCalledTimes(1);
    expect(window.location.hash).toBe('');
  });

  it('a refused or missing token is Link inválido', async () => {
    api.unsubscribeByToken.mockRejectedValue(Object.assign(new Error('Link inválido'), { code: '22023' }));
    open();
    expect(await screen.findByRole('heading', { name: 'Link inválido' })).toBeInTheDocument();
  });
});
