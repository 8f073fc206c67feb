// Perfil → Minhas compras as a student meets it (issue 42): each purchase with what was bought, and its nota
// fiscal: "Nota fiscal (PDF)" and "XML" links once issued (or when the municipality denied its cancellation),
// where it stands otherwise; nothing at all for someone who never bought.
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import type { MyPurchase } from '../api/queries';
import { MyPurchasesCard } from './my-purchases-card';

const api = vi.hoisted(() => ({ fetchMyPurchases: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const purchase = (over: Partial<MyPurchase>): MyPurchase => ({
  payment_id: 'p1',
  paid_at: '2026-11-01T15:00:00Z',
  value: 197,
  billing_type: 'PIX',
  payment_status: 'RECEIVED',
  items: [{ kind: 'course', title: 'Oratória', course_id: 'c1' }],
  invoice_status: 'authorized',
  invoice_number: '1001',
  invoice_pdf_url: 'https://nf.example/1001.pdf',
  invoice_xml_url: 'https://nf.example/1001.xml',
  ...over,
});
const student = signedIn({ isAdmin: false });

describe('MyPurchasesCard', () => {
  beforeEach(() => api.fetchMyPurchases.mockReset());

  it('lists each purchase with its PDF and XML when issued, and the status otherwise', async () => {
    api.fetchMyPurchases.mockResolvedValue({
      total: 3,
      rows: [
        purchase({}),
        purchase({ payment_id: 'p2', items: [{ kind: 'course', title: 'Excel', course_id: 'c2' }, { kind: 'bump', title: 'Planilhas prontas', course_id: 'c3' }], invoice_status: 'pending', invoice_number: null, invoice_pdf_url: null, invoice_xml_url: null, billing_type: 'CREDIT_CARD' }),
        purchase({ payment_id: 'p3', items: [{ kind: 'course', title: 'Fotografia', course_id: 'c4' }], payment_status: 'REFUNDED', invoice_status: 'cancelled', invoice_number: '1000' }),
      ],
    });
    renderScreen(<MyPurchasesCard userId="u1" />, { session: student });
    const list = await screen.findByRole('list', { name: 'Compras' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const [issued, waiting, cancelled] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(issued).getByText('Oratória')).toBeInTheDocument();
    expect(within(issued).getByText('Nº 1001')).toBeInTheDocument();
    expect(within(issued).getByText('R$ 197,00')).toBeInTheDocument();
    expect(within(issued).getByRole('link', { name: 'Nota fiscal (PDF) de Oratória' })).toHaveAttribute('href', 'https://nf.example/1001.pdf');
    expect(within(issued).getByRole('link', { name: 'XML da nota fiscal de Oratória' })).toHaveAttribute('href', 'https://nf.example/1001.xml');

    expect(within(waiting).getByText('Excel + Planilhas prontas')).toBeInTheDocument();
    expect(within(waiting).getByText('Agendada')).toBeInTheDocument();
    expect(within(waiting).getByText('Cartão')).toBeInTheDocument();
    expect(within(waiting).queryByRole('link')).not.toBeInTheDocument();

    // A refund cancelled the note: its links are gone.
    expect(within(cancelled).getByText('Reembolsada')).toBeInTheDocument();
    expect(within(cancelled).getByText('Cancelada')).toBeInTheDocument();
    expect(within(cancelled).queryByRole('link')).not.toBeInTheDocument();
    expect(api.fetchMyPurchases).toHaveBeenCalledWith(expect.anything(), 0);
  });

  it('shows nothing to a student without purchases', async () => {
    api.fetchMyPurchases.mockResolvedValue({ total: 0, rows: [] });
    const view = renderScreen(<MyPurchasesCard userId="u1" />, { session: student });
    await vi.waitFor(() => expect(api.fetchMyPurchases).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByText('Minhas compras')).not.toBeInTheDocument();
    expect(view.container.querySelector('section, [class*="card"]')).toBeNull();
  });
});
