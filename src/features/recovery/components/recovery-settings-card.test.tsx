import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import type { RecoverySettings } from '../api/queries';
import { RecoverySettingsCard } from './recovery-settings-card';

// What the mocked server keeps (null: no row, so the defaults) and the saves it got.
const server = vi.hoisted(() => ({ row: null as RecoverySettings | null, saves: [] as unknown[], refuse: false }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => {
  const real = await importOriginal<typeof import('../api/queries')>();
  return {
    ...real,
    fetchRecoverySettings: () => Promise.resolve(server.row ?? real.RECOVERY_SETTINGS_DEFAULTS),
    saveRecoverySettings: (_client: unknown, _school: string, settings: Partial<RecoverySettings>) => {
      if (server.refuse) return Promise.reject(Object.assign(new Error('new row violates row-level security policy'), { code: '42501' }));
      server.saves.push(settings);
      server.row = { ...(server.row ?? real.RECOVERY_SETTINGS_DEFAULTS), ...settings };
      return Promise.resolve(server.row);
    },
  };
});

const open = () =>
  renderScreen(
    <UnsavedChangesScope>
      <RecoverySettingsCard schoolId="s1" />
    </UnsavedChangesScope>,
  );

describe('RecoverySettingsCard', () => {
  beforeEach(() => {
    server.row = null;
    server.saves = [];
    server.refuse = false;
    vi.mocked(toast.success).mockReset();
  });

  it('no row: on with 1, 24 and 72 hours and no coupon; the switch saves at once and says Salvo', async () => {
    open();
    const toggle = await screen.findByRole('switch', { name: 'Enviar e-mails de recuperação' });
    expect(toggle).toBeChecked();
    expect(screen.getByLabelText('1º e-mail')).toHaveValue('1');
    expect(screen.getByLabelText('2º e-mail')).toHaveValue('24');
    expect(screen.getByLabelText('3º e-mail')).toHaveValue('72');
    expect(screen.getByLabelText('Cupom no último e-mail (%)')).toHaveValue('');
    await userEvent.click(toggle);
    expect(await screen.findByText('Salvo')).toBeInTheDocument();
    expect(server.saves).toEqual([{ enabled: false }]);
    expect(toggle).not.toBeChecked();
  });

  it('saves the delays and the coupon, changes and saves again, then re-mounts with what the server kept', async () => {
    const view = open();
    const first = await screen.findByLabelText('1º e-mail');
    await userEvent.clear(first);
    await userEvent.type(first, '0,5');
    await userEvent.clear(screen.getByLabelText('3º e-mail'));
    await userEvent.type(screen.getByLabelText('Cupom no último e-mail (%)'), '15');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(server.saves).toEqual([{ delays_minutes: [30, 1440], coupon_percent: 15 }]));
    expect(toast.success).toHaveBeenCalledWith('Recuperação de vendas salva!');

    await userEvent.clear(screen.getByLabelText('Cupom no último e-mail (%)'));
    await userEvent.type(screen.getByLabelText('3º e-mail'), '96');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(server.saves).toHaveLength(2));
    expect(server.saves[1]).toEqual({ delays_minutes: [30, 1440, 5760], coupon_percent: null });

    view.unmount();
    open();
    expect(await screen.findByLabelText('1º e-mail')).toHaveValue('0,5');
    expect(screen.getByLabelText('3º e-mail')).toHaveValue('96');
    expect(screen.getByLabelText('Cupom no último e-mail (%)')).toHaveValue('');
  });

  it('refuses delays out of order, a 3rd without a 2nd, under 15 minutes and a coupon over 90%, and saves nothing', async () => {
    open();
    const second = await screen.findByLabelText('2º e-mail');
    await userEvent.clear(second);
    await userEvent.type(second, '0,1');
    await userEvent.type(screen.getByLabelText('Cupom no último e-mail (%)'), '95');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Deixe vazio ou informe de 0,25 a 336 horas')).toBeInTheDocument();
    expect(screen.getByText('Deixe vazio ou use um número inteiro de 1 a 90')).toBeInTheDocument();

    await userEvent.clear(second);
    await userEvent.clear(screen.getByLabelText('Cupom no último e-mail (%)'));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe o 2º e-mail antes do 3º')).toBeInTheDocument();

    await userEvent.type(second, '100');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Deve ser depois do e-mail anterior')).toBeInTheDocument();
    expect(server.saves).toEqual([]);
  });
});
