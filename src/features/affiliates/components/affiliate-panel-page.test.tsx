// "Painel do afiliado" as an approved affiliate meets it (issue 43): each course's two links with copy
// buttons, clicks, sales and commissions by state, the materials; a new period asks the panel again; the
// "Carteira Asaas" form saves through affiliate-wallet and shows a refusal under the field it names. Someone
// not approved sees no links.
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import type { AffiliatePanel } from '../api/queries';
import { AffiliatePanelPage } from './affiliate-panel-page';

const api = vi.hoisted(() => ({ fetchAffiliatePanel: vi.fn(), saveAffiliateWallet: vi.fn() }));
const copyText = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/clipboard', () => ({ copyText }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const WALLET = '7f3c2a10-0000-4000-8000-00000000a001';
const panel = (over: Partial<AffiliatePanel> = {}): AffiliatePanel => ({
  affiliate: { id: 'a1', code: 'ana12345', status: 'approved', wallet_id: null, wallet_validated_at: null },
  school_slug: 'escola-demo',
  from: '2026-10-30',
  to: '2026-11-28',
  courses: [
    {
      course_id: 'c1',
      title: 'Marketing Digital',
      slug: 'marketing-digital',
      commission_percent: 30,
      cookie_days: 60,
      materials_text: 'Use as imagens abaixo nos stories.',
      materials_links: [{ kind: 'image', title: 'Banner 1080×1920', url: 'https://cdn.example/banner.png' }],
      clicks: 42,
      sales: 3,
      commissions: { pending: 59.1, confirmed: 0, available: 118.2, reversed: 59.1 },
    },
  ],
  ...over,
});
const student = signedIn({ isAdmin: false });

describe('AffiliatePanelPage', () => {
  beforeEach(() => {
    api.fetchAffiliatePanel.mockReset().mockResolvedValue(panel());
    api.saveAffiliateWallet.mockReset();
    copyText.mockReset();
  });

  it("shows each course's links, numbers and materials, and asks again for a new period", async () => {
    renderScreen(<AffiliatePanelPage userId="u1" />, { session: student });
    const origin = window.location.origin;
    expect(await screen.findByLabelText('Link da página do curso')).toHaveValue(
      `${origin}/escola-demo/c/marketing-digital?afiliado=ana12345`,
    );
    expect(screen.getByLabelText('Link do checkout')).toHaveValue(
      `${origin}/checkout/marketing-digital?afiliado=ana12345`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Copiar link do checkout de Marketing Digital' }));
    expect(copyText).toHaveBeenCalledWith(
      `${origin}/checkout/marketing-digital?afiliado=ana12345`,
      'Link copiado',
      expect.any(String),
    );

    const figures = screen.getByLabelText('Números de Marketing Digital');
    expect(within(figures).getByText('Cliques').nextSibling).toHaveTextContent('42');
    expect(within(figures).getByText('Vendas').nextSibling).toHaveTextContent('3');
    expect(within(figures).getByText('Disponíveis').nextSibling).toHaveTextContent('R$ 118,20');
    expect(within(figures).getByText('Estornadas').nextSibling).toHaveTextContent('R$ 59,10');
    const materials = screen.getByRole('region', { name: 'Materiais de Marketing Digital' });
    expect(within(materials).getByText('Use as imagens abaixo nos stories.')).toBeInTheDocument();
    expect(within(materials).getByRole('link', { name: 'Imagem: Banner 1080×1920' })).toHaveAttribute(
      'href',
      'https://cdn.example/banner.png',
    );

    const from = screen.getByLabelText('De');
    expect(from).toHaveValue('2026-10-30');
    fireEvent.change(from, { target: { value: '2026-11-01' } });
    await vi.waitFor(() =>
      expect(api.fetchAffiliatePanel).toHaveBeenLastCalledWith(expect.anything(), { from: '2026-11-01' }),
    );
  });

  it('saves the Asaas wallet, and shows a refused key under its field', async () => {
    // What invokeFunction throws for a refused call (src/platform/functions.ts).
    const { FunctionCallError } = await vi.importActual<typeof import('@/platform/functions')>('@/platform/functions');
    api.saveAffiliateWallet
      .mockRejectedValueOnce(
        new FunctionCallError('O Asaas não aceitou esta chave de API.', 400, { field: 'asaas_api_key' }),
      )
      .mockResolvedValue({ wallet_id: WALLET });
    renderScreen(<AffiliatePanelPage userId="u1" />, { session: student });
    const form = await screen.findByRole('form', { name: 'Carteira Asaas' });
    await userEvent.type(within(form).getByLabelText('ID da carteira (walletId)'), WALLET);
    await userEvent.type(within(form).getByLabelText('Chave de API da sua conta Asaas'), '$aact_errada');
    await userEvent.click(within(form).getByRole('button', { name: 'Salvar carteira' }));
    expect(await within(form).findByText('O Asaas não aceitou esta chave de API.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Chave de API da sua conta Asaas')).toHaveAttribute('aria-invalid', 'true');

    api.fetchAffiliatePanel.mockResolvedValue(
      panel({
        affiliate: {
          id: 'a1',
          code: 'ana12345',
          status: 'approved',
          wallet_id: WALLET,
          wallet_validated_at: '2026-11-28T12:00:00Z',
        },
      }),
    );
    const key = within(form).getByLabelText('Chave de API da sua conta Asaas');
    await userEvent.clear(key);
    await userEvent.type(key, '$aact_certa');
    await userEvent.click(within(form).getByRole('button', { name: 'Salvar carteira' }));
    expect(api.saveAffiliateWallet).toHaveBeenLastCalledWith({ wallet_id: WALLET, asaas_api_key: '$aact_certa' });
    expect(
      await screen.findByText(`Suas comissões vão para a carteira ${WALLET}, confirmada em 28/11/2026.`),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Chave de API da sua conta Asaas')).toHaveValue('');
  });

  it('refuses a malformed wallet id before calling Asaas', async () => {
    renderScreen(<AffiliatePanelPage userId="u1" />, { session: student });
    const form = await screen.findByRole('form', { name: 'Carteira Asaas' });
    await userEvent.type(within(form).getByLabelText('ID da carteira (walletId)'), 'minha-carteira');
    await userEvent.type(within(form).getByLabelText('Chave de API da sua conta Asaas'), '$aact_x');
    await userEvent.click(within(form).getByRole('button', { name: 'Salvar carteira' }));
    expect(
      await within(form).findByText('Informe o ID da carteira (walletId) como o Asaas mostra.'),
    ).toBeInTheDocument();
    expect(api.saveAffiliateWallet).not.toHaveBeenCalled();
  });

  it('shows no links to someone who is not an approved affiliate', async () => {
    api.fetchAffiliatePanel.mockResolvedValue(
      panel({
        affiliate: { id: 'a1', code: 'ana12345', status: 'pending', wallet_id: null, wallet_validated_at: null },
        courses: [],
      }),
    );
    renderScreen(<AffiliatePanelPage userId="u1" />, { session: student });
    expect(await screen.findByText(/O painel é dos afiliados aprovados pela escola/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Link da página do curso')).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Carteira Asaas' })).not.toBeInTheDocument();
  });
});
