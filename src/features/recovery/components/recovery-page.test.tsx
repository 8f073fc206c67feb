import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import type { CheckoutSession, RecoveryFilters } from '../api/queries';
import { RecoveryPage } from './recovery-page';

const api = vi.hoisted(() => ({
  fetchCheckoutSessions: vi.fn(),
  fetchRecoveryTotals: vi.fn(),
  fetchAllCheckoutSessions: vi.fn(),
  recordStaffContact: vi.fn(),
  setDoNotContact: vi.fn(),
}));
const downloadBlob = vi.hoisted(() => vi.fn());
const copyText = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/clipboard', () => ({ copyText }));
vi.mock('@/utils/download', () => ({ downloadBlob }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const session = (i: number, over: Partial<CheckoutSession> = {}): CheckoutSession => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  opened_at: '2026-11-20T13:05:00Z',
  abandoned_at: '2026-11-20T14:05:00Z',
  ended_at: null,
  stage: 'opened',
  outcome: 'abandoned',
  buyer_name: `Compradora ${i}`,
  buyer_email: `compradora${i}@exemplo.com.br`,
  buyer_phone: '11987654321',
  course_id: 'c2',
  plan_id: null,
  offer: { kind: 'course', title: 'Marketing Digital', slug: 'marketing-digital' },
  with_bump: false,
  coupon_code: null,
  value: 297,
  paid_value: null,
  touches_sent: 0,
  last_touch_at: null,
  staff_contacts: 0,
  do_not_contact: false,
  recovered: false,
  ...over,
});
const ROWS = [
  session(1, {
    coupon_code: 'BEMVINDO20',
    value: 237.6,
    with_bump: true,
    touches_sent: 2,
    staff_contacts: 1,
    last_touch_at: '2026-11-21T14:05:00Z',
  }),
  session(2, { stage: 'pix', buyer_phone: null }),
  session(3, { stage: 'pix', outcome: 'paid', recovered: true, paid_value: 237.6, ended_at: '2026-11-21T15:00:00Z' }),
  session(4, { stage: 'boleto', buyer_phone: '1234', do_not_contact: true }),
  // A plan's checkout (an assinatura): its name as the offer, its own reopen link.
  session(5, {
    stage: 'pix',
    course_id: null,
    plan_id: 'p1',
    offer: { kind: 'plan', title: 'Plano Completo', slug: 'plano-completo' },
    value: 49.9,
  }),
];
const TOTALS = {
  abandoned: 12,
  recovered: 3,
  recovered_revenue: 1234.56,
  by_touch: [
    { touch: 1, sent: 10, recovered: 2, conversion: 0.2 },
    { touch: 2, sent: 6, recovered: 0, conversion: 0 },
    { touch: 3, sent: 0, recovered: 0, conversion: null },
  ],
  by_staff: { contacted: 4, recovered: 1 },
};
const courses = [
  { id: 'c1', title: 'Excel do zero' },
  { id: 'c2', title: 'Marketing Digital' },
];
const NO_FILTERS: RecoveryFilters = { stage: '', courseId: '', from: '', to: '' };
const open = (route = '/admin/recovery') => renderScreen(<RecoveryPage schoolId="s1" courses={courses} />, { route });
const cardOf = (name: string) => within(screen.getByRole('heading', { name }).closest('li')!);

describe('RecoveryPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    downloadBlob.mockReset();
    copyText.mockReset();
    api.fetchCheckoutSessions.mockResolvedValue({ rows: ROWS, total: 4 });
    api.fetchRecoveryTotals.mockResolvedValue(TOTALS);
    api.recordStaffContact.mockResolvedValue('t1');
    api.setDoNotContact.mockResolvedValue(true);
  });

  it('shows each checkout with buyer, offer, value, stage, time and touches, and the period’s numbers', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Compradora 1' })).toBeInTheDocument();
    expect(api.fetchCheckoutSessions).toHaveBeenCalledWith(expect.anything(), {
      schoolId: 's1',
      filters: NO_FILTERS,
      page: 0,
    });
    const first = cardOf('Compradora 1');
    expect(first.getByText('Abandonado')).toBeInTheDocument();
    expect(first.getByText('Marketing Digital')).toBeInTheDocument();
    expect(first.getByText('+ Leve também')).toBeInTheDocument();
    expect(first.getByText('BEMVINDO20')).toBeInTheDocument();
    expect(first.getByText('Abriu o checkout', { exact: false })).toBeInTheDocument();
    expect(first.getByText('R$ 237,60')).toBeInTheDocument();
    expect(first.getByText('20/11/2026, 10:05')).toBeInTheDocument();
    expect(first.getByText('2 e-mails · 1 contato da equipe')).toBeInTheDocument();
    expect(cardOf('Compradora 2').getByText('PIX gerado')).toBeInTheDocument();
    expect(cardOf('Compradora 2').getByText('Nenhum contato')).toBeInTheDocument();
    // A recovered sale: its paid value, no follow-up actions.
    const paid = cardOf('Compradora 3');
    expect(paid.getByText('Recuperado')).toBeInTheDocument();
    expect(paid.queryByRole('button', { name: /Copiar link/ })).not.toBeInTheDocument();
    expect(cardOf('Compradora 4').getByText('Não contatar: a sequência de e-mails parou.')).toBeInTheDocument();
    const plan = cardOf('Compradora 5');
    expect(plan.getByText('Plano Completo')).toBeInTheDocument();
    expect(plan.getByText('Assinatura')).toBeInTheDocument();
    expect(plan.getByText('R$ 49,90')).toBeInTheDocument();

    const totals = within(screen.getByRole('list', { name: 'Números do período' }));
    expect(totals.getByLabelText('Abandonados')).toHaveTextContent('12');
    expect(totals.getByLabelText('Recuperados')).toHaveTextContent('3');
    expect(totals.getByLabelText('Receita recuperada')).toHaveTextContent('R$ 1.234,56');
    const byTouch = within(screen.getByRole('table', { name: 'Conversão por contato' }));
    expect(
      within(byTouch.getByRole('row', { name: /^1º e-mail/ }))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['10', '2', '20%']);
    expect(
      within(byTouch.getByRole('row', { name: /^3º e-mail/ }))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '0', '—']);
    expect(
      within(byTouch.getByRole('row', { name: /^Equipe/ }))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['4', '1', '25%']);
    expect(screen.getByText('4 checkouts')).toBeInTheDocument(); // the mocked total
  });

  it('the filters and the page live in the URL; a filter starts again at the first page; the stage does not filter the numbers', async () => {
    api.fetchCheckoutSessions.mockResolvedValue({ rows: ROWS, total: 60 });
    const view = open('/admin/recovery?pagina=2&curso=c1');
    await screen.findByRole('heading', { name: 'Compradora 1' });
    expect(api.fetchCheckoutSessions).toHaveBeenCalledWith(expect.anything(), {
      schoolId: 's1',
      filters: { ...NO_FILTERS, courseId: 'c1' },
      page: 1,
    });

    await userEvent.selectOptions(screen.getByLabelText('Etapa'), 'abandoned');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/recovery?curso=c1&etapa=abandoned'));
    await waitFor(() =>
      expect(api.fetchCheckoutSessions).toHaveBeenLastCalledWith(expect.anything(), {
        schoolId: 's1',
        filters: { ...NO_FILTERS, courseId: 'c1', stage: 'abandoned' },
        page: 0,
      }),
    );
    expect(api.fetchRecoveryTotals).toHaveBeenCalledTimes(1);

    await userEvent.selectOptions(screen.getByLabelText('Etapa'), 'pix');
    await userEvent.type(screen.getByLabelText('De'), '2026-11-01');
    await userEvent.type(screen.getByLabelText('Até'), '2026-11-30');
    await waitFor(() =>
      expect(currentLocation(view)).toBe('/admin/recovery?curso=c1&etapa=pix&de=2026-11-01&ate=2026-11-30'),
    );
    const filters = { stage: 'pix', courseId: 'c1', from: '2026-11-01', to: '2026-11-30' };
    await waitFor(() =>
      expect(api.fetchRecoveryTotals).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', filters }),
    );
    expect(api.fetchCheckoutSessions).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', filters, page: 0 });

    api.fetchCheckoutSessions.mockClear();
    open('/admin/recovery?etapa=perdido&curso=outro&de=ontem');
    await waitFor(() =>
      expect(api.fetchCheckoutSessions).toHaveBeenCalledWith(expect.anything(), {
        schoolId: 's1',
        filters: NO_FILTERS,
        page: 0,
      }),
    );
  });

  it('Chamar no WhatsApp: a wa.me link with the course and the reopen link, recorded as a staff contact; no phone says why', async () => {
    open();
    await screen.findByRole('heading', { name: 'Compradora 1' });
    const wa = cardOf('Compradora 1').getByRole('link', { name: 'Chamar Compradora 1 no WhatsApp' });
    const url = new URL(wa.getAttribute('href')!);
    expect(url.origin + url.pathname).toBe('https://wa.me/5511987654321');
    const text = url.searchParams.get('text')!;
    expect(text).toContain('Olá, Compradora!');
    expect(text).toContain('curso Marketing Digital');
    expect(text).toContain(`${window.location.origin}/checkout/marketing-digital?retomar=${ROWS[0]!.id}`);
    wa.addEventListener('click', (e) => e.preventDefault());
    await userEvent.click(wa);
    await waitFor(() =>
      expect(api.recordStaffContact).toHaveBeenCalledWith(expect.anything(), {
        sessionId: ROWS[0]!.id,
        channel: 'whatsapp',
      }),
    );
    expect(cardOf('Compradora 2').getByText('Sem telefone no cadastro')).toBeInTheDocument();
    expect(cardOf('Compradora 2').queryByRole('link', { name: /WhatsApp/ })).not.toBeInTheDocument();
    expect(cardOf('Compradora 4').getByText('Telefone sem formato de WhatsApp')).toBeInTheDocument();
    // A plan's: the assinatura by name and the plan's checkout.
    const planText = new URL(
      cardOf('Compradora 5').getByRole('link', { name: 'Chamar Compradora 5 no WhatsApp' }).getAttribute('href')!,
    ).searchParams.get('text')!;
    expect(planText).toContain('você começou a assinatura do Plano Completo e não finalizou');
    expect(planText).toContain(`${window.location.origin}/checkout/plano/plano-completo?retomar=${ROWS[4]!.id}`);
  });

  it('Copiar link copies the reopen link and records a staff contact; the list is read again', async () => {
    open();
    await screen.findByRole('heading', { name: 'Compradora 2' });
    const calls = api.fetchCheckoutSessions.mock.calls.length;
    await userEvent.click(screen.getByRole('button', { name: 'Copiar link de retomada de Compradora 2' }));
    const link = `${window.location.origin}/checkout/marketing-digital?retomar=${ROWS[1]!.id}`;
    expect(copyText).toHaveBeenCalledWith(link, 'Link copiado', link);
    await waitFor(() =>
      expect(api.recordStaffContact).toHaveBeenCalledWith(expect.anything(), {
        sessionId: ROWS[1]!.id,
        channel: 'link',
      }),
    );
    await waitFor(() => expect(api.fetchCheckoutSessions.mock.calls.length).toBeGreaterThan(calls));
  });

  it('Não contatar asks first; Cancelar changes nothing; Voltar a contatar needs no confirmation', async () => {
    open();
    await screen.findByRole('heading', { name: 'Compradora 1' });
    await userEvent.click(screen.getByRole('button', { name: 'Não contatar Compradora 1' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Não contatar este comprador?' });
    expect(dialog).toHaveTextContent(
      'Compradora 1 não receberá mais e-mails de recuperação da compra de "Marketing Digital"',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.setDoNotContact).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Não contatar Compradora 1' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Não contatar' }));
    await waitFor(() =>
      expect(api.setDoNotContact).toHaveBeenCalledWith(expect.anything(), {
        sessionId: ROWS[0]!.id,
        doNotContact: true,
      }),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Voltar a contatar Compradora 4' }));
    await waitFor(() =>
      expect(api.setDoNotContact).toHaveBeenLastCalledWith(expect.anything(), {
        sessionId: ROWS[3]!.id,
        doNotContact: false,
      }),
    );
  });

  it('Exportar CSV writes every checkout of the filters, amounts in pt-BR, formulas neutralised', async () => {
    api.fetchAllCheckoutSessions.mockResolvedValue([
      ROWS[0],
      ROWS[4],
      session(6, { buyer_name: '=HYPERLINK("https://mal.example")', buyer_phone: '+5511987654321' }),
    ]);
    open('/admin/recovery?etapa=abandoned');
    await screen.findByRole('heading', { name: 'Compradora 1' });
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() =>
      expect(downloadBlob).toHaveBeenCalledWith(
        expect.stringMatching(/^recuperacao-\d{4}-\d{2}-\d{2}\.csv$/),
        expect.any(Blob),
      ),
    );
    expect(api.fetchAllCheckoutSessions).toHaveBeenCalledWith(expect.anything(), {
      schoolId: 's1',
      filters: { ...NO_FILTERS, stage: 'abandoned' },
    });
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual([
      'Aberto em;Comprador;E-mail;Telefone;Curso ou plano;Leve também;Cupom;Etapa;Situação;Valor (R$);Valor pago (R$);Abandonado em;E-mails enviados;Contatos da equipe;Último contato;Não contatar',
      '20/11/2026, 10:05;Compradora 1;compradora1@exemplo.com.br;11987654321;Marketing Digital;Sim;BEMVINDO20;Abriu o checkout;Abandonado;237,60;;20/11/2026, 11:05;2;1;21/11/2026, 11:05;Não',
      '20/11/2026, 10:05;Compradora 5;compradora5@exemplo.com.br;11987654321;Plano Completo (assinatura);Não;;PIX gerado;Abandonado;49,90;;20/11/2026, 11:05;0;0;;Não',
      `20/11/2026, 10:05;"'=HYPERLINK(""https://mal.example"")";compradora6@exemplo.com.br;"'+5511987654321";Marketing Digital;Não;;Abriu o checkout;Abandonado;297,00;;20/11/2026, 11:05;0;0;;Não`,
    ]);
  });

  it('nothing under the filters: says so, nothing to export; a failed read shows LoadError and retries', async () => {
    api.fetchCheckoutSessions.mockResolvedValue({ rows: [], total: 0 });
    open('/admin/recovery?etapa=pix');
    expect(await screen.findByText('Nenhum checkout encontrado')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();

    api.fetchCheckoutSessions
      .mockReset()
      .mockRejectedValueOnce(new Error('falhou'))
      .mockResolvedValue({ rows: [session(1)], total: 1 });
    open('/admin/recovery?curso=c2');
    expect(await screen.findByText('Não foi possível carregar os checkouts')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { name: 'Compradora 1' })).toBeInTheDocument();
  });
});
