// A plan's checkout (issue 24, /checkout/plano/:slug), the network mocked at api/queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { PlanCheckoutPage } from './plan-checkout-page';

const api = vi.hoisted(() => ({
  fetchCheckoutPlan: vi.fn(),
  createSubscription: vi.fn(),
  openPlanCheckoutSession: vi.fn(),
  resumeCheckoutSession: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const plan = (extra: object = {}) => ({
  id: 'p1',
  slug: 'plano-completo',
  name: 'Plano Completo',
  description: 'Todos os cursos publicados',
  cycle: 'MONTHLY',
  price: 49.9,
  billing_types: ['PIX', 'CREDIT_CARD'],
  is_active: true,
  courses: [
    { id: 'c1', title: 'Excel Essencial', thumbnail_url: null, thumbnail_position: '50% 50%' },
    { id: 'c2', title: 'Marketing Digital', thumbnail_url: null, thumbnail_position: '50% 50%' },
  ],
  running: null,
  ...extra,
});
const session = signedIn({ profile: { ...testProfile, school_id: 's1', cpf: '52998224725', phone: '11988887777' } });
const open = () =>
  renderScreen(<PlanCheckoutPage slug="plano-completo" />, { route: '/checkout/plano/plano-completo', session });

describe('PlanCheckoutPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.error).mockReset();
    vi.mocked(toast.success).mockReset();
    api.openPlanCheckoutSession.mockResolvedValue(undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the plan, its courses and the price per month, offers only its methods, and subscribes by PIX', async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan());
    api.createSubscription.mockResolvedValue({ subscription_id: 'sub1', invoiceUrl: 'https://asaas.test/i/9' });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    open();
    const summary = await screen.findByRole('complementary', { name: 'Resumo da assinatura' });
    expect(api.fetchCheckoutPlan).toHaveBeenCalledWith(expect.anything(), 'plano-completo', 's1', 'u1');
    expect(screen.getByRole('heading', { level: 1, name: 'Assinar Plano Completo' })).toBeInTheDocument();
    expect(within(summary).getByText('Acesso a 2 cursos')).toBeInTheDocument();
    expect(within(summary).getByText('Excel Essencial')).toBeInTheDocument();
    expect(within(summary).getByText('Marketing Digital')).toBeInTheDocument();
    expect(within(summary).getByTestId('checkout-price')).toHaveTextContent('R$ 49,90/mês');
    // The fieldset and its row of buttons are both named "Forma de pagamento": the row is the inner one.
    const methods = within(screen.getAllByRole('group', { name: 'Forma de pagamento' }).at(-1)!).getAllByRole('button');
    expect(methods.map((b) => b.textContent)).toEqual(['PIX', 'Cartão']);
    expect(screen.getByRole('button', { name: 'PIX' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText(/^CPF/)).toHaveValue('529.982.247-25');

    await userEvent.click(screen.getByRole('button', { name: 'Assinar por R$ 49,90/mês' }));
    await waitFor(() =>
      expect(api.createSubscription).toHaveBeenCalledWith({
        plan_id: 'p1',
        billing_type: 'PIX',
        customer: {
          name: 'Ana Aluna',
          email: 'aluno@escola-demo.com.br',
          cpfCnpj: '52998224725',
          phone: '11988887777',
        },
      }),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://asaas.test/i/9'));
  });

  it('Cartão asks for the card (the shared form of the course checkout) and sends it with the holder, without installments', async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan({ cycle: 'YEARLY', price: 478.8 }));
    api.createSubscription.mockResolvedValue({ subscription_id: 'sub1', invoiceUrl: null });
    const view = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cartão' }));
    expect(
      screen.getByText('O cartão é cobrado agora e, depois, automaticamente a cada renovação.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Parcelas')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Assinar por R$ 478,80/ano' }));
    expect(await screen.findByText('Informe o número do cartão')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('Dados do cartão obrigatórios', {
      description: 'Preencha todos os dados do cartão e do titular.',
    });
    expect(api.createSubscription).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText(/^Nome impresso no cartão/), 'ANA ALUNA');
    await userEvent.type(screen.getByLabelText(/^Número do cartão/), '5162306219378829');
    await userEvent.type(screen.getByLabelText(/^Mês/), '05');
    await userEvent.type(screen.getByLabelText(/^Ano/), '2031');
    await userEvent.type(screen.getByLabelText(/^CVV/), '318');
    await userEvent.type(screen.getByLabelText(/^CEP do titular/), '01310100');
    await userEvent.type(screen.getByLabelText(/^Número do endereço/), '1000');
    await userEvent.click(screen.getByRole('button', { name: 'Assinar por R$ 478,80/ano' }));
    await waitFor(() =>
      expect(api.createSubscription).toHaveBeenCalledWith({
        plan_id: 'p1',
        billing_type: 'CREDIT_CARD',
        customer: {
          name: 'Ana Aluna',
          email: 'aluno@escola-demo.com.br',
          cpfCnpj: '52998224725',
          phone: '11988887777',
        },
        creditCard: {
          holderName: 'ANA ALUNA',
          number: '5162306219378829',
          expiryMonth: '05',
          expiryYear: '2031',
          ccv: '318',
        },
        creditCardHolderInfo: {
          name: 'Ana Aluna',
          email: 'aluno@escola-demo.com.br',
          cpfCnpj: '52998224725',
          phone: '11988887777',
          postalCode: '01310100',
          addressNumber: '1000',
        },
      }),
    );
    // No invoice listed yet: the profile shows the subscription.
    await waitFor(() => expect(currentLocation(view)).toBe('/profile?assinatura=retorno'));
    expect(toast.success).toHaveBeenCalledWith('Assinatura criada! Acompanhe a cobrança em Minha assinatura.');
  });

  it("the function's pt-BR refusal is the error toast, and the form stays", async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan());
    api.createSubscription.mockRejectedValue(new Error('Forma de pagamento não aceita neste plano.'));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Assinar por R$ 49,90/mês' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao processar pagamento', {
        description: 'Forma de pagamento não aceita neste plano.',
      }),
    );
    expect(screen.getByRole('button', { name: 'Assinar por R$ 49,90/mês' })).toBeEnabled();
  });

  it('a plan the student already has sends them to the profile instead of charging again', async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan({ running: { id: 'sub1', status: 'ACTIVE' } }));
    open();
    expect(await screen.findByRole('heading', { name: 'Você já assina este plano.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver minha assinatura' })).toHaveAttribute('href', '/profile');
    expect(screen.queryByRole('form', { name: 'Pagamento' })).not.toBeInTheDocument();
  });

  it('an unknown or inactive plan is not sold; a failed read offers a retry', async () => {
    api.fetchCheckoutPlan.mockResolvedValueOnce(null);
    const first = open();
    expect(await screen.findByRole('heading', { name: 'Plano não encontrado' })).toBeInTheDocument();
    first.unmount();

    api.fetchCheckoutPlan.mockResolvedValueOnce(plan({ is_active: false }));
    const second = open();
    expect(await screen.findByRole('heading', { name: 'Este plano não está à venda' })).toBeInTheDocument();
    second.unmount();

    api.fetchCheckoutPlan.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue(plan());
    open();
    expect(await screen.findByText('Não foi possível carregar o plano')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('complementary', { name: 'Resumo da assinatura' })).toBeInTheDocument();
  });
});

// Issue 41 (docs/recovery.md "Plans"): the plan's checkout is a session too, and its reopen link continues it.
describe('PlanCheckoutPage: the checkout session and the reopen link (?retomar=)', () => {
  const resumed = (extra: object = {}) => ({
    session_id: 's-9',
    course_id: null,
    course_slug: null,
    plan_id: 'p1',
    plan_slug: 'plano-completo',
    with_bump: false,
    coupon_code: null,
    outcome: 'open',
    stage: 'card_refused',
    billing_type: 'CREDIT_CARD',
    pending_charge: null,
    already_enrolled: false,
    ...extra,
  });
  const reopen = (id = 's-9') =>
    renderScreen(<PlanCheckoutPage slug="plano-completo" resume={id} />, {
      route: `/checkout/plano/plano-completo?retomar=${id}`,
      session,
    });
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.openPlanCheckoutSession.mockResolvedValue(undefined);
  });

  it('opening the page records the session once', async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan());
    open();
    await screen.findByRole('heading', { level: 1, name: 'Assinar Plano Completo' });
    await waitFor(() => expect(api.openPlanCheckoutSession).toHaveBeenCalledWith(expect.anything(), 'p1'));
    expect(api.openPlanCheckoutSession).toHaveBeenCalledTimes(1);
    expect(api.resumeCheckoutSession).not.toHaveBeenCalled();
  });

  it('the link continues the session with the method chosen last', async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan());
    api.resumeCheckoutSession.mockResolvedValue(resumed());
    reopen();
    await screen.findByRole('heading', { level: 1, name: 'Assinar Plano Completo' });
    expect(api.resumeCheckoutSession).toHaveBeenCalledWith(expect.anything(), 's-9');
    expect(screen.getByRole('button', { name: /^Cartão/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Assinar por R$ 49,90/mês' })).toBeInTheDocument();
  });

  it("another account's link says so and shows nothing of that checkout", async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan());
    api.resumeCheckoutSession.mockRejectedValue(
      Object.assign(new Error('Link de checkout não encontrado.'), { code: 'P0002' }),
    );
    reopen('s-alheia');
    expect(await screen.findByRole('heading', { name: 'Link de checkout não encontrado' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Pagamento' })).not.toBeInTheDocument();
    expect(api.openPlanCheckoutSession).not.toHaveBeenCalled();
  });

  it('a subscription still waiting for its first payment offers the invoice from the link', async () => {
    api.fetchCheckoutPlan.mockResolvedValue(plan({ running: { id: 'sub1', status: 'PENDING' } }));
    api.resumeCheckoutSession.mockResolvedValue(
      resumed({
        stage: 'pix',
        billing_type: 'PIX',
        pending_charge: {
          payment_id: 'pay1',
          billing_type: 'PIX',
          invoice_url: 'https://asaas.test/i/pay1',
          value: 49.9,
        },
      }),
    );
    reopen();
    const status = await screen.findByText(/Sua cobrança de R\$ 49,90 ainda pode ser paga/);
    expect(within(status).getByRole('link', { name: 'Abrir cobrança' })).toHaveAttribute(
      'href',
      'https://asaas.test/i/pay1',
    );
    expect(screen.getByRole('link', { name: 'Ver minha assinatura' })).toBeInTheDocument();
  });
});
