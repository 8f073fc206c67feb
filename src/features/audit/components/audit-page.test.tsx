import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import type { AuditEntry, AuditFilters } from '../api/queries';
import { AuditPage } from './audit-page';

const api = vi.hoisted(() => ({ fetchAuditLog: vi.fn(), fetchAllAuditLog: vi.fn(), fetchAuditActors: vi.fn() }));
const downloadBlob = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/utils/download', () => ({ downloadBlob }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const ANA = 'a0000000-0000-4000-8000-000000000002';
const entry = (i: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  created_at: '2026-11-20T13:05:00Z',
  school_id: 's1',
  school_name: 'Escola Demo',
  actor_id: ANA,
  actor_name: 'Ana Administradora',
  actor_email: 'admin@escola-demo.com.br',
  actor_role: 'SCHOOL_ADMIN',
  actor_aal: 'aal1',
  source: 'api',
  source_name: null,
  table_name: 'courses',
  row_id: 'c1',
  row_label: 'Excel Essencial',
  action: 'update',
  before: { price: 97 },
  after: { price: 120 },
  ...over,
});
const ROWS = [
  entry(1),
  entry(2, {
    actor_id: null,
    actor_name: null,
    actor_email: null,
    actor_role: null,
    actor_aal: null,
    source: 'payment',
    source_name: 'asaas-webhook',
    table_name: 'payments',
    row_label: null,
    before: { status: 'PENDING' },
    after: { status: 'RECEIVED' },
  }),
  entry(3, {
    table_name: 'school_webhook_secrets',
    row_label: null,
    before: { secret: '(secret)' },
    after: { secret: '(secret)' },
  }),
  entry(4, {
    table_name: 'materials',
    row_label: 'Apostila',
    action: 'delete',
    before: { title: 'Apostila', url: 'https://x.y/a.pdf' },
    after: null,
  }),
];
const NO_FILTERS: AuditFilters = { actorId: '', table: '', action: '', from: '', to: '' };
const SCHOOLS = [
  { id: 's1', name: 'Escola Demo' },
  { id: 's2', name: 'Academia Rival' },
];
const open = (route = '/admin/audit', schoolId: string | null = 's1') =>
  renderScreen(<AuditPage schoolId={schoolId} schools={schoolId ? undefined : SCHOOLS} />, { route });
const rowOf = (text: string) =>
  within(
    within(screen.getByRole('table', { name: 'Registro de atividades' }))
      .getByText(text)
      .closest('tr')!,
  );

describe('AuditPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    downloadBlob.mockReset();
    api.fetchAuditLog.mockResolvedValue({ rows: ROWS, total: 4 });
    api.fetchAuditActors.mockResolvedValue([
      { id: ANA, name: 'Ana Administradora', email: 'admin@escola-demo.com.br' },
    ]);
  });

  it('lists each change with when, who, the action, the object and what changed', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Registro de atividades' })).toBeInTheDocument();
    await screen.findByText('Curso "Excel Essencial"');
    expect(api.fetchAuditLog).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', filters: NO_FILTERS, page: 0 });
    const price = rowOf('Curso "Excel Essencial"');
    expect(price.getByText('Ana Administradora')).toBeInTheDocument();
    expect(price.getByText('Administrador')).toBeInTheDocument();
    expect(price.getByText('Alterou')).toBeInTheDocument();
    expect(price.getByText('Preço: R$ 97,00 → R$ 120,00')).toBeInTheDocument();
    expect(price.getByText('20/11/2026')).toBeInTheDocument();
    // No person: the source says who.
    expect(rowOf('Pagamento').getAllByText('Evento de pagamento').length).toBeGreaterThan(0);
    // A secret: that it changed, never a value.
    expect(
      rowOf('Segredo do webhook').getByText('Segredo: alterado (valor oculto) → alterado (valor oculto)'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Escola' })).not.toBeInTheDocument();
    expect(screen.getByText('4 atividades')).toBeInTheDocument();
  });

  it('"Ver mudança" shows before and after side by side in a dialog', async () => {
    open();
    await userEvent.click(
      within((await screen.findByText('Curso "Excel Essencial"')).closest('tr')!).getByRole('button', {
        name: 'Ver mudança',
      }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Alterou Curso "Excel Essencial"' }));
    expect(dialog.getByText(/Ana Administradora \(Administrador\) em 20\/11\/2026/)).toBeInTheDocument();
    const cells = within(dialog.getByRole('row', { name: /Preço/ }))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(['R$ 97,00', 'R$ 120,00']);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(
      within(screen.getByText('Material "Apostila"').closest('tr')!).getByRole('button', { name: 'Ver mudança' }),
    );
    const deleted = within(await screen.findByRole('dialog', { name: 'Excluiu Material "Apostila"' }));
    expect(
      within(deleted.getByRole('row', { name: /Link/ }))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['https://x.y/a.pdf', '—']);
  });

  it('the filters and the page live in the URL; a filter starts again at the first page', async () => {
    api.fetchAuditLog.mockResolvedValue({ rows: ROWS, total: 60 });
    const view = open('/admin/audit?pagina=2&objeto=courses');
    await screen.findByText('Curso "Excel Essencial"');
    expect(api.fetchAuditLog).toHaveBeenCalledWith(expect.anything(), {
      schoolId: 's1',
      filters: { ...NO_FILTERS, table: 'courses' },
      page: 1,
    });
    await userEvent.selectOptions(screen.getByLabelText('Pessoa'), ANA);
    await waitFor(() => expect(currentLocation(view)).toBe(`/admin/audit?objeto=courses&pessoa=${ANA}`));
    await userEvent.selectOptions(screen.getByLabelText('Ação'), 'delete');
    await userEvent.type(screen.getByLabelText('De'), '2026-11-01');
    await waitFor(() =>
      expect(api.fetchAuditLog).toHaveBeenLastCalledWith(expect.anything(), {
        schoolId: 's1',
        filters: { actorId: ANA, table: 'courses', action: 'delete', from: '2026-11-01', to: '' },
        page: 0,
      }),
    );
    // A value the URL should not hold is "any".
    open('/admin/audit?objeto=senhas&acao=apagar&pessoa=x');
    await waitFor(() =>
      expect(api.fetchAuditLog).toHaveBeenLastCalledWith(expect.anything(), {
        schoolId: 's1',
        filters: NO_FILTERS,
        page: 0,
      }),
    );
  });

  it('the super admin sees every school, with its name, and can pick one (?escola= in the URL)', async () => {
    const view = open('/admin/audit', null);
    await screen.findByText('Curso "Excel Essencial"');
    expect(api.fetchAuditLog).toHaveBeenCalledWith(expect.anything(), { schoolId: null, filters: NO_FILTERS, page: 0 });
    expect(screen.getByRole('columnheader', { name: 'Escola' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Registro de atividades' })).getAllByText('Escola Demo').length,
    ).toBe(4);
    await userEvent.selectOptions(screen.getByLabelText('Escola'), 's2');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/audit?escola=s2'));
    await waitFor(() =>
      expect(api.fetchAuditLog).toHaveBeenLastCalledWith(expect.anything(), {
        schoolId: 's2',
        filters: NO_FILTERS,
        page: 0,
      }),
    );
    expect(api.fetchAuditActors).toHaveBeenLastCalledWith(expect.anything(), 's2');
  });

  it("a school's admin has no school filter, and ?escola= changes nothing", async () => {
    open('/admin/audit?escola=s2');
    await screen.findByText('Curso "Excel Essencial"');
    expect(screen.queryByLabelText('Escola')).not.toBeInTheDocument();
    expect(api.fetchAuditLog).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', filters: NO_FILTERS, page: 0 });
  });

  it('"Exportar CSV" writes every entry of the filters, with a formula neutralised', async () => {
    api.fetchAllAuditLog.mockResolvedValue([entry(1, { row_label: '=HYPERLINK("https://mal.example")' })]);
    open('/admin/audit?acao=update');
    await screen.findByText('Curso "Excel Essencial"');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalled());
    expect(api.fetchAllAuditLog).toHaveBeenCalledWith(expect.anything(), {
      schoolId: 's1',
      filters: { ...NO_FILTERS, action: 'update' },
    });
    const [name, blob] = downloadBlob.mock.calls[0] as [string, Blob];
    expect(name).toMatch(/^registro-de-atividades-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await blob.text();
    expect(text).toContain(
      'Data;Escola;Pessoa;E-mail;Papel;Origem;Ação;Objeto;Nome do objeto;Identificador;Antes;Depois',
    );
    expect(text).toContain('Ana Administradora');
    expect(text).toContain('Preço: R$ 97,00');
    expect(text).toContain(`"'=HYPERLINK(""https://mal.example"")"`);
  });

  it('an empty log says so, with nothing to export', async () => {
    api.fetchAuditLog.mockResolvedValue({ rows: [], total: 0 });
    open();
    expect(await screen.findByText('Nenhuma atividade encontrada')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  });

  it('a load error offers a retry', async () => {
    api.fetchAuditLog.mockRejectedValueOnce(new Error('not allowed')).mockResolvedValue({ rows: ROWS, total: 4 });
    open();
    expect(await screen.findByText('Não foi possível carregar o registro de atividades')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Tentar novamente/ }));
    expect(await screen.findByText('Curso "Excel Essencial"')).toBeInTheDocument();
  });
});
