// Issue 46: a card that cannot be right never reaches Asaas, and Asaas's refusal of a card stays beside
// the form (not only in a toast that goes in 4 s) until the buyer edits the card or tries again. Both
// checkouts: a course's and a plan's. The network mocked at api/queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { CheckoutPage } from './checkout-page';
import { PlanCheckoutPage } from './plan-checkout-page';

const api = vi.hoisted(() => ({
  fetchCheckoutCourse: vi.fn(),
  fetchCheckoutQuote: vi.fn(),
  createCharge: vi.fn(),
  fetchCheckoutPlan: vi.fn(),
  createSubscription: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const DECLINED = 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.';
const session = signedIn({ profile: { ...testProfile, school_id: 's1', cpf: '52998224725', phone: '11988887777' } });

const checkouts = [
  {
    name: 'the course checkout',
    submit: 'Pagar R$ 297,00',
    send: api.createCharge,
    open() {
      api.fetchCheckoutCourse.mockResolvedValue({
        id: 'c1', slug: 'excel', title: 'Excel do zero', description: null, thumbnail_url: null, thumbnail_position: '50% 50%',
        price: 297, max_installments: 1, status: 'PUBLISHED', purchase_url: null, enrollments: [],
      });
      api.fetchCheckoutQuote.mockResolvedValue({
        course: { id: 'c1', title: 'Excel do zero', price: 297 }, bump: null, with_bump: false, coupon: null, coupon_error: null, subtotal: 297, discount: 0, total: 297,
      });
      return renderScreen(<CheckoutPage courseRef={{ slug: 'excel' }} coupon={null} />, { route: '/checkout/excel', session });
    },
  },
  {
    name: 'the plan checkout',
    submit: 'Assinar por R$ 49,90/mês',
    send: api.createSubscription,
    open() {
      api.fetchCheckoutPlan.mockResolvedValue({
        id: 'p1', slug: 'plano', name: 'Plano Completo', description: null, cycle: 'MONTHLY', price: 49.9, billing_types: ['PIX', 'CREDIT_CARD'],
        is_active: true, courses: [{ id: 'c1', title: 'Excel', thumbnail_url: null, thumbnail_position: '50% 50%' }], running: null,
      });
      return renderScreen(<PlanCheckoutPage slug="plano" />, { route: '/checkout/plano/plano', session });
    },
  },
];

async function fillCard(card: { number: string; month: string; year: string }) {
  const type = async (label: RegExp, value: string) => {
    await userEvent.clear(screen.getByLabelText(label));
    await userEvent.type(screen.getByLabelText(label), value);
  };
  await type(/^Nome impresso no cartão/, 'ANA ALUNA');
  await type(/^Número do cartão/, card.number);
  await type(/^Mês/, card.month);
  await type(/^Ano/, card.year);
  await type(/^CVV/, '318');
  await type(/^CEP do titular/, '01310100');
  await type(/^Número do endereço/, '1000');
}

describe.each(checkouts)('$name', (checkout) => {
  beforeEach(() => Object.values(api).forEach((fn) => fn.mockReset()));

  it('refuses a card number that fails its check digit and an expired year beside the fields, without calling Asaas', async () => {
    checkout.open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cartão' }));
    await fillCard({ number: '1234567890123456', month: '05', year: '2020' });
    await userEvent.click(screen.getByRole('button', { name: checkout.submit }));
    expect(await screen.findByText('Número do cartão inválido. Confira os dígitos.')).toBeInTheDocument();
    expect(screen.getByText('Cartão vencido. Confira o ano de validade.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Número do cartão/)).toHaveAttribute('aria-invalid', 'true');
    expect(checkout.send).not.toHaveBeenCalled();
  });

  it("shows Asaas's refusal beside the form until the buyer edits the card, and again after a retry that fails", async () => {
    checkout.send.mockRejectedValue(new Error(DECLINED));
    checkout.open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cartão' }));
    await fillCard({ number: '4916561358240741', month: '05', year: '2031' });
    await userEvent.click(screen.getByRole('button', { name: checkout.submit }));

    const form = screen.getByRole('form', { name: 'Pagamento' });
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Pagamento não concluído');
    expect(alert).toHaveTextContent(DECLINED);
    // Not a toast: it stays while the buyer reads it and moves around the form.
    await userEvent.click(screen.getByLabelText(/^Nome impresso no cartão/));
    await userEvent.tab();
    expect(within(form).getByRole('alert')).toHaveTextContent(DECLINED);

    // Editing the card is acting on it: the refusal goes.
    await userEvent.type(screen.getByLabelText(/^CVV/), '{backspace}9');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();

    // Trying again: gone while it is sent, back when Asaas refuses again.
    let refuse: (e: Error) => void = () => {};
    checkout.send.mockReturnValueOnce(new Promise((_, reject) => (refuse = reject)));
    await userEvent.click(screen.getByRole('button', { name: checkout.submit }));
    await waitFor(() => expect(checkout.send).toHaveBeenCalledTimes(2));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    refuse(new Error(DECLINED));
    expect(await within(form).findByRole('alert')).toHaveTextContent(DECLINED);
    expect(screen.getByRole('button', { name: checkout.submit })).toBeEnabled();
  });
});
