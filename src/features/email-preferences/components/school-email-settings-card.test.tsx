// Configurações → E-mails as the school's admin meets it (issue 46, item 6): a switch saves at once and
// says "Salvo", a refused save flips back; the sender's fields wait for "Salvar". Each test saves,
// changes and saves again, then reloads (a new mount reading what the mocked server kept).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import type { SchoolEmailSettings } from '../api/queries';
import { SchoolEmailSettingsCard } from './school-email-settings-card';

const api = vi.hoisted(() => ({ fetchSchoolEmailSettings: vi.fn(), saveSchoolEmailSettings: vi.fn(), fetchEmailPreview: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

/** The row the mocked server keeps: a save merges the columns it names, as the upsert does. */
let kept: SchoolEmailSettings;
const open = () =>
  renderScreen(
    <UnsavedChangesScope>
      <SchoolEmailSettingsCard schoolId="s1" />
    </UnsavedChangesScope>,
    { route: '/admin/settings' },
  );
const card = () => screen.getByRole('region', { name: 'E-mails' });
const statusOf = (name: string) => within(screen.getByRole('switch', { name }).parentElement!).getByRole('status');

describe('SchoolEmailSettingsCard', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    vi.mocked(toast.success).mockReset();
    vi.mocked(toast.error).mockReset();
    kept = { disabled_kinds: [], sender_name: null, reply_to: null };
    api.fetchSchoolEmailSettings.mockImplementation(async () => structuredClone(kept));
    api.saveSchoolEmailSettings.mockImplementation(async (_c, _school: string, change: Partial<SchoolEmailSettings>) => {
      kept = { ...kept, ...change };
    });
    api.fetchEmailPreview.mockResolvedValue({ smtp_configured: true });
  });

  it('each switch saves at once and says Salvo; a second switch keeps the first; a reload shows both', async () => {
    const view = open();
    const weMissYou = await screen.findByRole('switch', { name: 'Sentimos sua falta' });
    expect(weMissYou).toBeChecked();
    // The recovery e-mails have their own school switch (Recuperação de vendas), not one here.
    expect(screen.queryByRole('switch', { name: 'Recuperação de vendas' })).not.toBeInTheDocument();
    await userEvent.click(weMissYou);
    await waitFor(() => expect(statusOf('Sentimos sua falta')).toHaveTextContent('Salvo'));
    expect(api.saveSchoolEmailSettings).toHaveBeenLastCalledWith(expect.anything(), 's1', { disabled_kinds: ['we_miss_you'] });

    await userEvent.click(screen.getByRole('switch', { name: 'Nova matrícula' }));
    await waitFor(() => expect(statusOf('Nova matrícula')).toHaveTextContent('Salvo'));
    expect(api.saveSchoolEmailSettings).toHaveBeenLastCalledWith(expect.anything(), 's1', { disabled_kinds: ['we_miss_you', 'new_enrollment'] });
    await userEvent.click(weMissYou);
    await waitFor(() => expect(api.saveSchoolEmailSettings).toHaveBeenCalledTimes(3));
    expect(api.saveSchoolEmailSettings).toHaveBeenLastCalledWith(expect.anything(), 's1', { disabled_kinds: ['new_enrollment'] });
    // No "Salvar" stands between a switch and the server.
    expect(within(card()).getAllByRole('button', { name: 'Salvar' })).toHaveLength(1);

    view.unmount();
    open();
    expect(await screen.findByRole('switch', { name: 'Nova matrícula' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Sentimos sua falta' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Conteúdo liberado' })).toBeChecked();
  });

  it('a refused save flips the switch back, says Não foi salvo, and the toast gives the reason in pt-BR', async () => {
    api.saveSchoolEmailSettings.mockRejectedValueOnce({ code: '42501', message: 'new row violates row-level security policy' });
    open();
    const certificate = await screen.findByRole('switch', { name: 'Certificado disponível' });
    await userEvent.click(certificate);
    await waitFor(() => expect(statusOf('Certificado disponível')).toHaveTextContent('Não foi salvo'));
    expect(certificate).toBeChecked();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Erro ao salvar', { description: 'Você não tem permissão para esta ação.' }));
    expect(kept.disabled_kinds).toEqual([]);
  });

  it('the sender waits for Salvar, warns before a reload while unsaved, saves twice and a reload shows the last', async () => {
    const view = open();
    const sender = await screen.findByLabelText('Nome do remetente');
    // send-emails signs with the school's name when none is given.
    expect(sender).toHaveAccessibleDescription('Padrão: o nome da escola.');
    const reload = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));
    await userEvent.type(sender, 'Equipe Demo');
    expect(reload()).toBe(true);
    expect(api.saveSchoolEmailSettings).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Responder para'), 'nao-e-email');
    await userEvent.click(within(card()).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe um e-mail válido')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Responder para'));
    await userEvent.type(screen.getByLabelText('Responder para'), 'ola@escola.com.br');
    await userEvent.click(within(card()).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Remetente atualizado!'));
    expect(api.saveSchoolEmailSettings).toHaveBeenLastCalledWith(expect.anything(), 's1', { sender_name: 'Equipe Demo', reply_to: 'ola@escola.com.br' });
    await waitFor(() => expect(reload()).toBe(false));

    // A switch between the two saves changes neither field.
    await userEvent.click(screen.getByRole('switch', { name: 'Conteúdo liberado' }));
    await waitFor(() => expect(statusOf('Conteúdo liberado')).toHaveTextContent('Salvo'));
    await userEvent.clear(sender);
    await userEvent.type(sender, 'Escola Demo');
    await userEvent.click(within(card()).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledTimes(2));
    expect(kept).toEqual({ disabled_kinds: ['content_released'], sender_name: 'Escola Demo', reply_to: 'ola@escola.com.br' });

    view.unmount();
    open();
    expect(await screen.findByLabelText('Nome do remetente')).toHaveValue('Escola Demo');
    expect(screen.getByLabelText('Responder para')).toHaveValue('ola@escola.com.br');
    expect(screen.getByRole('switch', { name: 'Conteúdo liberado' })).not.toBeChecked();
  });
});
