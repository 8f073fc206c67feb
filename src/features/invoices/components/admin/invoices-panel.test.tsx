// Vendas' invoices as the staff meet them (issue 42): each sale's status in pt-BR from one request for the
// page; the period's "Notas fiscais" totals; "Notas com erro" (in the URL) with the municipality's message
// and "Emitir novamente", asked once; the month's CSV for the accountant, formula-safe.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import { downloadCsv } from '@/utils/csv';
import type { AdminInvoice, SaleInvoice } from '../../api/queries';
import { InvoicesPanel } from './invoices-panel';
import { SaleInvoiceStatus } from './sale-invoice-status';

const api = vi.hoisted(() => ({ fetchSaleInvoices: vi.fn(), fetchAdminInvoices: vi.fn(), fetchAllAdminInvoices: vi.fn(), fetchInvoiceTotals: vi.fn(), retryInvoice: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('@/utils/csv', async (importOriginal) => ({ ...(await importOriginal<object>()), downloadCsv: vi.fn() }));
vi.mock('../../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const invoice = (over: Partial<AdminInvoice>): AdminInvoice => ({
  id: 'i1',
  payment_id: 'p1',
  status: 'authorized',
  number: '1001',
  value: 197,
  iss_rate: 2,
  iss_value: 3.94,
  error_message: null,
  pdf_url: 'https://nf.example/1001.pdf',
  xml_url: 'https://nf.example/1001.xml',
  issue_at: '2026-11-08T12:00:00Z',
  authorized_at: '2026-11-08T12:01:00Z',
  cancelled_at: null,
  created_at: '2026-11-01T12:00:00Z',
  buyer_name: 'Ana Souza',
  buyer_email: 'ana@example.com',
  buyer_cpf: '529.982.247-25',
  course_title: 'Oratória',
  ...over,
});

describe('SaleInvoiceStatus', () => {
  beforeEach(() => Object.values(api).forEach((fn) => fn.mockReset()));

  it("says each sale's invoice in pt-BR, with the municipality's message on an error, from one request for the page", async () => {
    const rows: SaleInvoice[] = [
      { payment_id: 'p1', status: 'authorized', number: '1001', error_message: null, pdf_url: 'https://nf.example/1001.pdf', issue_at: '2026-11-08T12:00:00Z' },
      { payment_id: 'p2', status: 'pending', number: null, error_message: null, pdf_url: null, issue_at: '2026-12-05T15:00:00Z' },
      { payment_id: 'p3', status: 'error', number: null, error_message: 'Inscrição municipal inválida', pdf_url: null, issue_at: '2026-11-08T12:00:00Z' },
      { payment_id: 'p4', status: 'cancelled', number: '1002', error_message: null, pdf_url: null, issue_at: '2026-11-08T12:00:00Z' },
    ];
    api.fetchSaleInvoices.mockResolvedValue(rows);
    const page = ['p1', 'p2', 'p3', 'p4', 'p5'];
    renderScreen(
      <table>
        <tbody>
          {page.map((id) => (
            <tr key={id} data-testid={id}>
              <td>
                <SaleInvoiceStatus paymentId={id} pageIds={page} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>,
    );
    const row = (id: string) => within(screen.getByTestId(id));
    expect(await row('p1').findByText('Emitida')).toBeInTheDocument();
    expect(row('p1').getByText('Nº 1001')).toBeInTheDocument();
    expect(row('p2').getByText('Agendada (emite em 05/12)')).toBeInTheDocument();
    expect(row('p3').getByText('Com erro')).toBeInTheDocument();
    expect(row('p3').getByText('Inscrição municipal inválida')).toBeInTheDocument();
    expect(row('p4').getByText('Cancelada')).toBeInTheDocument();
    expect(row('p5').getByText('—')).toBeInTheDocument();
    expect(api.fetchSaleInvoices).toHaveBeenCalledTimes(1);
    expect(api.fetchSaleInvoices).toHaveBeenCalledWith(expect.anything(), page);
  });
});

describe('InvoicesPanel', () => {
  let errors: AdminInvoice[];
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.success).mockReset();
    vi.mocked(downloadCsv).mockReset();
    errors = [invoice({ id: 'e1', status: 'error', number: null, error_message: 'E0014 - Código de serviço não permitido para o município', pdf_url: null, xml_url: null, authorized_at: null })];
    api.fetchInvoiceTotals.mockImplementation(async () => ({ issued: 12, issued_value: 2364, cancelled: 1, errors: errors.length, waiting: 3, iss: 47.28 }));
    api.fetchAdminInvoices.mockImplementation(async () => ({ rows: errors, total: errors.length }));
    api.retryInvoice.mockImplementation(async (_c, id: string) => {
      errors = errors.filter((e) => e.id !== id);
    });
  });

  it('shows the period totals, lists the notes with error with the message, and Emitir novamente asks once', async () => {
    const view = renderScreen(<InvoicesPanel schoolId="s1" period={{ from: '2026-11-01', to: '2026-11-30' }} />, { route: '/admin/sales?de=2026-11-01&ate=2026-11-30' });
    const totals = await screen.findByRole('list', { name: 'Totais das notas fiscais' });
    await waitFor(() => expect(within(totals).getByText('12')).toBeInTheDocument());
    expect(within(totals).getByText('R$ 2.364,00')).toBeInTheDocument();
    expect(within(totals).getByLabelText('Canceladas')).toHaveTextContent('1');
    expect(within(totals).getByLabelText('Com erro')).toHaveTextContent('1');
    expect(within(totals).getByLabelText('ISS')).toHaveTextContent('R$ 47,28');
    expect(screen.getByText('3 aguardando emissão')).toBeInTheDocument();
    expect(api.fetchInvoiceTotals).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', period: { from: '2026-11-01', to: '2026-11-30' } });

    await userEvent.click(screen.getByRole('button', { name: 'Notas com erro (1)' }));
    expect(currentLocation(view)).toBe('/admin/sales?de=2026-11-01&ate=2026-11-30&notas=erro');
    const list = await screen.findByRole('list', { name: 'Notas com erro' });
    expect(within(list).getByText('E0014 - Código de serviço não permitido para o município')).toBeInTheDocument();
    expect(api.fetchAdminInvoices).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', status: 'error', period: { from: '2026-11-01', to: '2026-11-30' }, page: 0 });
    const retry = within(list).getByRole('button', { name: 'Emitir novamente a nota de Ana Souza (Oratória)' });
    await userEvent.dblClick(retry);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('A nota será emitida novamente em até um minuto.'));
    expect(api.retryInvoice).toHaveBeenCalledTimes(1);
    expect(api.retryInvoice).toHaveBeenCalledWith(expect.anything(), 'e1');
    expect(await screen.findByText('Nenhuma nota com erro no período.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notas com erro (0)' })).toBeInTheDocument();
  });

  it("exports the month's invoices for the accountant, a buyer's formula written as text", async () => {
    api.fetchAllAdminInvoices.mockResolvedValue([invoice({}), invoice({ id: 'i2', number: '1002', status: 'cancelled', buyer_name: '=HYPERLINK("https://evil.example")', cancelled_at: '2026-10-20T13:00:00Z' })]);
    renderScreen(<InvoicesPanel schoolId="s1" period={{ from: '', to: '' }} />, { route: '/admin/sales' });
    const month = screen.getByLabelText('Mês das notas');
    await userEvent.clear(month);
    await userEvent.type(month, '2026-10');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar notas do mês' }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    expect(api.fetchAllAdminInvoices).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', period: { from: '2026-10-01', to: '2026-10-31' } });
    const [name, text] = vi.mocked(downloadCsv).mock.calls[0]!;
    expect(name).toBe('notas-fiscais-2026-10.csv');
    const lines = text.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe('Número;Emitida em;Situação;Comprador;CPF;E-mail;Curso;Valor (R$);Alíquota ISS (%);ISS (R$);Cancelada em;Erro;PDF;XML');
    expect(lines[1]).toContain('1001;');
    expect(lines[1]).toContain(';Emitida;Ana Souza;529.982.247-25;ana@example.com;Oratória;197,00;2,00;3,94;');
    expect(lines[2]).toContain(`;Cancelada;"'=HYPERLINK(""https://evil.example"")";`);
  });
});
