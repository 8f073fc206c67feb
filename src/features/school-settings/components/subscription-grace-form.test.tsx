import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import type { SchoolRow } from '@/platform/session';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import type { SchoolUpdate } from '../api/queries';
import { MemberAreaNameForm } from './member-area-name-form';
import { SubscriptionGraceForm } from './subscription-grace-form';

const updateSchool = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), updateSchool }));

const school = {
  id: 's1',
  name: 'Escola Demo',
  member_area_name: 'Área Demo',
  subscription_grace_days: 5,
  updated_at: '2026-01-01T00:00:00Z',
} as SchoolRow;
/** The school the mocked server keeps. */
let kept: SchoolRow;
const open = (ui: React.ReactElement) => renderScreen(<UnsavedChangesScope>{ui}</UnsavedChangesScope>, { route: '/admin/settings' });
const reloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

describe('Configurações: the school\'s typed settings', () => {
  beforeEach(() => {
    kept = { ...school };
    updateSchool.mockReset().mockImplementation(async (_c: unknown, _id: string, patch: SchoolUpdate) => (kept = { ...kept, ...patch } as SchoolRow));
    vi.mocked(toast.success).mockReset();
  });

  it('Assinaturas: shows the grace days (default 5), refuses what is not 0 to 60, and saves the number', async () => {
    open(<SubscriptionGraceForm school={school} />);
    const field = screen.getByLabelText('Dias de tolerância para assinaturas em atraso');
    expect(field).toHaveValue(5);
    await userEvent.clear(field);
    await userEvent.type(field, '61');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Use um número inteiro de 0 a 60')).toBeInTheDocument();
    expect(updateSchool).not.toHaveBeenCalled();

    await userEvent.clear(field);
    await userEvent.type(field, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(updateSchool).toHaveBeenCalledWith(expect.anything(), 's1', { subscription_grace_days: 0 }));
    expect(toast.success).toHaveBeenCalledWith('Tolerância das assinaturas atualizada!');
  });

  it('Assinaturas: asks before leaving unsaved, saves, changes and saves again; a reload shows the last', async () => {
    const view = open(<SubscriptionGraceForm school={kept} />);
    const field = screen.getByLabelText('Dias de tolerância para assinaturas em atraso');
    await userEvent.clear(field);
    await userEvent.type(field, '10');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(kept.subscription_grace_days).toBe(10));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    await userEvent.clear(field);
    await userEvent.type(field, '15');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(kept.subscription_grace_days).toBe(15));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    view.unmount();
    open(<SubscriptionGraceForm school={kept} />);
    expect(screen.getByLabelText('Dias de tolerância para assinaturas em atraso')).toHaveValue(15);
  });

  it('Área de membros (name): asks before leaving unsaved, saves, changes and saves again; a reload shows the last', async () => {
    const view = open(<MemberAreaNameForm school={kept} />);
    const name = screen.getByRole('textbox', { name: 'Nome da área de membros' });
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Nome não pode estar vazio')).toBeInTheDocument();
    await userEvent.type(name, 'Cursos Demo');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(kept.member_area_name).toBe('Cursos Demo'));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    await userEvent.clear(name);
    await userEvent.type(name, 'Academia Demo');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(kept.member_area_name).toBe('Academia Demo'));
    expect(updateSchool).toHaveBeenCalledTimes(2);
    view.unmount();
    open(<MemberAreaNameForm school={kept} />);
    expect(screen.getByRole('textbox', { name: 'Nome da área de membros' })).toHaveValue('Academia Demo');
  });
});
