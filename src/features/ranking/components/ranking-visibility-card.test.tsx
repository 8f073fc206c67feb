// Profile → "Aparecer no ranking da escola" (issue 26, LGPD), the network mocked at api/queries.ts.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import { RankingVisibilityCard } from './ranking-visibility-card';

const api = vi.hoisted(() => ({ fetchRanking: vi.fn(), setRankingVisibility: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const ranking = (over: object) => ({ enabled: true, month: '2026-11-01', opted_out: false, weights: { lesson: 10, quiz: 30, answer: 20 }, top: [], me: null, ...over });

describe('RankingVisibilityCard', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    api.setRankingVisibility.mockResolvedValue(undefined);
  });

  it('on by default; turning it off opts out, turning it on again opts back in', async () => {
    api.fetchRanking.mockResolvedValue(ranking({}));
    const user = userEvent.setup();
    renderScreen(<RankingVisibilityCard schoolId="s1" userId="u1" />, { session: signedIn() });
    const toggle = await screen.findByRole('switch', { name: 'Aparecer no ranking da escola' });
    expect(toggle).toBeChecked();

    api.fetchRanking.mockResolvedValue(ranking({ opted_out: true }));
    await user.click(toggle);
    expect(api.setRankingVisibility).toHaveBeenLastCalledWith(expect.anything(), 'u1', false);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Aparecer no ranking da escola' })).not.toBeChecked());
    await waitFor(() => expect(screen.getByRole('switch')).toBeEnabled());

    api.fetchRanking.mockResolvedValue(ranking({}));
    await user.click(screen.getByRole('switch'));
    expect(api.setRankingVisibility).toHaveBeenLastCalledWith(expect.anything(), 'u1', true);
    await waitFor(() => expect(screen.getByRole('switch')).toBeChecked());
    expect(api.setRankingVisibility).toHaveBeenCalledTimes(2);
  });

  it('saves like every other setting (issue 46): "Salvo" once kept; a failure flips back and says so', async () => {
    api.fetchRanking.mockResolvedValue(ranking({}));
    const user = userEvent.setup();
    renderScreen(<RankingVisibilityCard schoolId="s1" userId="u1" />, { session: signedIn() });
    const toggle = await screen.findByRole('switch', { name: 'Aparecer no ranking da escola' });
    api.fetchRanking.mockResolvedValue(ranking({ opted_out: true }));
    await user.click(toggle);
    expect(await screen.findByText('Salvo')).toBeInTheDocument();
    expect(screen.getByRole('switch')).not.toBeChecked();

    api.setRankingVisibility.mockRejectedValueOnce(new Error('falhou'));
    await user.click(screen.getByRole('switch'));
    expect(await screen.findByText('Não foi salvo')).toBeInTheDocument();
    expect(screen.getByRole('switch')).not.toBeChecked();
  });

  it('an opted-out student sees it off', async () => {
    api.fetchRanking.mockResolvedValue(ranking({ opted_out: true }));
    renderScreen(<RankingVisibilityCard schoolId="s1" userId="u1" />, { session: signedIn() });
    expect(await screen.findByRole('switch', { name: 'Aparecer no ranking da escola' })).not.toBeChecked();
  });

  it("the school's ranking is off: no switch at all", async () => {
    api.fetchRanking.mockResolvedValue(ranking({ enabled: false }));
    renderScreen(<RankingVisibilityCard schoolId="s1" userId="u1" />, { session: signedIn() });
    await waitFor(() => expect(api.fetchRanking).toHaveBeenCalledWith(expect.anything(), 's1'));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByText('Ranking da escola')).not.toBeInTheDocument();
  });
});
