// The course's "Programa de afiliados" as a student meets it (issue 43): "Quero ser afiliado" sends the
// application for this course; a pending, refused or blocked affiliation says where it stands; an approved
// affiliate sees the course's link (/<escola>/c/<curso>?afiliado=<código>) and copies it.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import type { Affiliate, AffiliatePanel } from '../api/queries';
import { AffiliateCard } from './affiliate-card';

const api = vi.hoisted(() => ({ fetchAffiliatePanel: vi.fn(), applyAsAffiliate: vi.fn() }));
const copyText = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/clipboard', () => ({ copyText }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const student = signedIn({ isAdmin: false });
const affiliate = (status: Affiliate['status']): Affiliate => ({
  id: 'a1',
  code: 'ana12345',
  status,
  wallet_id: null,
  wallet_validated_at: null,
});
const panel = (over: Partial<AffiliatePanel>): AffiliatePanel => ({
  affiliate: null,
  school_slug: 'escola-demo',
  from: '2026-10-30',
  to: '2026-11-28',
  courses: [],
  ...over,
});
const marketing = {
  course_id: 'c1',
  title: 'Marketing Digital',
  slug: 'marketing-digital',
  commission_percent: 30,
  cookie_days: 60,
  materials_text: null,
  materials_links: [],
  clicks: 0,
  sales: 0,
  commissions: { pending: 0, confirmed: 0, available: 0, reversed: 0 },
};

describe('AffiliateCard', () => {
  beforeEach(() => {
    api.fetchAffiliatePanel.mockReset();
    api.applyAsAffiliate.mockReset();
    copyText.mockReset();
  });

  it('sends "Quero ser afiliado" for this course, then says the application is being reviewed', async () => {
    api.fetchAffiliatePanel
      .mockResolvedValueOnce(panel({}))
      .mockResolvedValue(panel({ affiliate: affiliate('pending') }));
    api.applyAsAffiliate.mockResolvedValue(affiliate('pending'));
    renderScreen(<AffiliateCard courseId="c1" userId="u1" />, { session: student });
    await userEvent.click(await screen.findByRole('button', { name: 'Quero ser afiliado' }));
    expect(api.applyAsAffiliate).toHaveBeenCalledWith(expect.anything(), 'c1');
    expect(await screen.findByText('Seu pedido para ser afiliado está em análise pela escola.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Quero ser afiliado' })).not.toBeInTheDocument();
  });

  it('shows a refused or blocked affiliation without a link or a new application', async () => {
    api.fetchAffiliatePanel.mockResolvedValue(panel({ affiliate: affiliate('blocked') }));
    renderScreen(<AffiliateCard courseId="c1" userId="u1" />, { session: student });
    expect(await screen.findByText('Sua afiliação foi bloqueada pela escola.')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Seu link de afiliado')).not.toBeInTheDocument();
  });

  it("gives an approved affiliate the course's link and copies it", async () => {
    api.fetchAffiliatePanel.mockResolvedValue(panel({ affiliate: affiliate('approved'), courses: [marketing] }));
    renderScreen(<AffiliateCard courseId="c1" userId="u1" />, { session: student });
    const link = `${window.location.origin}/escola-demo/c/marketing-digital?afiliado=ana12345`;
    expect(await screen.findByLabelText('Seu link de afiliado')).toHaveValue(link);
    expect(screen.getByText(/Comissão de 30% sobre o valor pago, para compras em até 60 dias/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Copiar link de afiliado' }));
    expect(copyText).toHaveBeenCalledWith(link, 'Link copiado', link);
  });

  it('tells an approved affiliate when this course has no program', async () => {
    api.fetchAffiliatePanel.mockResolvedValue(panel({ affiliate: affiliate('approved'), courses: [marketing] }));
    renderScreen(<AffiliateCard courseId="c2" userId="u1" />, { session: student });
    expect(await screen.findByText('Este curso não tem programa de afiliados.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Seu link de afiliado')).not.toBeInTheDocument();
  });
});
