import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { CheckoutPage } from './checkout-page';

const api = vi.hoisted(() => ({ fetchCheckoutCourse: vi.fn(), fetchCheckoutQuote: vi.fn(), createCharge: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const course = {
  id: 'c1',
  slug: 'excel',
  title: 'Excel do zero',
  description: 'Planilhas para o dia a dia',
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  price: 297,
  max_installments: 6,
  status: 'PUBLISHED',
  purchase_url: null,
  enrollments: [],
};
/** The database's quote (public.checkout_quote), as fetchCheckoutQuote returns it. */
const quote = (extra: object = {}) => ({
  course: { id: 'c1', title: 'Excel do zero', price: 297 },
  bump: null,
  with_bump: false,
  coupon: null,
  coupon_error: null,
  subtotal: 297,
  discount: 0,
  total: 297,
  ...extra,
});
const session = signedIn({ profile: { ...testProfile, school_id: 's1', cpf: null, phone: null } });
const open = (coupon: string | null = null) => renderScreen(<CheckoutPage courseRef={{ slug: 'excel' }} coupon={coupon} />, { route: '/checkout/excel', session });

describe('CheckoutPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.fetchCheckoutQuote.mockResolvedValue(quote());
  });

  it('shows the order and its installments, asks for the missing buyer data, then charges by PIX', async () => {
    api.fetchCheckoutCourse.mockResolvedValue(course);
    api.createCharge.mockResolvedValue({ alreadyEnrolled: 'Você já está matriculado neste curso' });
    const view = open();
    expect(await screen.findByText('Excel do zero')).toBeInTheDocument();
    expect(api.fetchCheckoutCourse).toHaveBeenCalledWith(expect.anything(), { slug: 'excel' }, 's1', 'u1');
    expect(await screen.findByTestId('checkout-price')).toHaveTextContent('R$ 297,00');
    expect(api.fetchCheckoutQuote).toHaveBeenCalledWith(expect.anything(), 'c1', null, false);
    expect(screen.getByText('em até 6x de R$ 49,50')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Nome Completo/)).toHaveValue('Ana Aluna');

    await userEvent.click(screen.getByRole('button', { name: 'Pagar R$ 297,00' }));
    expect(await screen.findByText('Informe seu CPF')).toBeInTheDocument();
    expect(api.createCharge).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText(/^CPF/), '52998224725');
    await userEvent.type(screen.getByLabelText(/^Telefone/), '11988887777');
    await userEvent.click(screen.getByRole('button', { name: 'Pagar R$ 297,00' }));
    await waitFor(() =>
      expect(api.createCharge).toHaveBeenCalledWith({
        course_id: 'c1',
        billing_type: 'PIX',
        value: 297,
        coupon_code: null,
        with_bump: false,
        customer: { name: 'Ana Aluna', email: 'aluno@escola-demo.com.br', cpfCnpj: '52998224725', phone: '11988887777' },
      }),
    );
    // The server's 409: already enrolled, so to the course instead of an invoice.
    await waitFor(() => expect(currentLocation(view)).toBe('/course/c1'));
  });

  it('Cartão asks for the card, and offers the installments', async () => {
    api.fetchCheckoutCourse.mockResolvedValue(course);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cartão' }));
    expect(await screen.findByLabelText('Parcelas')).toHaveTextContent('6x de R$ 49,50');
    await userEvent.selectOptions(screen.getByLabelText('Parcelas'), '3');
    expect(screen.getByRole('button', { name: 'Pagar R$ 297,00 em 3x' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Pagar R$ 297,00 em 3x' }));
    expect(await screen.findByText('Informe o número do cartão')).toBeInTheDocument();
    expect(api.createCharge).not.toHaveBeenCalled();
  });

  it('a course the student cannot see is not found', async () => {
    api.fetchCheckoutCourse.mockResolvedValue(null);
    open();
    expect(await screen.findByRole('heading', { name: 'Curso não encontrado' })).toBeInTheDocument();
  });

  it('a failed read shows LoadError, and the retry shows the order', async () => {
    api.fetchCheckoutCourse.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue(course);
    open();
    expect(await screen.findByText('Não foi possível carregar o curso')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Excel do zero')).toBeInTheDocument();
  });
});
