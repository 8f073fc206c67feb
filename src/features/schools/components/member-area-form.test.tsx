import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolRow } from '@/lib/session';
import { renderScreen } from '@/test/render';
import { LoginSettings } from './login-settings';
import { MemberAreaForm } from './member-area-form';

const updateSchool = vi.hoisted(() => vi.fn());
vi.mock('@/lib/supabase', () => ({ supabase: {} }));
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
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('member area and login settings', () => {
  beforeEach(() => updateSchool.mockReset().mockImplementation(async (_client, _id, patch: object) => ({ ...school, ...patch })));

  it('refuses an empty name, then saves the appearance with the slug made final and an empty description as null', async () => {
    renderScreen(<MemberAreaForm school={school} />);
    const name = screen.getByLabelText(/^Nome/);
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    expect(await screen.findByText('Nome é obrigatório')).toBeInTheDocument();
    expect(updateSchool).not.toHaveBeenCalled();

    await userEvent.type(name, 'Escola Nova');
    await userEvent.clear(screen.getByLabelText(/^Slug/));
    await userEvent.type(screen.getByLabelText(/^Slug/), 'Escola Nova-');
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

  it('login settings: the access URL, and a WhatsApp number checked before it is saved', async () => {
    renderScreen(<LoginSettings school={school} />);
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
});
