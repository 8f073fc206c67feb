import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import { PlansPage } from './plans-page';

const api = vi.hoisted(() => ({
  fetchAdminPlans: vi.fn(),
  savePlan: vi.fn(),
  setPlanActive: vi.fn(),
  fetchPlanSubscribers: vi.fn(),
}));
const invokeFunction = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/functions', () => ({ invokeFunction }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const courses = [
  { id: 'c1', title: 'Excel Essencial' },
  { id: 'c2', title: 'Marketing Digital' },
];
const plan = (extra: object = {}) => ({
  id: 'p1',
  slug: 'plano-completo',
  name: 'Plano Completo',
  description: null,
  cycle: 'MONTHLY',
  price: 49.9,
  billing_types: ['PIX', 'BOLETO', 'CREDIT_CARD'],
  is_active: true,
  course_ids: ['c1', 'c2'],
  turma_id: null,
  subscribers: 12,
  overdue: 2,
  created_at: '2026-01-01T00:00:00Z',
  ...extra,
});
const subscriber = (extra: object = {}) => ({
  id: 's1',
  status: 'ACTIVE',
  billing_type: 'CREDIT_CARD',
  value: 49.9,
  paid_until: '2099-03-10T03:00:00.000Z',
  cancelled_at: null,
  created_at: '2026-01-10T00:00:00Z',
  name: 'Lucas Aluno',
  email: 'aluno@escola-demo.com.br',
  ...extra,
});
const open = (route = '/admin/plans') => renderScreen(<PlansPage schoolId="s1" courses={courses} />, { route });

describe('PlansPage', () => {
  beforeEach(() => {
    [...Object.values(api), invokeFunction].forEach((f) => f.mockReset());
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
  });

  it('lists each plan with its cycle, price, courses, subscribers and overdue ones; the switch deactivates it', async () => {
    api.fetchAdminPlans.mockResolvedValue([
      plan(),
      plan({
        id: 'p2',
        slug: 'anual',
        name: 'Plano Anual',
        cycle: 'YEARLY',
        price: 478.8,
        course_ids: ['c1'],
        subscribers: 0,
        overdue: 0,
        billing_types: ['PIX'],
        is_active: false,
      }),
    ]);
    api.setPlanActive.mockResolvedValue(undefined);
    open();
    const row = (await screen.findByRole('rowheader', { name: /Plano Completo/ })).closest('tr')!;
    expect(api.fetchAdminPlans).toHaveBeenCalledWith(expect.anything(), 's1');
    expect(row).toHaveTextContent('/checkout/plano/plano-completo · PIX, Boleto, Cartão');
    expect(within(row).getByText('Mensal')).toBeInTheDocument();
    expect(within(row).getByText('R$ 49,90')).toBeInTheDocument();
    expect([...row.querySelectorAll('td')].slice(2, 5).map((td) => td.textContent)).toEqual(['2', '12', '2']);
    const yearly = screen.getByRole('rowheader', { name: /Plano Anual/ }).closest('tr')!;
    expect(within(yearly).getByText('Anual')).toBeInTheDocument();
    expect(within(yearly).getByText('R$ 478,80')).toBeInTheDocument();
    expect(within(yearly).getByRole('switch', { name: 'Plano Plano Anual ativo' })).not.toBeChecked();

    await userEvent.click(within(row).getByRole('switch', { name: 'Plano Plano Completo ativo' }));
    await waitFor(() =>
      expect(api.setPlanActive).toHaveBeenCalledWith(expect.anything(), { id: 'p1', is_active: false }),
    );
    expect(toast.success).toHaveBeenCalledWith('Plano desativado!');
  });

  it('Novo Plano says what is missing (a course, a method, the minimum price), the slug follows the name, then saves', async () => {
    api.fetchAdminPlans.mockResolvedValue([]);
    api.savePlan.mockResolvedValue(undefined);
    open();
    expect(await screen.findByText('Nenhum plano criado ainda')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Novo Plano' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo Plano' });
    await userEvent.type(within(dialog).getByLabelText(/^Nome/), 'Plano Ação Total');
    expect(within(dialog).getByLabelText(/^Endereço na web/)).toHaveValue('plano-acao-total');
    await userEvent.type(within(dialog).getByLabelText(/^Preço \(R\$\)/), '4,99');
    for (const m of ['PIX', 'Boleto', 'Cartão'])
      await userEvent.click(within(dialog).getByRole('checkbox', { name: m }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Selecione ao menos um curso.')).toBeInTheDocument();
    expect(within(dialog).getByText('Selecione ao menos uma forma de pagamento.')).toBeInTheDocument();
    expect(within(dialog).getByText('O preço mínimo é R$ 5,00')).toBeInTheDocument();
    expect(api.savePlan).not.toHaveBeenCalled();

    const price = within(dialog).getByLabelText(/^Preço \(R\$\)/);
    await userEvent.clear(price);
    await userEvent.type(price, '478,80');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Anual' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Marketing Digital' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Cartão' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'PIX' }));
    await userEvent.type(within(dialog).getByLabelText('Descrição'), 'Tudo por um ano');
    // A new plan is on sale unless the staff turns it off.
    expect(within(dialog).getByRole('switch', { name: 'Ativo' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.savePlan).toHaveBeenCalledWith(expect.anything(), {
      plan: undefined,
      schoolId: 's1',
      values: {
        name: 'Plano Ação Total',
        slug: 'plano-acao-total',
        description: 'Tudo por um ano',
        course_ids: ['c2'],
        cycle: 'YEARLY',
        price: '478,80',
        billing_types: ['CREDIT_CARD', 'PIX'],
        is_active: true,
        turma_id: '',
      },
    });
    expect(toast.success).toHaveBeenCalledWith('Plano criado!');
  });

  it('Editar opens the plan as saved; a slug the school already has is refused on the field', async () => {
    api.fetchAdminPlans.mockResolvedValue([
      plan({ course_ids: ['c1'], billing_types: ['PIX'], description: 'Todos os cursos' }),
    ]);
    api.savePlan.mockRejectedValue(
      Object.assign(new Error('duplicate key value violates unique constraint "plans_school_slug_key"'), {
        code: '23505',
      }),
    );
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Editar Plano Completo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Plano' });
    expect(within(dialog).getByLabelText(/^Nome/)).toHaveValue('Plano Completo');
    expect(within(dialog).getByLabelText(/^Preço \(R\$\)/)).toHaveValue('49,90');
    expect(within(dialog).getByRole('checkbox', { name: 'Excel Essencial' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Marketing Digital' })).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Boleto' })).not.toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Mensal' })).toBeChecked();
    // Editing the name of a saved plan keeps its slug (its checkout link is out there).
    await userEvent.type(within(dialog).getByLabelText(/^Nome/), ' Plus');
    expect(within(dialog).getByLabelText(/^Endereço na web/)).toHaveValue('plano-completo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(
      await within(dialog).findByText('Já existe um plano com este endereço na web nesta escola. Escolha outro.'),
    ).toBeInTheDocument();
    expect(api.savePlan).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ plan: expect.objectContaining({ id: 'p1', course_ids: ['c1'] }) }),
    );
  });

  it('Assinantes lists who subscribed with status and paid-until, a page at a time; staff cancel one after confirming', async () => {
    api.fetchAdminPlans.mockResolvedValue([plan()]);
    api.fetchPlanSubscribers.mockResolvedValue({
      total: 23,
      rows: [
        subscriber(),
        subscriber({
          id: 's2',
          status: 'CANCELLED',
          name: 'Mariana Aluna',
          email: 'aluna@escola-demo.com.br',
          paid_until: '2026-02-10T03:00:00.000Z',
        }),
        subscriber({ id: 's3', status: 'OVERDUE', name: 'Paulo', email: null, billing_type: 'PIX' }),
        subscriber({ id: 's4', status: 'PENDING', name: 'Nina', paid_until: null, billing_type: 'BOLETO' }),
        subscriber({ id: 's5', status: 'EXPIRED', name: 'Eva' }),
      ],
    });
    invokeFunction.mockResolvedValue({ id: 's1', status: 'CANCELLED', paid_until: '2099-03-10T03:00:00.000Z' });
    const view = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Assinantes de Plano Completo' }));
    expect(currentLocation(view)).toBe('/admin/plans?assinantes=p1');
    const dialog = await screen.findByRole('dialog', { name: 'Assinantes de Plano Completo' });
    const lucas = (await within(dialog).findByRole('rowheader', { name: /Lucas Aluno/ })).closest('tr')!;
    expect(api.fetchPlanSubscribers).toHaveBeenCalledWith(expect.anything(), 'p1', 0, 'assinantes');
    expect(lucas).toHaveTextContent('aluno@escola-demo.com.br');
    expect(within(lucas).getByText('Ativa')).toBeInTheDocument();
    expect(lucas).toHaveTextContent('10/03/2099');
    expect(lucas).toHaveTextContent('Cartão');
    const badges = ['Mariana Aluna', 'Paulo', 'Nina', 'Eva'].map(
      (n) =>
        within(dialog)
          .getByRole('rowheader', { name: new RegExp(n) })
          .closest('tr')!
          .querySelector('td')!.textContent,
    );
    expect(badges).toEqual(['Cancelada — acesso até 10/02/2026', 'Em atraso', 'Pendente', 'Encerrada']);
    // Only the ones Asaas may still charge can be cancelled.
    expect(within(dialog).getAllByRole('button', { name: /^Cancelar assinatura de/ })).toHaveLength(3);
    expect(within(dialog).getByText('23 assinaturas')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(api.fetchPlanSubscribers).toHaveBeenCalledWith(expect.anything(), 'p1', 1, 'assinantes'));
    expect(currentLocation(view)).toBe('/admin/plans?assinantes=p1&pagina=2');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar assinatura de Lucas Aluno' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Cancelar assinatura?' });
    expect(confirm).toHaveTextContent(
      'Lucas Aluno não será mais cobrado(a) pelo Asaas. O assinante mantém o acesso até 10/03/2099.',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar assinatura' }));
    await waitFor(() =>
      expect(invokeFunction).toHaveBeenCalledWith('cancel-asaas-subscription', { subscription_id: 's1' }),
    );
    expect(toast.success).toHaveBeenCalledWith('Assinatura cancelada. O acesso continua até 10/03/2099.');
    await waitFor(() => expect(api.fetchAdminPlans).toHaveBeenCalledTimes(2));
  });

  it('Falhas lists the attempts Asaas refused, apart from the subscribers, in the URL; closing forgets the tab (issue 46)', async () => {
    api.fetchAdminPlans.mockResolvedValue([plan()]);
    api.fetchPlanSubscribers.mockImplementation((_c, _plan, _page, view: string) =>
      Promise.resolve(
        view === 'falhas'
          ? { total: 2, rows: [subscriber({ id: 'f1', status: 'FAILED', paid_until: null }), subscriber({ id: 'f2', status: 'FAILED', paid_until: null })] }
          : { total: 1, rows: [subscriber()] },
      ),
    );
    const view = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Assinantes de Plano Completo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assinantes de Plano Completo' });
    expect(await within(dialog).findAllByRole('rowheader', { name: /Lucas Aluno/ })).toHaveLength(1);
    expect(within(dialog).queryByText('Falhou')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('tab', { name: 'Assinantes' })).toHaveAttribute('aria-selected', 'true');

    await userEvent.click(within(dialog).getByRole('tab', { name: 'Falhas' }));
    await waitFor(() => expect(api.fetchPlanSubscribers).toHaveBeenCalledWith(expect.anything(), 'p1', 0, 'falhas'));
    expect(currentLocation(view)).toBe('/admin/plans?assinantes=p1&situacao=falhas');
    expect(await within(dialog).findAllByText('Falhou')).toHaveLength(2);
    expect(within(dialog).getByText('2 tentativas')).toBeInTheDocument();
    // Nothing to cancel in a refused attempt.
    expect(within(dialog).queryByRole('button', { name: /^Cancelar assinatura de/ })).not.toBeInTheDocument();

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/plans'));
  });

  it('a failed read offers a retry', async () => {
    api.fetchAdminPlans
      .mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 }))
      .mockResolvedValue([plan()]);
    open();
    expect(await screen.findByText('Não foi possível carregar os planos')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Plano Completo')).toBeInTheDocument();
  });
});
