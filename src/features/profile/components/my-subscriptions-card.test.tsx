// Minha assinatura (issue 24), the network mocked at api/queries.ts (reads) and the edge function.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { MySubscriptionsCard } from './my-subscriptions-card';

const api = vi.hoisted(() => ({ fetchMySubscriptions: vi.fn() }));
const invokeFunction = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/functions', () => ({ invokeFunction }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const sub = (extra: object = {}) => ({
  id: 's1',
  plan_name: 'Plano Completo',
  status: 'ACTIVE',
  billing_type: 'CREDIT_CARD',
  cycle: 'MONTHLY',
  value: 49.9,
  paid_until: '2099-03-10T03:00:00.000Z',
  created_at: '2026-01-10T00:00:00Z',
  invoice: { status: 'CONFIRMED', invoice_url: 'https://asaas.test/i/1', due_date: '2099-02-10' },
  ...extra,
});
const open = () => renderScreen(<MySubscriptionsCard userId="u1" />, { route: '/profile', session: signedIn() });
const item = (name: string) => screen.getAllByRole('listitem').find((li) => li.textContent?.includes(name))!;

describe('MySubscriptionsCard', () => {
  beforeEach(() => {
    [...Object.values(api), invokeFunction].forEach((f) => f.mockReset());
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
  });

  it('shows each subscription: plan, status, the next charge or the end of the access, the method; Pagar for an open invoice', async () => {
    api.fetchMySubscriptions.mockResolvedValue([
      sub(),
      sub({
        id: 's2',
        plan_name: 'Plano Design',
        status: 'PENDING',
        billing_type: 'PIX',
        paid_until: null,
        invoice: { status: 'PENDING', invoice_url: 'https://asaas.test/i/2', due_date: '2026-01-10' },
      }),
      sub({
        id: 's3',
        plan_name: 'Plano Idiomas',
        status: 'OVERDUE',
        billing_type: 'BOLETO',
        paid_until: '2026-01-10T03:00:00.000Z',
        invoice: { status: 'OVERDUE', invoice_url: 'https://asaas.test/i/3', due_date: '2026-01-10' },
      }),
      sub({
        id: 's4',
        plan_name: 'Plano Antigo',
        status: 'CANCELLED',
        cycle: 'YEARLY',
        value: 478.8,
        paid_until: '2099-06-01T03:00:00.000Z',
      }),
      sub({
        id: 's5',
        plan_name: 'Plano Encerrado',
        status: 'EXPIRED',
        paid_until: '2025-06-01T03:00:00.000Z',
        invoice: null,
      }),
    ]);
    open();
    expect(await screen.findByText('Minha assinatura')).toBeInTheDocument();
    expect(api.fetchMySubscriptions).toHaveBeenCalledWith(expect.anything(), 'u1');

    const active = item('Plano Completo');
    expect(within(active).getByText('Ativa')).toBeInTheDocument();
    expect(active).toHaveTextContent('ValorR$ 49,90/mês');
    expect(active).toHaveTextContent('Próxima cobrança10/03/2099');
    expect(active).toHaveTextContent('Forma de pagamentoCartão');
    expect(within(active).queryByRole('link', { name: /Pagar/ })).not.toBeInTheDocument();

    const pending = item('Plano Design');
    expect(within(pending).getByText('Pendente')).toBeInTheDocument();
    expect(pending).toHaveTextContent('O acesso aos cursos é liberado quando o primeiro pagamento for confirmado.');
    expect(within(pending).getByRole('link', { name: 'Pagar a cobrança de Plano Design' })).toHaveAttribute(
      'href',
      'https://asaas.test/i/2',
    );

    const overdue = item('Plano Idiomas');
    expect(within(overdue).getByText('Em atraso')).toBeInTheDocument();
    expect(overdue).toHaveTextContent('Pago até10/01/2026');
    expect(within(overdue).getByRole('link', { name: 'Pagar a cobrança de Plano Idiomas' })).toHaveAttribute(
      'href',
      'https://asaas.test/i/3',
    );

    const cancelled = item('Plano Antigo');
    expect(within(cancelled).getByText('Cancelada — acesso até 01/06/2099')).toBeInTheDocument();
    expect(cancelled).toHaveTextContent('Acesso até01/06/2099');
    expect(cancelled).toHaveTextContent('R$ 478,80/ano');
    expect(within(cancelled).queryByRole('button', { name: /Cancelar/ })).not.toBeInTheDocument();
    expect(within(item('Plano Encerrado')).getByText('Encerrada')).toBeInTheDocument();
    // Asaas may still charge only the first three.
    expect(screen.getAllByRole('button', { name: /^Cancelar assinatura de/ })).toHaveLength(3);
  });

  it('Cancelar assinatura asks first, saying the access lasts until the end of the paid period, then cancels', async () => {
    api.fetchMySubscriptions.mockResolvedValue([sub()]);
    invokeFunction.mockResolvedValue({ id: 's1', status: 'CANCELLED', paid_until: '2099-03-10T03:00:00.000Z' });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancelar assinatura de Plano Completo' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Cancelar assinatura?' });
    expect(confirm).toHaveTextContent(
      'Não haverá novas cobranças de Plano Completo. Você mantém o acesso até 10/03/2099.',
    );
    // Voltar keeps it.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Voltar' }));
    expect(invokeFunction).not.toHaveBeenCalled();

    api.fetchMySubscriptions.mockResolvedValue([sub({ status: 'CANCELLED' })]);
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar assinatura de Plano Completo' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancelar assinatura' }),
    );
    await waitFor(() =>
      expect(invokeFunction).toHaveBeenCalledWith('cancel-asaas-subscription', { subscription_id: 's1' }),
    );
    expect(toast.success).toHaveBeenCalledWith('Assinatura cancelada. O acesso continua até 10/03/2099.');
    expect(await screen.findByText('Cancelada — acesso até 10/03/2099')).toBeInTheDocument();
  });

  it('a pending subscription with nothing paid says no access comes; a refusal is the error toast', async () => {
    api.fetchMySubscriptions.mockResolvedValue([sub({ status: 'PENDING', paid_until: null, invoice: null })]);
    const { FunctionCallError } = await vi.importActual<typeof import('@/platform/functions')>('@/platform/functions');
    invokeFunction.mockRejectedValue(new FunctionCallError('Esta assinatura já foi cancelada.', 409, null));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancelar assinatura de Plano Completo' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Nenhum período foi pago');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar assinatura' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao cancelar assinatura', {
        description: 'Esta assinatura já foi cancelada.',
      }),
    );
  });

  it('nothing for a student who never subscribed; a failed read offers a retry', async () => {
    api.fetchMySubscriptions.mockResolvedValueOnce([]);
    const first = open();
    await waitFor(() => expect(api.fetchMySubscriptions).toHaveBeenCalled());
    expect(screen.queryByText('Minha assinatura')).not.toBeInTheDocument();
    first.unmount();

    api.fetchMySubscriptions
      .mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 }))
      .mockResolvedValue([sub()]);
    open();
    expect(await screen.findByText('Não foi possível carregar suas assinaturas')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Plano Completo')).toBeInTheDocument();
  });
});
