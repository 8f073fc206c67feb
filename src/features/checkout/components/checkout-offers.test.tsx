import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { CheckoutPage } from './checkout-page';

// The coupon and the order bump of the checkout (issue 24): every number on screen is the database's
// quote (public.checkout_quote, mocked here as fetchCheckoutQuote returns it).
const api = vi.hoisted(() => ({ fetchCheckoutCourse: vi.fn(), fetchCheckoutQuote: vi.fn(), createCharge: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn(), info: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const course = {
  id: 'c1',
  slug: 'excel',
  title: 'Excel do zero',
  description: null,
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  price: 297,
  max_installments: 1,
  status: 'PUBLISHED',
  purchase_url: null,
  enrollments: [],
};
const bump = {
  course_id: 'c2',
  title: 'Marketing Digital',
  description: 'Atraia clientes pela internet',
  thumbnail_url: null,
  list_price: 197,
  price: 97,
};
const coupon = { code: 'BEMVINDO20', kind: 'percent', amount: 20, discount: 59.4 };

/** What the database answers for (code, withBump), in this test's school. */
function quoteFor(_client: unknown, _course: string, code: string | null, withBump: boolean) {
  const known = code?.toUpperCase() === 'BEMVINDO20';
  const subtotal = withBump ? 394 : 297;
  const discount = known ? 59.4 : 0;
  return Promise.resolve({
    course: { id: 'c1', title: 'Excel do zero', price: 297 },
    bump,
    with_bump: withBump,
    coupon: known ? coupon : null,
    coupon_error: code && !known ? 'Cupom não encontrado.' : null,
    subtotal,
    discount,
    total: Math.round((subtotal - discount) * 100) / 100,
  });
}

const session = signedIn({ profile: { ...testProfile, school_id: 's1', cpf: '52998224725', phone: '11988887777' } });
const open = (coupon: string | null = null) =>
  renderScreen(<CheckoutPage courseRef={{ slug: 'excel' }} coupon={coupon} />, { route: '/checkout/excel', session });
const summary = () => screen.getByRole('complementary', { name: 'Resumo do pedido' });

describe('CheckoutPage: coupon and order bump', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.error).mockReset();
    api.fetchCheckoutCourse.mockResolvedValue(course);
    api.fetchCheckoutQuote.mockImplementation(quoteFor);
  });

  it('"Tem um cupom?" says why a code does not apply (keeping it), then applies one: the discount and the new total are the quote\'s', async () => {
    open();
    expect(await screen.findByTestId('checkout-price')).toHaveTextContent('R$ 297,00');
    await userEvent.click(screen.getByRole('button', { name: 'Tem um cupom?' }));
    const field = screen.getByLabelText('Código do cupom');
    await userEvent.type(field, 'NAOEXISTE');
    await userEvent.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(await screen.findByText('Cupom não encontrado.')).toBeInTheDocument();
    expect(api.fetchCheckoutQuote).toHaveBeenLastCalledWith(expect.anything(), 'c1', 'NAOEXISTE', false);
    expect(field).toHaveValue('NAOEXISTE');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 297,00');

    await userEvent.clear(field);
    await userEvent.type(field, 'bemvindo20{Enter}');
    expect(await within(summary()).findByText('Desconto (cupom BEMVINDO20)')).toBeInTheDocument();
    expect(within(summary()).getByText('− R$ 59,40')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 237,60');
    expect(screen.getByRole('button', { name: 'Remover cupom BEMVINDO20' })).toBeInTheDocument();
    // Enter in the coupon field applies it; it does not submit the payment.
    expect(api.createCharge).not.toHaveBeenCalled();

    api.createCharge.mockResolvedValue({ invoiceUrl: 'https://asaas.test/i/1', payment_id: 'p1' });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await userEvent.click(screen.getByRole('button', { name: 'Pagar R$ 237,60' }));
    await waitFor(() =>
      expect(api.createCharge).toHaveBeenCalledWith(
        expect.objectContaining({ course_id: 'c1', value: 237.6, coupon_code: 'BEMVINDO20', with_bump: false }),
      ),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://asaas.test/i/1'));
    vi.unstubAllGlobals();
  });

  it('past the guess limit the field shows its message over the price without the code; Aplicar with the same code asks again', async () => {
    // What fetchCheckoutQuote returns when the database answers 429 (tests/integration/product/security-coupons.test.ts).
    const limited = 'Muitas tentativas de cupom. Aguarde um minuto e tente de novo.';
    api.fetchCheckoutQuote.mockImplementation((c: unknown, courseId: string, code: string | null, withBump: boolean) =>
      quoteFor(c, courseId, null, withBump).then((q) => ({ ...q, coupon_error: code ? limited : null })),
    );
    open();
    expect(await screen.findByTestId('checkout-price')).toHaveTextContent('R$ 297,00');
    await userEvent.click(screen.getByRole('button', { name: 'Tem um cupom?' }));
    const field = screen.getByLabelText('Código do cupom');
    await userEvent.type(field, 'BEMVINDO20');
    await userEvent.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(await screen.findByText(limited)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 297,00');

    // A minute later the buyer applies the same code again: it is asked again, and applies.
    api.fetchCheckoutQuote.mockImplementation(quoteFor);
    await userEvent.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(await within(summary()).findByText('Desconto (cupom BEMVINDO20)')).toBeInTheDocument();
    expect(screen.queryByText(limited)).not.toBeInTheDocument();
  });

  it('?cupom= in the link opens the field with the code and applies it; Remover takes it off', async () => {
    open('BEMVINDO20');
    expect(
      await within(await screen.findByRole('complementary', { name: 'Resumo do pedido' })).findByText(
        'Desconto (cupom BEMVINDO20)',
      ),
    ).toBeInTheDocument();
    expect(api.fetchCheckoutQuote).toHaveBeenCalledWith(expect.anything(), 'c1', 'BEMVINDO20', false);
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 237,60');
    await userEvent.click(screen.getByRole('button', { name: 'Remover cupom BEMVINDO20' }));
    await waitFor(() => expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 297,00'));
    expect(screen.getByLabelText('Código do cupom')).toHaveValue('BEMVINDO20');
  });

  it('the order bump: "Leve também" with its prices; ticking it quotes again and the charge carries it', async () => {
    api.createCharge.mockResolvedValue({ alreadyEnrolled: 'Você já está matriculado neste curso' });
    open('BEMVINDO20');
    const offer = await screen.findByRole('region', { name: 'Oferta especial' });
    const box = within(offer).getByRole('checkbox', { name: 'Leve também: Marketing Digital' });
    expect(box).not.toBeChecked();
    expect(offer).toHaveTextContent('de R$ 197,00 por R$ 97,00 no mesmo pagamento');
    expect(offer).toHaveTextContent('Atraia clientes pela internet');
    expect(within(summary()).queryByText('Marketing Digital')).not.toBeInTheDocument();

    await userEvent.click(box);
    expect(await within(summary()).findByText('Marketing Digital')).toBeInTheDocument();
    expect(api.fetchCheckoutQuote).toHaveBeenLastCalledWith(expect.anything(), 'c1', 'BEMVINDO20', true);
    expect(within(summary()).getByText('R$ 97,00')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 334,60');

    await userEvent.click(screen.getByRole('button', { name: 'Pagar R$ 334,60' }));
    await waitFor(() =>
      expect(api.createCharge).toHaveBeenCalledWith(
        expect.objectContaining({ value: 334.6, coupon_code: 'BEMVINDO20', with_bump: true }),
      ),
    );
  });

  it("the function's refusal is the error toast, and the page quotes again to show why", async () => {
    api.createCharge.mockRejectedValue(new Error('Este cupom esgotou.'));
    open('BEMVINDO20');
    await waitFor(() => expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 237,60'));
    const calls = api.fetchCheckoutQuote.mock.calls.length;
    api.fetchCheckoutQuote.mockImplementation((_c, _course, code: string | null, withBump: boolean) =>
      quoteFor(_c, _course, null, withBump).then((q) => ({ ...q, coupon_error: code ? 'Este cupom esgotou.' : null })),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Pagar R$ 237,60' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao processar pagamento', { description: 'Este cupom esgotou.' }),
    );
    // The coupon's field says why, and so does the form until the buyer acts (issue 46).
    expect(await within(screen.getByRole('complementary', { name: 'Resumo do pedido' })).findByRole('alert')).toHaveTextContent('Este cupom esgotou.');
    expect(within(screen.getByRole('form', { name: 'Pagamento' })).getByRole('alert')).toHaveTextContent('Este cupom esgotou.');
    expect(api.fetchCheckoutQuote.mock.calls.length).toBeGreaterThan(calls);
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('R$ 297,00');
  });
});
