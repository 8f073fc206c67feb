// Back from subscribing (issue 46): the word of success where the student lands, the network mocked
// at api/queries.ts.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { SubscriptionReturnNotice } from './subscription-return-notice';

const api = vi.hoisted(() => ({ fetchMySubscriptions: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const sub = (extra: object = {}) => ({
  id: 's1',
  plan_name: 'Plano Completo',
  status: 'ACTIVE',
  billing_type: 'CREDIT_CARD',
  cycle: 'MONTHLY',
  value: 49.9,
  paid_until: '2099-03-10T03:00:00.000Z',
  created_at: '2026-11-28T10:00:00Z',
  invoice: null,
  ...extra,
});
const open = (onDismiss = vi.fn()) =>
  renderScreen(<SubscriptionReturnNotice userId="u1" onDismiss={onDismiss} />, { route: '/profile?assinatura=retorno', session: signedIn() });

describe('SubscriptionReturnNotice', () => {
  beforeEach(() => api.fetchMySubscriptions.mockReset());

  it('says the subscription is active and leads to the courses', async () => {
    api.fetchMySubscriptions.mockResolvedValue([sub({ id: 'old', plan_name: 'Plano Antigo', created_at: '2025-01-01T00:00:00Z' }), sub()]);
    const onDismiss = vi.fn();
    open(onDismiss);
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Assinatura ativa!');
    expect(notice).toHaveTextContent('Você já tem acesso aos cursos do Plano Completo.');
    expect(screen.getByRole('link', { name: 'Ver meus cursos' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Fechar aviso da assinatura' }));
    expect(onDismiss).toHaveBeenCalled();
  });

  it('while the first payment is being confirmed, says so and reads again until it is active', async () => {
    api.fetchMySubscriptions.mockResolvedValueOnce([sub({ status: 'PENDING', paid_until: null })]).mockResolvedValue([sub()]);
    open();
    expect(await screen.findByRole('status')).toHaveTextContent('Assinatura criada');
    expect(screen.getByRole('status')).toHaveTextContent('Assim que o primeiro pagamento do Plano Completo for confirmado, os cursos são liberados.');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Assinatura ativa!'), { timeout: 5000 });
    expect(api.fetchMySubscriptions).toHaveBeenCalledTimes(2);
  });

  it('says nothing when no subscription is running (Asaas refused it)', async () => {
    api.fetchMySubscriptions.mockResolvedValue([]);
    open();
    await waitFor(() => expect(api.fetchMySubscriptions).toHaveBeenCalled());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
