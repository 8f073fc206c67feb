// Perfil → Preferências de e-mail (issue 46, item 6): the same behaviour as the school's settings, a
// switch saves at once and says "Salvo", a refused save flips back; a reload shows what was kept.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import type { OptionalEmailKind } from '../api/queries';
import { EmailPreferencesCard } from './email-preferences-card';

const api = vi.hoisted(() => ({ fetchMyUnsubscribes: vi.fn(), setKindWanted: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

/** The kinds the mocked server keeps stopped for the student. */
let stopped: OptionalEmailKind[];
const open = () => renderScreen(<EmailPreferencesCard userId="u1" />, { route: '/profile', session: signedIn() });
const statusOf = (name: string) => within(screen.getByRole('switch', { name }).parentElement!).getByRole('status');

describe('EmailPreferencesCard', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.error).mockReset();
    stopped = [];
    api.fetchMyUnsubscribes.mockImplementation(async () => [...stopped]);
    api.setKindWanted.mockImplementation(async (_c, { kind, wanted }: { kind: OptionalEmailKind; wanted: boolean }) => {
      stopped = wanted ? stopped.filter((k) => k !== kind) : [...stopped, kind];
    });
  });

  it('stops one kind, then another, then takes one back, each saved at once with Salvo; a reload shows the result', async () => {
    const view = open();
    await userEvent.click(await screen.findByRole('switch', { name: 'Certificado disponível' }));
    await waitFor(() => expect(statusOf('Certificado disponível')).toHaveTextContent('Salvo'));
    expect(api.setKindWanted).toHaveBeenLastCalledWith(expect.anything(), { userId: 'u1', kind: 'certificate_available', wanted: false });
    await userEvent.click(screen.getByRole('switch', { name: 'Sentimos sua falta' }));
    await waitFor(() => expect(statusOf('Sentimos sua falta')).toHaveTextContent('Salvo'));
    await userEvent.click(screen.getByRole('switch', { name: 'Certificado disponível' }));
    await waitFor(() => expect(api.setKindWanted).toHaveBeenCalledTimes(3));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Certificado disponível' })).toBeChecked());
    expect(stopped).toEqual(['we_miss_you']);

    view.unmount();
    open();
    expect(await screen.findByRole('switch', { name: 'Sentimos sua falta' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Certificado disponível' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Nova matrícula' })).toBeChecked();
  });

  it('lists Recuperação de vendas (issue 41) among the kinds the student may stop', async () => {
    open();
    const recovery = await screen.findByRole('switch', { name: 'Recuperação de vendas' });
    expect(recovery).toBeChecked();
    await userEvent.click(recovery);
    await waitFor(() => expect(statusOf('Recuperação de vendas')).toHaveTextContent('Salvo'));
    expect(api.setKindWanted).toHaveBeenLastCalledWith(expect.anything(), { userId: 'u1', kind: 'checkout_recovery', wanted: false });
  });

  it('a refused save flips the switch back and says so', async () => {
    api.setKindWanted.mockRejectedValueOnce(new Error('Sem conexão'));
    open();
    const newEnrollment = await screen.findByRole('switch', { name: 'Nova matrícula' });
    await userEvent.click(newEnrollment);
    await waitFor(() => expect(statusOf('Nova matrícula')).toHaveTextContent('Não foi salvo'));
    expect(newEnrollment).toBeChecked();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao salvar', expect.objectContaining({ description: expect.any(String) })));
  });
});
