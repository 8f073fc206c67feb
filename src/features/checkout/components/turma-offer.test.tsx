// The checkout of a course with turmas (issue 40): the turma on sale, "Turma esgotada" with the waiting
// list, and create-asaas-charge's 409 for the turma (it filled up meanwhile) shown beside the button
// with nothing typed lost. The network is mocked at api/queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import { CheckoutPage } from './checkout-page';

const api = vi.hoisted(() => ({
  fetchCheckoutCourse: vi.fn(),
  fetchCheckoutQuote: vi.fn(),
  createCharge: vi.fn(),
  fetchWaitlistEntry: vi.fn(),
  joinWaitlist: vi.fn(),
  leaveWaitlist: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const course = {
  id: 'c1',
  slug: 'excel',
  title: 'Excel do zero',
  description: null,
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  price: 100,
  max_installments: 1,
  status: 'PUBLISHED',
  purchase_url: null,
  enrollments: [],
};
const quote = (turmas: object) => ({
  course: { id: 'c1', title: 'Excel do zero', price: 100 },
  bump: null,
  with_bump: false,
  coupon: null,
  coupon_error: null,
  subtotal: 100,
  discount: 0,
  total: 100,
  turmas,
});
const open = { state: 'open', turma: { id: 't1', name: 'Turma de março', starts_on: '2027-03-10', ends_on: null, seats_left: 1 }, waitlist_enabled: false };
const soldOut = { state: 'sold_out', turma: null, waitlist_enabled: true };
const session = signedIn({ profile: { ...testProfile, school_id: 's1', cpf: null, phone: null } });
const render = () => renderScreen(<CheckoutPage courseRef={{ slug: 'excel' }} />, { route: '/checkout/excel', session });

describe('the checkout of a course with turmas', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.fetchCheckoutCourse.mockResolvedValue(course);
  });

  it("says which turma is sold; the charge's 409 for the turma shows beside the button, keeps what was typed, and the turma then says it is full", async () => {
    api.fetchCheckoutQuote.mockResolvedValueOnce(quote(open)).mockResolvedValue(quote(soldOut));
    api.fetchWaitlistEntry.mockResolvedValue(null);
    api.createCharge.mockRejectedValue(new Error('Turma esgotada.'));
    render();
    const offer = await screen.findByTestId('turma-offer');
    expect(offer).toHaveTextContent('Turma de março · começa em 10/03');
    expect(offer).toHaveTextContent('Última vaga');
    await userEvent.type(screen.getByLabelText(/^CPF/), '52998224725');
    await userEvent.type(screen.getByLabelText(/^Telefone/), '11988887777');
    await userEvent.click(screen.getByRole('button', { name: 'Pagar R$ 100,00' }));
    expect(await screen.findByTestId('payment-refusal')).toHaveTextContent('Turma esgotada.');
    expect(screen.getByLabelText(/^CPF/)).toHaveValue('529.982.247-25');
    await waitFor(() => expect(screen.getByTestId('turma-offer')).toHaveTextContent('Turma esgotada'));
    expect(screen.getByRole('button', { name: 'Pagar R$ 100,00' })).toBeDisabled();
  });

  it('a full turma offers the waiting list: joining confirms it, and Sair da lista leaves it', async () => {
    api.fetchCheckoutQuote.mockResolvedValue(quote(soldOut));
    api.fetchWaitlistEntry.mockResolvedValue(null);
    api.joinWaitlist.mockResolvedValue(undefined);
    api.leaveWaitlist.mockResolvedValue(undefined);
    render();
    const offer = await screen.findByTestId('turma-offer');
    expect(offer).toHaveTextContent('Turma esgotada');
    expect(screen.getByRole('button', { name: 'Pagar R$ 100,00' })).toBeDisabled();
    api.fetchWaitlistEntry.mockResolvedValue({ id: 'w1', created_at: '2026-11-28T10:00:00Z' });
    await userEvent.click(await within(offer).findByRole('button', { name: 'Entrar na lista de espera' }));
    expect(api.joinWaitlist).toHaveBeenCalledWith(expect.anything(), 'c1');
    expect(await screen.findByTestId('waitlist-joined')).toHaveTextContent('Você está na lista de espera');
    expect(screen.getByTestId('waitlist-joined')).toHaveTextContent('Avisamos por e-mail quando abrir uma vaga ou a próxima turma abrir as inscrições');
    api.fetchWaitlistEntry.mockResolvedValue(null);
    await userEvent.click(screen.getByRole('button', { name: 'Sair da lista' }));
    expect(api.leaveWaitlist).toHaveBeenCalledWith(expect.anything(), 'c1', 'u1');
    expect(await within(offer).findByRole('button', { name: 'Entrar na lista de espera' })).toBeInTheDocument();
  });
});
