// Configurações → Notas fiscais as the school's admin meets it (issue 42): what Asaas's fiscal check finds
// missing comes first, each item with where to fix it, and the switch stays off until nothing is; the
// municipal service is searched and chosen; the typed setting waits for "Salvar", refuses bad input in pt-BR,
// saves twice, and a reload (a new mount reading what the mocked server kept) shows the last save.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { INVOICE_SETTINGS_DEFAULTS, type InvoiceSettings, type MissingFiscalItem } from '../../api/queries';
import { InvoiceSettingsCard } from './invoice-settings-card';

const api = vi.hoisted(() => ({
  fetchInvoiceSettings: vi.fn(),
  saveInvoiceSettings: vi.fn(),
  checkFiscalInfo: vi.fn(),
  setInvoicesEnabled: vi.fn(),
  searchMunicipalServices: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const INSCRIPTION: MissingFiscalItem = {
  field: 'municipalInscription',
  message: 'Falta a inscrição municipal da empresa.',
  where: 'No Asaas: Minha conta → Informações fiscais → Inscrição municipal.',
};
const SERVICE: MissingFiscalItem = {
  field: 'municipalService',
  message: 'Falta escolher o serviço municipal.',
  where: 'Aqui, em Serviço municipal, abaixo.',
};
const SERVICES = [
  { id: '101', description: '08.02 - Instrução, treinamento, orientação pedagógica e educacional', iss_tax: 2 },
  { id: '102', description: '08.01 - Ensino regular pré-escolar, fundamental e médio', iss_tax: 2 },
];

/** What the mocked server keeps, and what Asaas's check finds missing at the account. */
let kept: InvoiceSettings;
let missingAtAsaas: MissingFiscalItem[];
const open = () =>
  renderScreen(
    <UnsavedChangesScope>
      <InvoiceSettingsCard schoolId="s1" />
    </UnsavedChangesScope>,
    { route: '/admin/settings' },
  );
const card = () => screen.getByRole('region', { name: 'Notas fiscais' });
const save = () => userEvent.click(within(card()).getByRole('button', { name: 'Salvar' }));
const statusOf = (name: string) => within(screen.getByRole('switch', { name }).parentElement!).getByRole('status');

describe('InvoiceSettingsCard', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
    kept = { ...INVOICE_SETTINGS_DEFAULTS };
    missingAtAsaas = [INSCRIPTION];
    api.fetchInvoiceSettings.mockImplementation(async () => ({ ...kept }));
    api.saveInvoiceSettings.mockImplementation(
      async (_c, _school: string, change: Partial<InvoiceSettings>) => (kept = { ...kept, ...change }),
    );
    api.checkFiscalInfo.mockImplementation(async () => ({
      missing: [...missingAtAsaas, ...(kept.municipal_service_id ? [] : [SERVICE])],
      supports_cancellation: true,
    }));
    api.setInvoicesEnabled.mockImplementation(async (_school: string, enabled: boolean) => {
      const missing = [...missingAtAsaas, ...(kept.municipal_service_id ? [] : [SERVICE])];
      if (enabled && missing.length)
        throw Object.assign(new Error('Faltam informações fiscais para emitir notas.'), {
          status: 409,
          body: { missing },
        });
      kept = { ...kept, enabled };
      return { enabled, missing: [] };
    });
    api.searchMunicipalServices.mockImplementation(async (_school: string, q: string) => ({
      services: SERVICES.filter((s) => s.description.toLowerCase().includes(q.toLowerCase())),
      has_more: false,
    }));
  });

  it('lists what is missing first, keeps the switch off until nothing is, then turns it on and a reload keeps it', async () => {
    const view = open();
    const list = await screen.findByRole('list', { name: 'Informações fiscais que faltam' });
    expect(within(list).getByText('Falta a inscrição municipal da empresa.')).toBeInTheDocument();
    expect(
      within(list).getByText('Onde corrigir: No Asaas: Minha conta → Informações fiscais → Inscrição municipal.'),
    ).toBeInTheDocument();
    expect(within(list).getByText('Falta escolher o serviço municipal.')).toBeInTheDocument();
    const toggle = screen.getByRole('switch', { name: 'Emitir notas fiscais' });
    // The list comes before the switch, and the switch cannot be turned on.
    expect(list.compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription('Complete as informações acima para ligar.');

    // The service: searched in the municipality's list and chosen.
    await userEvent.click(screen.getByRole('button', { name: 'Escolher serviço' }));
    await userEvent.type(screen.getByLabelText('Buscar serviço municipal pela descrição'), 'treinamento');
    await waitFor(() => expect(api.searchMunicipalServices).toHaveBeenLastCalledWith('s1', 'treinamento'));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: `Escolher ${SERVICES[1]!.description}` })).not.toBeInTheDocument(),
    );
    await userEvent.click(screen.getByRole('button', { name: `Escolher ${SERVICES[0]!.description}` }));
    expect(screen.getByText(SERVICES[0]!.description)).toBeInTheDocument();
    // Meanwhile the school fixed its inscription at Asaas; saving reads the check again.
    missingAtAsaas = [];
    await save();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Notas fiscais salvas!'));
    expect(kept).toMatchObject({
      municipal_service_id: '101',
      municipal_service_name: SERVICES[0]!.description,
      enabled: false,
    });
    expect(await screen.findByText('Informações fiscais completas no Asaas.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Informações fiscais que faltam' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('switch', { name: 'Emitir notas fiscais' }));
    await waitFor(() => expect(statusOf('Emitir notas fiscais')).toHaveTextContent('Salvo'));
    expect(api.setInvoicesEnabled).toHaveBeenLastCalledWith('s1', true);
    expect(kept.enabled).toBe(true);

    view.unmount();
    open();
    expect(await screen.findByRole('switch', { name: 'Emitir notas fiscais' })).toBeChecked();
    expect(screen.getByText(SERVICES[0]!.description)).toBeInTheDocument();
  });

  it('a switch the server refuses flips back, says Não foi salvo, and the list shows what is missing now', async () => {
    kept = { ...kept, municipal_service_id: '101', municipal_service_name: SERVICES[0]!.description };
    missingAtAsaas = [];
    open();
    const toggle = await screen.findByRole('switch', { name: 'Emitir notas fiscais' });
    await waitFor(() => expect(toggle).toBeEnabled());
    // The certificate expired at Asaas between the check and the click.
    missingAtAsaas = [
      {
        field: 'certificate',
        message: 'Falta o certificado digital A1 da empresa.',
        where: 'No Asaas: Minha conta → Informações fiscais → Certificado.',
      },
    ];
    await userEvent.click(toggle);
    await waitFor(() => expect(statusOf('Emitir notas fiscais')).toHaveTextContent('Não foi salvo'));
    expect(toggle).not.toBeChecked();
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao salvar', {
        description: 'Faltam informações fiscais para emitir notas.',
      }),
    );
    expect(await screen.findByText('Falta o certificado digital A1 da empresa.')).toBeInTheDocument();
    expect(kept.enabled).toBe(false);
  });

  it('bad input gets pt-BR messages; the setting saves, changes and saves again, and a reload shows the last', async () => {
    const view = open();
    const days = await screen.findByLabelText('Dias de garantia');
    expect(days).toHaveValue('7');
    expect(screen.getByLabelText('Descrição do serviço')).toHaveAccessibleDescription(
      /\{curso\} \(o nome do curso\).*\{comprador\}.*\{data_pagamento\}.*\{valor\}/,
    );
    await userEvent.clear(days);
    await userEvent.type(days, '120');
    await userEvent.type(screen.getByLabelText('Alíquota do ISS (%)'), '2,555');
    await userEvent.type(screen.getByLabelText('PIS (%)'), '101');
    await userEvent.clear(screen.getByLabelText('Descrição do serviço'));
    await save();
    expect(await screen.findByText('Informe um número inteiro de 1 a 90 dias')).toBeInTheDocument();
    expect(screen.getAllByText('Use um percentual de 0 a 100, com até duas casas decimais (ex.: 2,5)')).toHaveLength(2);
    expect(screen.getByText('Escreva a descrição do serviço')).toBeInTheDocument();
    expect(api.saveInvoiceSettings).not.toHaveBeenCalled();

    await userEvent.clear(days);
    await userEvent.type(days, '14');
    await userEvent.clear(screen.getByLabelText('Alíquota do ISS (%)'));
    await userEvent.type(screen.getByLabelText('Alíquota do ISS (%)'), '2,5');
    await userEvent.click(screen.getByLabelText('ISS retido pelo tomador'));
    await userEvent.clear(screen.getByLabelText('PIS (%)'));
    await userEvent.type(screen.getByLabelText('PIS (%)'), '0,65');
    // Each rate valid on its own, together more than the service.
    await userEvent.type(screen.getByLabelText('COFINS (%)'), '60');
    await userEvent.type(screen.getByLabelText('IR (%)'), '40');
    await save();
    expect(await screen.findByText('A soma dos impostos não pode passar de 100%')).toBeInTheDocument();
    expect(api.saveInvoiceSettings).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText('COFINS (%)'));
    await userEvent.clear(screen.getByLabelText('IR (%)'));
    await userEvent.type(screen.getByLabelText('Descrição do serviço'), 'Curso {{curso} para {{comprador}');
    await save();
    await waitFor(() => expect(toast.success).toHaveBeenCalledTimes(1));
    expect(kept).toMatchObject({
      issue_on: 'guarantee',
      guarantee_days: 14,
      iss_rate: 2.5,
      retain_iss: true,
      pis_rate: 0.65,
      description_template: 'Curso {curso} para {comprador}',
    });

    // Second save: on the payment's confirmation (the days leave the form and stay as they were).
    await userEvent.click(screen.getByRole('radio', { name: 'Ao confirmar o pagamento' }));
    expect(screen.queryByLabelText('Dias de garantia')).not.toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('COFINS (%)'));
    await userEvent.type(screen.getByLabelText('COFINS (%)'), '3');
    await save();
    await waitFor(() => expect(toast.success).toHaveBeenCalledTimes(2));
    expect(kept).toMatchObject({ issue_on: 'payment', guarantee_days: 14, cofins_rate: 3, iss_rate: 2.5 });

    view.unmount();
    open();
    expect(await screen.findByRole('radio', { name: 'Ao confirmar o pagamento' })).toBeChecked();
    expect(screen.getByLabelText('COFINS (%)')).toHaveValue('3');
    expect(screen.getByLabelText('Alíquota do ISS (%)')).toHaveValue('2,5');
    expect(screen.getByLabelText('ISS retido pelo tomador')).toBeChecked();
  });
});
