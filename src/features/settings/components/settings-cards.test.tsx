import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { renderScreen } from '@/test/render';
import type { Integration } from '../api/queries';
import { IntegrationsCard } from './integrations-card';
import { SystemKeyCard } from './system-key-card';
import { WebhookSecretCard } from './webhook-secret-card';

const api = vi.hoisted(() => ({
  fetchIntegrations: vi.fn(),
  createIntegration: vi.fn(),
  fetchSystemKey: vi.fn(),
  fetchWebhookSecret: vi.fn(),
  saveSystemKey: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const integration = {
  id: 'i1',
  school_id: 's1',
  provider: 'asaas',
  environment: 'sandbox',
  api_key_last4: 'x9z8',
  has_webhook_token: true,
  is_active: true,
  created_at: '2026-01-05T12:00:00Z',
};

// The cards sit on Configurações, in its unsaved-changes scope (src/app/routes/admin/settings.tsx).
const open = (ui: React.ReactElement) => renderScreen(<UnsavedChangesScope>{ui}</UnsavedChangesScope>, { route: '/admin/settings' });
const reloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

describe('settings cards', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
  });

  it('lists the integrations by the last 4 characters of their key, and shows the webhook URL for Asaas', async () => {
    api.fetchIntegrations.mockResolvedValue([integration]);
    open(<IntegrationsCard schoolId="s1" />);
    expect(await screen.findByText('Asaas · Sandbox (testes)')).toBeInTheDocument();
    expect(screen.getByText('••••x9z8')).toBeInTheDocument();
    expect(screen.getByText(/webhook configurado/)).toBeInTheDocument();
    expect(screen.getByText('Ativa')).toBeInTheDocument();
    expect(screen.getByText(/functions\/v1\/asaas-webhook\?school=s1/)).toBeInTheDocument();
    expect(api.fetchIntegrations).toHaveBeenCalledWith(expect.anything(), 's1');
  });

  it('asks for the API key, then adds the integration and empties the key', async () => {
    api.fetchIntegrations.mockResolvedValue([]);
    api.createIntegration.mockResolvedValue(undefined);
    open(<IntegrationsCard schoolId="s1" />);
    expect(await screen.findByText('Nenhuma integração cadastrada.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar integração' }));
    expect(await screen.findByText('Preencha a chave API')).toBeInTheDocument();
    expect(api.createIntegration).not.toHaveBeenCalled();
    await userEvent.selectOptions(screen.getByLabelText('Ambiente'), 'production');
    await userEvent.type(screen.getByLabelText('Chave API'), '$aact_123');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar integração' }));
    await waitFor(() =>
      expect(api.createIntegration).toHaveBeenCalledWith(expect.anything(), 's1', { provider: 'asaas', environment: 'production', api_key: '$aact_123', webhook_token: '' }),
    );
    await waitFor(() => expect(screen.getByLabelText('Chave API')).toHaveValue(''));
    expect(screen.getByLabelText('Ambiente')).toHaveValue('production');
  });

  it('a failed read of the integrations shows LoadError, and the retry loads them', async () => {
    api.fetchIntegrations.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue([integration]);
    open(<IntegrationsCard schoolId="s1" />);
    expect(await screen.findByText('Não foi possível carregar as integrações')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Asaas · Sandbox (testes)')).toBeInTheDocument();
  });

  it('a failed read of the system key shows LoadError with a retry; an empty key is refused', async () => {
    api.fetchSystemKey.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ key: 'ASAAS_API_KEY', value_last4: 'k4k4', updated_at: '2026-01-05T12:00:00Z' });
    open(<SystemKeyCard />);
    expect(await screen.findByText('Não foi possível carregar a chave do sistema')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('••••k4k4')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar chave' }));
    expect(await screen.findByText('A chave não pode estar vazia')).toBeInTheDocument();
  });

  it('the webhook secret: hidden without the second factor, LoadError on another failure', async () => {
    api.fetchWebhookSecret.mockRejectedValueOnce({ code: '42501', message: 'denied' });
    const first = renderScreen(<WebhookSecretCard schoolId="s1" />);
    expect(await screen.findByText(/Segredo oculto: confirme a verificação em duas etapas/)).toBeInTheDocument();
    first.unmount();
    api.fetchWebhookSecret.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue('segredo-da-escola-1234');
    renderScreen(<WebhookSecretCard schoolId="s1" />);
    expect(await screen.findByText('Não foi possível carregar o segredo')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('••••••••••••1234')).toBeInTheDocument();
  });

  it('the system key: a typed key asks before leaving; saved twice, a reload shows the last one', async () => {
    let kept: { key: string; value_last4: string; updated_at: string } | null = null;
    api.fetchSystemKey.mockImplementation(async () => kept);
    api.saveSystemKey.mockImplementation(async (_c, value: string) => {
      kept = { key: 'ASAAS_API_KEY', value_last4: value.slice(-4), updated_at: '2026-11-28T12:00:00Z' };
    });
    const view = open(<SystemKeyCard />);
    expect(await screen.findByText('Nenhuma chave cadastrada.')).toBeInTheDocument();
    const field = screen.getByLabelText('Nova chave API (Asaas)');
    await userEvent.type(field, '$aact_primeira_1111');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar chave' }));
    expect(await screen.findByText('••••1111')).toBeInTheDocument();
    await waitFor(() => expect(reloadAsks()).toBe(false));
    expect(field).toHaveValue('');
    await userEvent.type(field, '$aact_segunda_2222');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar chave' }));
    expect(await screen.findByText('••••2222')).toBeInTheDocument();
    view.unmount();
    open(<SystemKeyCard />);
    expect(await screen.findByText('••••2222')).toBeInTheDocument();
  });

  it('integrations: a typed key asks before leaving; two added one after the other, a reload lists both', async () => {
    let kept: Integration[] = [];
    api.fetchIntegrations.mockImplementation(async () => structuredClone(kept));
    api.createIntegration.mockImplementation(async (_c, _s: string, v: { environment: 'sandbox' | 'production'; api_key: string }) => {
      kept = [{ ...integration, id: `i${kept.length + 1}`, environment: v.environment, api_key_last4: v.api_key.slice(-4), has_webhook_token: false } as Integration, ...kept];
    });
    const view = open(<IntegrationsCard schoolId="s1" />);
    expect(await screen.findByText('Nenhuma integração cadastrada.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Chave API'), '$aact_sandbox_aaaa');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar integração' }));
    expect(await screen.findByText('••••aaaa')).toBeInTheDocument();
    await waitFor(() => expect(reloadAsks()).toBe(false));
    await userEvent.selectOptions(screen.getByLabelText('Ambiente'), 'production');
    expect(reloadAsks()).toBe(false);
    await userEvent.type(screen.getByLabelText('Chave API'), '$aact_prod_bbbb');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar integração' }));
    expect(await screen.findByText('••••bbbb')).toBeInTheDocument();
    view.unmount();
    open(<IntegrationsCard schoolId="s1" />);
    expect(await screen.findByText('Asaas · Produção')).toBeInTheDocument();
    expect(screen.getByText('Asaas · Sandbox (testes)')).toBeInTheDocument();
  });
});
