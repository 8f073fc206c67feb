// /afiliado?curso=<id> is the course's affiliate page ("Quero ser afiliado"); /afiliado alone the Painel do
// afiliado (issue 43). The course page itself asks nothing about affiliates (course.test.tsx).
import { screen } from '@testing-library/react';
import { beforeEach, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import AffiliateRoute from './affiliate';

const api = vi.hoisted(() => ({ fetchAffiliatePanel: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/features/affiliates/api/queries', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ...api,
}));

const student = signedIn({ isAdmin: false });
const notAffiliate = { affiliate: null, school_slug: 'escola-demo', from: '2026-10-30', to: '2026-11-28', courses: [] };

beforeEach(() => {
  api.fetchAffiliatePanel.mockReset().mockResolvedValue(notAffiliate);
});

it("the course's affiliate page offers 'Quero ser afiliado' to a student who is not an affiliate", async () => {
  renderScreen(<AffiliateRoute />, { route: '/afiliado?curso=c1', path: '/afiliado', session: student });
  expect(await screen.findByRole('button', { name: 'Quero ser afiliado' })).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'Painel do afiliado' })).not.toBeInTheDocument();
});

it('without a course it is the Painel do afiliado, which tells a non-affiliate where to apply', async () => {
  renderScreen(<AffiliateRoute />, { route: '/afiliado', path: '/afiliado', session: student });
  expect(
    await screen.findByText(/Peça sua afiliação pelo link do programa de afiliados que a escola divulga/),
  ).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Painel do afiliado' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Quero ser afiliado' })).not.toBeInTheDocument();
});
