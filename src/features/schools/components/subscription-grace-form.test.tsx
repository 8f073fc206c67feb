import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolRow } from '@/lib/session';
import { toast } from '@/lib/toast';
import { renderScreen } from '@/test/render';
import { SubscriptionGraceForm } from './subscription-grace-form';

const updateSchool = vi.hoisted(() => vi.fn());
vi.mock('@/lib/supabase', () => ({ supabase: {} }));
vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), updateSchool }));

const school = {
  id: 's1',
  name: 'Escola Demo',
  subscription_grace_days: 5,
  updated_at: '2026-01-01T00:00:00Z',
} as SchoolRow;

describe('SubscriptionGraceForm (Configurações)', () => {
  beforeEach(() => updateSchool.mockReset());

  it('shows the grace days (default 5), refuses what is not 0 to 60, and saves the number', async () => {
    updateSchool.mockImplementation(async (_c: unknown, _id: string, patch: object) => ({ ...school, ...patch }));
    renderScreen(<SubscriptionGraceForm school={school} />, { route: '/admin/settings' });
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
    await waitFor(() =>
      expect(updateSchool).toHaveBeenCalledWith(expect.anything(), 's1', { subscription_grace_days: 0 }),
    );
    expect(toast.success).toHaveBeenCalledWith('Tolerância das assinaturas atualizada!');
  });
});
