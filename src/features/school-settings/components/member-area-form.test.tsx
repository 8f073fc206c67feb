// Área de Membros and Tela de Login as the school's admin meets them (issue 46, item 6): typed
// settings wait for their button, leaving with them unsaved asks first, and each form saves, changes
// and saves again; a reload (a new mount with the school the mocked server kept) shows the last save.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import type { SchoolRow } from '@/platform/session';
import { renderScreen } from '@/test/render';
import type { SchoolUpdate } from '../api/queries';
import { LoginSettings } from './login-settings';
import { MemberAreaForm } from './member-area-form';

const updateSchool = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), updateSchool }));

const school: SchoolRow = {
  id: 's1',
  name: 'Escola Demo',
  slug: 'escola-demo',
  description: null,
  primary_color: '#112233',
  secondary_color: '#445566',
  banner_url: null,
  banner_position: '50% 50%',
  login_banner_url: null,
  login_banner_position: '50% 50%',
  logo_url: null,
  member_area_name: 'Área Demo',
  support_whatsapp: null,
  require_staff_mfa: false,
  subscription_grace_days: 5,
  video_watermark: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
/** The school the mocked server keeps. */
let kept: SchoolRow;
const inScope = (ui: React.ReactElement) => renderScreen(<UnsavedChangesScope>{ui}</UnsavedChangesScope>, { route: '/admin/member-area' });
const reloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

describe('member area and login settings', () => {
  beforeEach(() => {
    kept = { ...school };
    updateSchool.mockReset().mockImplementation(async (_client, _id, patch: SchoolUpdate) => (kept = { ...kept, ...patch } as SchoolRow));
  });

  it('refuses an empty name, then saves the appearance with the address made final and an empty description as null', async () => {
    inScope(<MemberAreaForm school={school} />);
    const name = screen.getByLabelText(/^Nome/);
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    expect(await screen.findByText('Nome é obrigatório')).toBeInTheDocument();
    expect(updateSchool).not.toHaveBeenCalled();

    await userEvent.type(name, 'Escola Nova');
    await userEvent.clear(screen.getByLabelText(/^Endereço na web/));
    await userEvent.type(screen.getByLabelText(/^Endereço na web/), 'Escola Nova-');
    expect(screen.getByText(/Atenção: o endereço de login passará a ser \/escola-nova/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() =>
      expect(updateSchool).toHaveBeenCalledWith(expect.anything(), 's1', {
        name: 'Escola Nova',
        description: null,
        slug: 'escola-nova',
        primary_color: '#112233',
        secondary_color: '#445566',
        banner_url: null,
        banner_position: '50% 50%',
      }),
    );
  });

  it('Área de Membros: asks before leaving unsaved, saves, changes and saves again; a reload shows the last save', async () => {
    const view = inScope(<MemberAreaForm school={kept} />);
    expect(reloadAsks()).toBe(false);
    await userEvent.type(screen.getByLabelText('Descrição'), 'Cursos de Excel');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() => expect(kept.description).toBe('Cursos de Excel'));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    // Saved: the address hint is the saved one, with no warning.
    expect(screen.getByText(/Endereço de login: \/escola-demo/)).toBeInTheDocument();

    const primary = screen.getByLabelText('Cor primária');
    await userEvent.clear(primary);
    await userEvent.type(primary, '0a7a3b');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() => expect(kept.primary_color).toBe('#0a7a3b'));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    expect(updateSchool).toHaveBeenCalledTimes(2);
    expect(updateSchool).toHaveBeenLastCalledWith(expect.anything(), 's1', expect.objectContaining({ description: 'Cursos de Excel', primary_color: '#0a7a3b' }));

    view.unmount();
    inScope(<MemberAreaForm school={kept} />);
    expect(screen.getByLabelText('Descrição')).toHaveValue('Cursos de Excel');
    expect(screen.getByLabelText('Cor primária')).toHaveValue('#0a7a3b');
  });

  it('login settings: the access URL, and a WhatsApp number checked before it is saved', async () => {
    inScope(<LoginSettings school={school} />);
    expect(screen.getByRole('textbox', { name: 'URL de acesso' })).toHaveValue(`${window.location.origin}/escola-demo`);
    await userEvent.type(screen.getByLabelText('WhatsApp'), '11 9999');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar WhatsApp' }));
    expect(await screen.findByText(/O WhatsApp deve ter 12 ou 13 dígitos/)).toBeInTheDocument();
    expect(updateSchool).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText('WhatsApp'));
    await userEvent.type(screen.getByLabelText('WhatsApp'), '+55 (11) 99999-9999');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar WhatsApp' }));
    await waitFor(() => expect(updateSchool).toHaveBeenCalledWith(expect.anything(), 's1', { support_whatsapp: '5511999999999' }));
  });

  it('Tela de Login: the WhatsApp and the banner position save, change and save again, asking before leaving unsaved; a reload shows both', async () => {
    kept = { ...school, login_banner_url: 'https://cdn.exemplo.com/banner.webp' };
    const view = inScope(<LoginSettings school={kept} />);
    const whatsapp = screen.getByLabelText('WhatsApp');
    await userEvent.type(whatsapp, '5511999999999');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar WhatsApp' }));
    await waitFor(() => expect(kept.support_whatsapp).toBe('5511999999999'));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    await userEvent.clear(whatsapp);
    await userEvent.type(whatsapp, '551133334444');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar WhatsApp' }));
    await waitFor(() => expect(kept.support_whatsapp).toBe('551133334444'));

    const position = screen.getByRole('region', { name: 'Posição do banner de login' });
    const picker = within(position).getByRole('slider');
    picker.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(within(position).getByRole('button', { name: 'Salvar posição' }));
    await waitFor(() => expect(kept.login_banner_position).toBe('51% 50%'));
    await waitFor(() => expect(within(position).getByRole('button', { name: 'Salvar posição' })).toBeDisabled());
    expect(reloadAsks()).toBe(false);
    picker.focus();
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.click(within(position).getByRole('button', { name: 'Salvar posição' }));
    await waitFor(() => expect(kept.login_banner_position).toBe('51% 51%'));

    view.unmount();
    inScope(<LoginSettings school={kept} />);
    expect(screen.getByLabelText('WhatsApp')).toHaveValue('551133334444');
    expect(screen.getByText('51% 51%')).toBeInTheDocument();
  });
});
