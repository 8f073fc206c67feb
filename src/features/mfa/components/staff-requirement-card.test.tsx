// Configurações → Segurança da equipe (issue 46, item 6): the school's two-factor requirement is a
// setting's switch like the others: saved at once with "Salvo", flipped back when refused; a reload
// (the session's school, re-read) shows what the mocked server kept.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { StaffRequirementCard } from './staff-requirement-card';

const api = vi.hoisted(() => ({ setStaffRequirement: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const NAME = 'Exigir verificação em duas etapas da equipe';
let kept = false;
const open = (canChange = true) => renderScreen(<StaffRequirementCard schoolId="s1" required={kept} canChange={canChange} />, { route: '/admin/settings' });

describe('StaffRequirementCard', () => {
  beforeEach(() => {
    api.setStaffRequirement.mockReset().mockImplementation(async (_c, _s: string, required: boolean) => (kept = required));
    vi.mocked(toast.error).mockReset();
    kept = false;
  });

  it('saves on the flip with Salvo, twice, and a reload shows the last', async () => {
    let view = open();
    const requirement = screen.getByRole('switch', { name: NAME });
    expect(requirement).toHaveAccessibleDescription(/só usam a área administrativa depois de ativar o aplicativo autenticador/);
    await userEvent.click(requirement);
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Segurança da equipe' })).getByRole('status')).toHaveTextContent('Salvo'));
    expect(api.setStaffRequirement).toHaveBeenLastCalledWith(expect.anything(), 's1', true);
    view.unmount();
    view = open();
    expect(screen.getByRole('switch', { name: NAME })).toBeChecked();
    await userEvent.click(screen.getByRole('switch', { name: NAME }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Salvo'));
    expect(kept).toBe(false);
    view.unmount();
    open();
    expect(screen.getByRole('switch', { name: NAME })).not.toBeChecked();
  });

  it('refused (the database wants a session that gave its code): flips back, Não foi salvo and the reason', async () => {
    api.setStaffRequirement.mockRejectedValue({ code: '42501', message: 'permission denied' });
    open();
    await userEvent.click(screen.getByRole('switch', { name: NAME }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Não foi salvo'));
    expect(screen.getByRole('switch', { name: NAME })).not.toBeChecked();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao atualizar', { description: 'Você não tem permissão para esta ação.' }));
  });

  it('without a factor of their own the switch is off limits, and says why', () => {
    open(false);
    expect(screen.getByRole('switch', { name: NAME })).toBeDisabled();
    expect(screen.getByRole('switch', { name: NAME })).toHaveAccessibleDescription(/Ative a verificação em duas etapas no seu Perfil para mudar esta opção/);
  });
});
