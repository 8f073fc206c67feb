import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast';
import { renderScreen } from '@/test/render';
import { DiscussionSettingsCard } from './discussion-settings-card';

const api = vi.hoisted(() => ({ fetchDiscussionSettings: vi.fn(), saveDiscussionSettings: vi.fn() }));
vi.mock('@/lib/supabase', () => ({ supabase: {} }));
vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const APPROVAL = 'Aprovar comentários antes de publicar';
const RANKING = 'Ranking dos alunos';

describe('DiscussionSettingsCard', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
  });

  it('shows the school\'s two switches with their help, and saves both with a toast', async () => {
    api.fetchDiscussionSettings.mockResolvedValue({ comments_require_approval: false, ranking_enabled: true });
    api.saveDiscussionSettings.mockResolvedValue(undefined);
    renderScreen(<DiscussionSettingsCard schoolId="s1" />);
    expect(screen.getByRole('heading', { name: 'Comentários e ranking' })).toBeInTheDocument();
    const approval = await screen.findByRole('switch', { name: APPROVAL });
    await waitFor(() => expect(screen.getByRole('switch', { name: RANKING })).toHaveAttribute('aria-checked', 'true'));
    expect(approval).toHaveAttribute('aria-checked', 'false');
    expect(approval).toHaveAccessibleDescription(/aguardando aprovação; só o autor e a equipe os veem/);
    expect(screen.getByRole('switch', { name: RANKING })).toHaveAccessibleDescription(/10 alunos com mais pontos no mês/);
    expect(api.fetchDiscussionSettings).toHaveBeenCalledWith(expect.anything(), 's1');

    await userEvent.click(approval);
    await userEvent.click(screen.getByRole('switch', { name: RANKING }));
    expect(api.saveDiscussionSettings).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(api.saveDiscussionSettings).toHaveBeenCalledWith(expect.anything(), 's1', { comments_require_approval: true, ranking_enabled: false }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Comentários e ranking atualizados!'));
    expect(screen.getByRole('switch', { name: APPROVAL })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('switch', { name: RANKING })).toHaveAttribute('aria-checked', 'false');
  });

  it('a refused save shows the error toast and keeps the choice on screen', async () => {
    api.fetchDiscussionSettings.mockResolvedValue({ comments_require_approval: false, ranking_enabled: false });
    api.saveDiscussionSettings.mockRejectedValue({ code: '42501', message: 'new row violates row-level security policy' });
    renderScreen(<DiscussionSettingsCard schoolId="s1" />);
    await userEvent.click(await screen.findByRole('switch', { name: APPROVAL }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao salvar', expect.objectContaining({ description: expect.any(String) })));
    expect(toast.success).not.toHaveBeenCalled();
    expect(screen.getByRole('switch', { name: APPROVAL })).toHaveAttribute('aria-checked', 'true');
  });

  it('a failed read shows LoadError, and the retry loads the switches', async () => {
    api.fetchDiscussionSettings.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ comments_require_approval: true, ranking_enabled: false });
    renderScreen(<DiscussionSettingsCard schoolId="s1" />);
    expect(await screen.findByText('Não foi possível carregar as configurações de comentários')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: APPROVAL })).toHaveAttribute('aria-checked', 'true'));
  });
});
