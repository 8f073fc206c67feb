// Configurações → Comentários e ranking (issues 26 and 46): each switch saves at once (its own column)
// and says "Salvo"; a refused save flips back; a reload shows what the mocked server kept.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import type { DiscussionSettings } from '../api/queries';
import { DiscussionSettingsCard } from './discussion-settings-card';

const api = vi.hoisted(() => ({ fetchDiscussionSettings: vi.fn(), saveDiscussionSetting: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const APPROVAL = 'Aprovar comentários antes de publicar';
const RANKING = 'Ranking dos alunos';
let kept: DiscussionSettings;
const open = () => renderScreen(<DiscussionSettingsCard schoolId="s1" />, { route: '/admin/settings' });
const statusOf = (name: string) => within(screen.getByRole('switch', { name }).parentElement!).getByRole('status');

describe('DiscussionSettingsCard', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
    kept = { comments_require_approval: false, ranking_enabled: true, ranking_by_turma: false, discussions_by_turma: false };
    api.fetchDiscussionSettings.mockImplementation(async () => ({ ...kept }));
    api.saveDiscussionSetting.mockImplementation(async (_c, _s: string, change: Partial<DiscussionSettings>) => {
      kept = { ...kept, ...change };
    });
  });

  it("shows the school's three switches with their help; each saves at once, twice, and a reload shows what was kept", async () => {
    const view = open();
    expect(screen.getByRole('heading', { name: 'Comentários e ranking' })).toBeInTheDocument();
    const approval = await screen.findByRole('switch', { name: APPROVAL });
    expect(approval).not.toBeChecked();
    expect(screen.getByRole('switch', { name: RANKING })).toBeChecked();
    expect(approval).toHaveAccessibleDescription(/aguardando aprovação; só o autor e a equipe os veem/);
    expect(screen.getByRole('switch', { name: RANKING })).toHaveAccessibleDescription(/10 alunos com mais pontos no mês/);
    expect(api.fetchDiscussionSettings).toHaveBeenCalledWith(expect.anything(), 's1');
    expect(screen.queryByRole('button', { name: 'Salvar' })).not.toBeInTheDocument();

    await userEvent.click(approval);
    await waitFor(() => expect(statusOf(APPROVAL)).toHaveTextContent('Salvo'));
    expect(api.saveDiscussionSetting).toHaveBeenLastCalledWith(expect.anything(), 's1', { comments_require_approval: true });
    await userEvent.click(screen.getByRole('switch', { name: RANKING }));
    await waitFor(() => expect(statusOf(RANKING)).toHaveTextContent('Salvo'));
    expect(api.saveDiscussionSetting).toHaveBeenLastCalledWith(expect.anything(), 's1', { ranking_enabled: false });
    expect(kept).toEqual({ comments_require_approval: true, ranking_enabled: false, ranking_by_turma: false, discussions_by_turma: false });
    await userEvent.click(screen.getByRole('switch', { name: 'Ranking por turma' }));
    await waitFor(() => expect(statusOf('Ranking por turma')).toHaveTextContent('Salvo'));
    expect(api.saveDiscussionSetting).toHaveBeenLastCalledWith(expect.anything(), 's1', { ranking_by_turma: true });
    expect(screen.getByRole('switch', { name: 'Ranking por turma' })).toHaveAccessibleDescription(/colegas da turma/);
    await userEvent.click(screen.getByRole('switch', { name: 'Discussões por turma' }));
    await waitFor(() => expect(statusOf('Discussões por turma')).toHaveTextContent('Salvo'));
    expect(api.saveDiscussionSetting).toHaveBeenLastCalledWith(expect.anything(), 's1', { discussions_by_turma: true });
    expect(screen.getByRole('switch', { name: 'Discussões por turma' })).toHaveAccessibleDescription(/só para a turma dele e a equipe/);

    view.unmount();
    open();
    expect(await screen.findByRole('switch', { name: APPROVAL })).toBeChecked();
    expect(screen.getByRole('switch', { name: RANKING })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Ranking por turma' })).toBeChecked();
  });

  it('a refused save shows the error toast and flips the switch back to what the school keeps', async () => {
    api.saveDiscussionSetting.mockRejectedValue({ code: '42501', message: 'new row violates row-level security policy' });
    open();
    await userEvent.click(await screen.findByRole('switch', { name: APPROVAL }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao salvar', { description: 'Você não tem permissão para esta ação.' }));
    expect(statusOf(APPROVAL)).toHaveTextContent('Não foi salvo');
    expect(screen.getByRole('switch', { name: APPROVAL })).not.toBeChecked();
  });

  it('a failed read shows LoadError, and the retry loads the switches', async () => {
    api.fetchDiscussionSettings.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ comments_require_approval: true, ranking_enabled: false, ranking_by_turma: false, discussions_by_turma: false });
    open();
    expect(await screen.findByText('Não foi possível carregar as configurações de comentários')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: APPROVAL })).toBeChecked());
  });
});
