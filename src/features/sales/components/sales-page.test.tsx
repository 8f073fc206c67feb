import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import type { Sale, SalesFilters } from '../api/queries';
import { SalesPage } from './sales-page';

const api = vi.hoisted(() => ({ fetchSales: vi.fn(), fetchSalesTotals: vi.fn(), fetchAllSales: vi.fn(), refundSale: vi.fn() }));
const downloadBlob = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/utils/download', () => ({ downloadBlob }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const sale = (i: number, over: Partial<Sale> = {}): Sale => ({
  id: `p${i}`,
  created_at: '2026-11-20T13:05:00Z',
  paid_at: '2026-11-20T13:06:00Z',
  buyer_name: `Compradora ${i}`,
  buyer_email: `compradora${i}@exemplo.com.br`,
  items: [{ kind: 'course', course_id: 'c2', title: 'Marketing Digital', value: 297 }],
  billing_type: 'PIX',
  installment_count: 1,
  status: 'CONFIRMED',
  value: 297,
  discount: 0,
  coupon_code: null,
  refund_requested_at: null,
  refund_reason: null,
  refunded_at: null,
  ...over,
});
const ROWS = [
  sale(1, {
    items: [
      { kind: 'course', course_id: 'c2', title: 'Marketing Digital', value: 237.6 },
      { kind: 'bump', course_id: 'c1', title: 'Excel do zero', value: 97 },
    ],
    value: 334.6,
    discount: 59.4,
    coupon_code: 'BEMVINDO20',
    billing_type: 'CREDIT_CARD',
    installment_count: 3,
  }),
  sale(2, { status: 'RECEIVED', refund_requested_at: '2026-11-21T10:00:00Z', refund_reason: 'Desistiu' }),
  sale(3, { status: 'PENDING', paid_at: null, billing_type: 'BOLETO' }),
  sale(4, { status: 'RECEIVED', billing_type: 'BOLETO' }),
  sale(5, { status: 'REFUNDED', refund_requested_at: '2026-11-21T10:00:00Z', refunded_at: '2026-11-21T10:01:00Z' }),
  sale(7, { items: [{ kind: 'plan', course_id: null, title: 'Assinatura Mensal', value: 49.9 }], value: 49.9, status: 'RECEIVED', billing_type: 'CREDIT_CARD' }),
];
const TOTALS = {
  count: 4,
  gross: 1234.56,
  discounts: 59.4,
  refunded: 297,
  net: 878.16,
  by_method: [
    { method: 'CREDIT_CARD', count: 1, gross: 394, discounts: 59.4, refunded: 0, net: 334.6 },
    { method: 'PIX', count: 3, gross: 840.56, discounts: 0, refunded: 297, net: 543.56 },
  ],
};
const courses = [
  { id: 'c1', title: 'Excel do zero' },
  { id: 'c2', title: 'Marketing Digital' },
];
const NO_FILTERS: SalesFilters = { status: '', method: '', courseId: '', from: '', to: '' };
const open = (route = '/admin/sales') => renderScreen(<SalesPage schoolId="s1" courses={courses} />, { route });
const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('SalesPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    downloadBlob.mockReset();
    vi.mocked(toast.error).mockReset();
    vi.mocked(toast.success).mockReset();
    api.fetchSales.mockResolvedValue({ rows: ROWS, total: 6 });
    api.fetchSalesTotals.mockResolvedValue(TOTALS);
  });

  it('shows each sale with its items, method, situation, value and coupon, and the totals in pt-BR', async () => {
    open();
    expect(await screen.findByText('Compradora 1')).toBeInTheDocument();
    expect(api.fetchSales).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', filters: NO_FILTERS, page: 0 });
    const first = within(rowOf('Compradora 1'));
    expect(first.getByText('Marketing Digital + Leve também: Excel do zero')).toBeInTheDocument();
    expect(first.getByText('20/11/2026')).toBeInTheDocument();
    expect(first.getByText('10:05')).toBeInTheDocument();
    expect(first.getByText('Cartão')).toBeInTheDocument();
    expect(first.getByText('em 3x')).toBeInTheDocument();
    expect(first.getByText('Confirmado')).toBeInTheDocument();
    expect(first.getByText('R$ 334,60')).toBeInTheDocument();
    expect(first.getByText('− R$ 59,40')).toBeInTheDocument();
    expect(first.getByText('BEMVINDO20')).toBeInTheDocument();
    // Asked of Asaas, its event not here yet; pending; a refunded one.
    expect(within(rowOf('Compradora 2')).getByText('Reembolso pedido')).toBeInTheDocument();
    expect(within(rowOf('Compradora 2')).getByText('Motivo: Desistiu')).toBeInTheDocument();
    expect(within(rowOf('Compradora 3')).getByText('Pendente')).toBeInTheDocument();
    expect(within(rowOf('Compradora 5')).getByText('Reembolsado')).toBeInTheDocument();
    expect(within(rowOf('Compradora 7')).getByText('Plano: Assinatura Mensal')).toBeInTheDocument();
    // "Reembolsar" only where Asaas can refund: a confirmed PIX or card sale not yet asked.
    expect(screen.getAllByRole('button', { name: /^Reembolsar/ }).map((b) => b.closest('tr')!.querySelector('td:nth-child(2) p')!.textContent)).toEqual(['Compradora 1', 'Compradora 7']);
    expect(within(rowOf('Compradora 1')).getByRole('button', { name: /^Reembolsar a venda de Compradora 1/ })).toBeInTheDocument();
    expect(within(rowOf('Compradora 4')).getByText('Boleto: reembolso pelo painel do Asaas')).toBeInTheDocument();

    const totals = within(screen.getByRole('list', { name: 'Totais' }));
    expect(totals.getByLabelText('Bruto')).toHaveTextContent('R$ 1.234,56');
    expect(totals.getByLabelText('Descontos')).toHaveTextContent('R$ 59,40');
    expect(totals.getByLabelText('Reembolsado')).toHaveTextContent('R$ 297,00');
    expect(totals.getByLabelText('Líquido')).toHaveTextContent('R$ 878,16');
    expect(screen.getByText('4 vendas pagas')).toBeInTheDocument();
    const byMethod = within(screen.getByRole('table', { name: 'Totais por forma de pagamento' }));
    expect(within(byMethod.getByRole('row', { name: /^PIX/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['3', 'R$ 840,56', 'R$ 0,00', 'R$ 297,00', 'R$ 543,56']);
    expect(screen.getByText('6 vendas')).toBeInTheDocument();
  });

  it('the filters and the page live in the URL; a filter starts again at the first page; the situation does not filter the totals', async () => {
    api.fetchSales.mockResolvedValue({ rows: ROWS, total: 60 });
    const view = open('/admin/sales?pagina=2&curso=c1');
    await screen.findByText('Compradora 1');
    expect(api.fetchSales).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', filters: { ...NO_FILTERS, courseId: 'c1' }, page: 1 });
    expect(screen.getByText('Página 2 de 3')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Situação'), 'REFUNDED');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/sales?curso=c1&situacao=REFUNDED'));
    await waitFor(() => expect(api.fetchSales).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', filters: { ...NO_FILTERS, courseId: 'c1', status: 'REFUNDED' }, page: 0 }));
    expect(api.fetchSalesTotals).toHaveBeenCalledTimes(1);

    await userEvent.selectOptions(screen.getByLabelText('Forma'), 'BOLETO');
    await userEvent.type(screen.getByLabelText('De'), '2026-11-01');
    await userEvent.type(screen.getByLabelText('Até'), '2026-11-30');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/sales?curso=c1&situacao=REFUNDED&forma=BOLETO&de=2026-11-01&ate=2026-11-30'));
    const filters = { status: 'REFUNDED', method: 'BOLETO', courseId: 'c1', from: '2026-11-01', to: '2026-11-30' };
    await waitFor(() => expect(api.fetchSalesTotals).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', filters }));
    expect(api.fetchSales).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', filters, page: 0 });

    // Values the screen does not know are "any".
    api.fetchSales.mockClear();
    open('/admin/sales?situacao=PAGO&forma=DINHEIRO&curso=outro&de=ontem');
    await waitFor(() => expect(api.fetchSales).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', filters: NO_FILTERS, page: 0 }));
  });

  it('Reembolsar: the dialog with the optional reason, the function called, the toast, the list refreshed', async () => {
    api.refundSale.mockResolvedValue({ payment_id: 'p1', refund_requested_at: '2026-11-22T10:00:00Z', asaas_status: 'REFUNDED' });
    open();
    await screen.findByText('Compradora 1');
    await userEvent.click(screen.getByRole('button', { name: /^Reembolsar a venda de Compradora 1/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reembolsar venda?' });
    expect(dialog).toHaveTextContent('O Asaas devolve R$ 334,60 a Compradora 1 como estorno no cartão');
    expect(dialog).toHaveTextContent('é pausado quando o Asaas confirmar');
    // Cancelar changes nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.refundSale).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: /^Reembolsar a venda de Compradora 1/ }));
    const again = await screen.findByRole('dialog', { name: 'Reembolsar venda?' });
    await userEvent.type(within(again).getByLabelText('Motivo'), 'Pediu nos 7 dias');
    const calls = api.fetchSales.mock.calls.length;
    await userEvent.click(within(again).getByRole('button', { name: 'Reembolsar R$ 334,60' }));
    await waitFor(() => expect(api.refundSale).toHaveBeenCalledWith({ paymentId: 'p1', reason: 'Pediu nos 7 dias' }, expect.anything()));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Reembolso solicitado. O acesso do aluno é pausado quando o Asaas confirmar.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(api.fetchSales.mock.calls.length).toBeGreaterThan(calls));
  });

  it('a refused refund says why and keeps the dialog open', async () => {
    // What invokeFunction throws for the function's 409: its pt-BR `error` as the message.
    api.refundSale.mockRejectedValue(Object.assign(new Error('O reembolso deste pagamento já foi pedido.'), { status: 409 }));
    open();
    await screen.findByText('Compradora 1');
    await userEvent.click(screen.getByRole('button', { name: /^Reembolsar a venda de Compradora 1/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reembolsar venda?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reembolsar R$ 334,60' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao reembolsar', { description: 'O reembolso deste pagamento já foi pedido.' }));
    expect(screen.getByRole('dialog', { name: 'Reembolsar venda?' })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('Exportar CSV writes every sale of the filters, amounts in pt-BR, formulas neutralised', async () => {
    api.fetchAllSales.mockResolvedValue([ROWS[0], sale(6, { buyer_name: '=HYPERLINK("https://mal.example")', status: 'RECEIVED', refund_requested_at: '2026-11-21T10:00:00Z', refund_reason: '+SOMA(1;2)' })]);
    open('/admin/sales?forma=PIX');
    await screen.findByText('Compradora 1');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith(expect.stringMatching(/^vendas-\d{4}-\d{2}-\d{2}\.csv$/), expect.any(Blob)));
    expect(api.fetchAllSales).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', filters: { ...NO_FILTERS, method: 'PIX' } });
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual([
      'Data;Comprador;E-mail;Itens;Forma;Parcelas;Situação;Valor (R$);Desconto (R$);Cupom;Pago em;Reembolso pedido em;Motivo do reembolso',
      '20/11/2026, 10:05;Compradora 1;compradora1@exemplo.com.br;Marketing Digital + Leve também: Excel do zero;Cartão;3;Confirmado;334,60;59,40;BEMVINDO20;20/11/2026, 10:06;;',
      `20/11/2026, 10:05;"'=HYPERLINK(""https://mal.example"")";compradora6@exemplo.com.br;Marketing Digital;PIX;1;Reembolso pedido;297,00;0,00;;20/11/2026, 10:06;21/11/2026, 07:00;"'+SOMA(1;2)"`,
    ]);
  });

  it('nothing under the filters: says so, nothing to export', async () => {
    api.fetchSales.mockResolvedValue({ rows: [], total: 0 });
    open('/admin/sales?forma=PIX');
    expect(await screen.findByText('Nenhuma venda encontrada')).toBeInTheDocument();
    expect(screen.getByText('Mude os filtros para ver outras vendas.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  });

  it('a failed read shows LoadError, and the retry loads it', async () => {
    api.fetchSales.mockReset().mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ rows: [sale(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar as vendas')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Compradora 1')).toBeInTheDocument();
  });
});
