// Afiliados as staff meet it (issue 43): the tabs by status with the tab and the page in the URL, each
// affiliate's numbers; "Aprovar" and "Recusar" on a request, "Bloquear" (asked first) on an approved one.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import type { AdminAffiliate } from '../../api/admin-queries';
import { AffiliatesPage } from './affiliates-page';

const api = vi.hoisted(() => ({
  fetchAdminAffiliates: vi.fn(),
  decideAffiliate: vi.fn(),
  fetchAllAdminCommissions: vi.fn(),
}));
const csv = vi.hoisted(() => ({ downloadCsv: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/utils/csv', async (importOriginal) => ({ ...(await importOriginal<object>()), ...csv }));
vi.mock('../../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const row = (over: Partial<AdminAffiliate>): AdminAffiliate => ({
  id: 'a1',
  name: 'Ana Afiliada',
  email: 'ana@exemplo.com',
  code: 'ana12345',
  status: 'pending',
  has_wallet: false,
  created_at: '2026-11-20T12:00:00Z',
  clicks: 0,
  sales: 0,
  pending: 0,
  confirmed: 0,
  available: 0,
  reversed: 0,
  ...over,
});

describe('AffiliatesPage', () => {
  beforeEach(() => {
    api.fetchAdminAffiliates.mockReset();
    api.decideAffiliate.mockReset().mockResolvedValue(undefined);
  });

  it('approves or refuses a request', async () => {
    api.fetchAdminAffiliates.mockResolvedValue({
      total: 2,
      rows: [row({}), row({ id: 'a2', name: 'Bruno', code: 'bruno123' })],
    });
    renderScreen(<AffiliatesPage schoolId="s1" />, { route: '/admin/affiliates' });
    const table = await screen.findByRole('table', { name: 'Afiliados: Pedidos' });
    expect(api.fetchAdminAffiliates).toHaveBeenCalledWith(expect.anything(), 's1', 'pending', 0);
    await userEvent.click(within(table).getByRole('button', { name: 'Aprovar Ana Afiliada' }));
    expect(api.decideAffiliate).toHaveBeenCalledWith(expect.anything(), 'a1', 'approved');
    await userEvent.click(within(table).getByRole('button', { name: 'Recusar Bruno' }));
    expect(api.decideAffiliate).toHaveBeenCalledWith(expect.anything(), 'a2', 'refused');
    expect(within(table).queryByRole('button', { name: /Bloquear/ })).not.toBeInTheDocument();
  });

  it("shows an approved affiliate's numbers and blocks after asking", async () => {
    api.fetchAdminAffiliates.mockResolvedValue({
      total: 1,
      rows: [
        row({
          status: 'approved',
          has_wallet: true,
          clicks: 1200,
          sales: 3,
          pending: 59.1,
          available: 118.2,
          reversed: 59.1,
        }),
      ],
    });
    const view = renderScreen(<AffiliatesPage schoolId="s1" />, { route: '/admin/affiliates?situacao=approved' });
    const table = await screen.findByRole('table', { name: 'Afiliados: Aprovados' });
    expect(api.fetchAdminAffiliates).toHaveBeenCalledWith(expect.anything(), 's1', 'approved', 0);
    const [, cells] = within(table).getAllByRole('row') as [HTMLElement, HTMLElement];
    expect(cells).toHaveTextContent('ana12345');
    expect(cells).toHaveTextContent('Validada');
    expect(cells).toHaveTextContent('1.200');
    expect(cells).toHaveTextContent('R$ 118,20');
    await userEvent.click(within(table).getByRole('button', { name: 'Bloquear Ana Afiliada' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Bloquear Ana Afiliada?' });
    expect(api.decideAffiliate).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Bloquear' }));
    expect(api.decideAffiliate).toHaveBeenCalledWith(expect.anything(), 'a1', 'blocked');

    await userEvent.click(screen.getByRole('tab', { name: 'Bloqueados' }));
    expect(currentLocation(view)).toBe('/admin/affiliates?situacao=blocked');
  });

  it('exports every commission as a CSV, a name typed as a formula neutralised', async () => {
    api.fetchAdminAffiliates.mockResolvedValue({ total: 0, rows: [] });
    api.fetchAllAdminCommissions.mockResolvedValue([
      {
        created_at: '2026-11-20T15:00:00Z',
        course_title: 'Marketing Digital',
        buyer_name: '=HYPERLINK("https://mal.example")',
        payment_value: 197,
        payment_status: 'RECEIVED',
        kind: 'affiliate',
        beneficiary: 'Ana Afiliada',
        wallet_id: '7f3c2a10-0000-4000-8000-00000000a001',
        base: 197,
        percent: 30,
        value: 59.1,
        status: 'available',
        split_status: 'DONE',
      },
    ]);
    renderScreen(<AffiliatesPage schoolId="s1" />, { route: '/admin/affiliates' });
    await userEvent.click(await screen.findByRole('button', { name: 'Exportar comissões (CSV)' }));
    await vi.waitFor(() => expect(csv.downloadCsv).toHaveBeenCalled());
    expect(api.fetchAllAdminCommissions).toHaveBeenCalledWith(expect.anything(), 's1');
    const [name, text] = csv.downloadCsv.mock.calls[0] as [string, string];
    expect(name).toBe('comissoes.csv');
    const [header, line] = text.replace('\ufeff', '').split('\r\n');
    expect(header).toContain('Comprador;Valor da venda (R$);Tipo;Beneficiário');
    expect(line).toContain(`Marketing Digital;"'=HYPERLINK(""https://mal.example"")";197,00;Afiliado;Ana Afiliada`);
    expect(line).toContain('197,00;30,00;59,10;Disponível;DONE');
  });

  it('says when a tab is empty', async () => {
    api.fetchAdminAffiliates.mockResolvedValue({ total: 0, rows: [] });
    renderScreen(<AffiliatesPage schoolId="s1" />, { route: '/admin/affiliates?situacao=blocked' });
    expect(await screen.findByText('Nenhum afiliado bloqueado.')).toBeInTheDocument();
  });
});
