// The reopen link of a recovery e-mail (issue 41, docs/recovery.md): ?retomar=<session> restores the
// coupon, the bump and the method; a charge still payable is offered; a paid one goes to the course;
// another account's link says so and shows nothing of that checkout. Each step is recorded once.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { signedIn, testProfile } from '@/test/session';
import type { ResumedCheckout } from '../api/queries';
import { CheckoutPage } from './checkout-page';

const api = vi.hoisted(() => ({ fetchCheckoutCourse: vi.fn(), fetchCheckoutQuote: vi.fn(), createCharge: vi.fn(), resumeCheckoutSession: vi.fn(), openCheckoutSession: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn(), info: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const course = { id: 'c1', slug: 'excel', title: 'Excel do zero', description: '', thumbnail_url: null, thumbnail_position: '50% 50%', price: 297, max_installments: 1, status: 'PUBLISHED', purchase_url: null, enrollments: [] };
const bump = { course_id: 'c2', title: 'Marketing Digital', description: '', thumbnail_url: null, list_price: 197, price: 97 };
function quoteFor(_client: unknown, _course: string, code: string | null, withBump: boolean) {
  const known = code === 'BEMVINDO20';
  const subtotal = withBump ? 394 : 297;
  const discount = known ? Math.round(subtotal * 20) / 100 : 0;
  return Promise.resolve({
    course: { id: 'c1', title: 'Excel do zero', price: 297 },
    bump,
    with_bump: withBump,
    coupon: known ? { code: 'BEMVINDO20', kind: 'percent', amount: 20, discount } : null,
    coupon_error: null,
    subtotal,
    discount,
    total: Math.round((subtotal - discount) * 100) / 100,
  });
}
const resumed = (over: Partial<ResumedCheckout> = {}): ResumedCheckout => ({
  session_id: 's-1',
  course_id: 'c1',
  course_slug: 'excel',
  plan_id: null,
  plan_slug: null,
  with_bump: true,
  coupon_code: 'BEMVINDO20',
  outcome: 'abandoned',
  stage: 'boleto',
  billing_type: 'BOLETO',
  pending_charge: null,
  already_enrolled: false,
  ...over,
});
const session = signedIn({ profile: { ...testProfile, school_id: 's1', cpf: '52998224725', phone: '11988887777' } });
const open = (resume: string | null = 's-1') =>
  renderScreen(<CheckoutPage courseRef={{ slug: 'excel' }} resume={resume} />, { route: `/checkout/excel${resume ? `?retomar=${resume}` : ''}`, session });

describe('CheckoutPage: the reopen link (?retomar=)', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.fetchCheckoutCourse.mockResolvedValue(course);
    api.fetchCheckoutQuote.mockImplementation(quoteFor);
    api.openCheckoutSession.mockResolvedValue(undefined);
  });

  it('restores the coupon, the bump and the method, records the opening once, then each change once', async () => {
    api.resumeCheckoutSession.mockResolvedValue(resumed());
    open();
    expect(await screen.findByRole('button', { name: 'Pagar R$ 315,20' })).toBeInTheDocument();
    expect(api.resumeCheckoutSession).toHaveBeenCalledWith(expect.anything(), 's-1');
    expect(api.fetchCheckoutQuote).toHaveBeenCalledWith(expect.anything(), 'c1', 'BEMVINDO20', true);
    expect(screen.getByRole('checkbox', { name: 'Leve também: Marketing Digital' })).toBeChecked();
    expect(screen.getByRole('button', { name: /^Boleto/ })).toHaveAttribute('aria-pressed', 'true');
    expect(api.openCheckoutSession).toHaveBeenCalledTimes(1);
    expect(api.openCheckoutSession).toHaveBeenCalledWith(expect.anything(), { courseId: 'c1', couponCode: 'BEMVINDO20', withBump: true });

    await userEvent.click(screen.getByRole('checkbox', { name: 'Leve também: Marketing Digital' }));
    expect(await screen.findByRole('button', { name: 'Pagar R$ 237,60' })).toBeInTheDocument();
    await waitFor(() => expect(api.openCheckoutSession).toHaveBeenCalledTimes(2));
    expect(api.openCheckoutSession).toHaveBeenLastCalledWith(expect.anything(), { courseId: 'c1', couponCode: 'BEMVINDO20', withBump: false });
  });

  it('a PIX still payable is offered with its link; a paid checkout goes to the course', async () => {
    api.resumeCheckoutSession.mockResolvedValue(resumed({ billing_type: 'PIX', stage: 'pix', pending_charge: { payment_id: 'p1', billing_type: 'PIX', invoice_url: 'https://asaas.example/i/p1', value: 315.2 } }));
    const view = open();
    const status = await screen.findByText(/Sua cobrança de R\$ 315,20 ainda pode ser paga/);
    expect(within(status).getByRole('link', { name: 'Abrir cobrança' })).toHaveAttribute('href', 'https://asaas.example/i/p1');
    view.unmount();

    api.resumeCheckoutSession.mockResolvedValue(resumed({ outcome: 'paid' }));
    const paid = open('s-2');
    await waitFor(() => expect(currentLocation(paid)).toBe('/course/c1'));
  });

  it("another account's link: a clear message, nothing of that checkout, nothing recorded", async () => {
    api.resumeCheckoutSession.mockRejectedValue(Object.assign(new Error('Link de checkout não encontrado.'), { code: 'P0002' }));
    open('s-other');
    expect(await screen.findByRole('heading', { name: 'Link de checkout não encontrado' })).toBeInTheDocument();
    expect(screen.getByText(/foi enviado para outra conta/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pagar/ })).not.toBeInTheDocument();
    expect(api.fetchCheckoutQuote).not.toHaveBeenCalled();
    expect(api.openCheckoutSession).not.toHaveBeenCalled();
  });

  it('without a link: the opening is recorded with no coupon and no bump', async () => {
    open(null);
    expect(await screen.findByRole('button', { name: 'Pagar R$ 297,00' })).toBeInTheDocument();
    expect(api.resumeCheckoutSession).not.toHaveBeenCalled();
    expect(api.openCheckoutSession).toHaveBeenCalledTimes(1);
    expect(api.openCheckoutSession).toHaveBeenCalledWith(expect.anything(), { courseId: 'c1', couponCode: null, withBump: false });
  });
});
