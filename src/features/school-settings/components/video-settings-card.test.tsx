import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import type { SchoolRow } from '@/platform/session';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import { VideoSettingsCard } from './video-settings-card';

// The network, at the supabase client's edge: what the mocked server keeps (`schools` and
// `school_video_settings` rows) and the requests it got. Everything above it (queries, hooks, the query
// client, the form) is real.
const server = vi.hoisted(() => ({
  school: {} as Record<string, unknown>,
  videoSettings: null as Record<string, unknown> | null,
  upserts: [] as { row: Record<string, unknown>; onConflict?: string }[],
  refuse: null as { message: string; code: string } | null,
}));
vi.mock('@/platform/supabase', () => {
  const answer = (data: unknown) => Promise.resolve(server.refuse ? { data: null, error: server.refuse } : { data, error: null });
  return {
    supabase: {
      from: (table: string) =>
        table === 'schools'
          ? {
              update: (patch: Record<string, unknown>) => ({
                eq: () => ({ select: () => ({ single: () => answer((server.school = { ...server.school, ...patch })) }) }),
              }),
            }
          : {
              select: () => ({ eq: () => ({ maybeSingle: () => Promise.resolve({ data: server.videoSettings, error: null }) }) }),
              upsert: (row: Record<string, unknown>, options: { onConflict?: string }) => ({
                select: () => ({
                  single: () => {
                    if (server.refuse) return answer(null);
                    server.upserts.push({ row, onConflict: options.onConflict });
                    const { school_id: _school, ...kept } = row;
                    return answer((server.videoSettings = { ...server.videoSettings, ...kept }));
                  },
                }),
              }),
            },
    },
  };
});
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));

const WATERMARK = "Marca d'água com o nome do aluno nos vídeos";
const open = () => renderScreen(<UnsavedChangesScope><VideoSettingsCard school={server.school as SchoolRow} /></UnsavedChangesScope>, { route: '/admin/settings' });
const reloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));
const field = (name: string) => screen.getByRole('spinbutton', { name });

describe('Configurações › Vídeos das aulas', () => {
  beforeEach(() => {
    server.school = { id: 's1', name: 'Escola Demo', video_watermark: true };
    server.videoSettings = null;
    server.upserts = [];
    server.refuse = null;
    vi.mocked(toast.success).mockReset();
  });

  it('the watermark is on by default; a flip saves at once and says Salvo, again on the way back; a re-mount shows what was kept', async () => {
    const view = open();
    const toggle = screen.getByRole('switch', { name: WATERMARK });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    expect(await screen.findByText('Salvo')).toBeInTheDocument();
    expect(server.school.video_watermark).toBe(false);
    expect(toast.success).not.toHaveBeenCalled();

    await userEvent.click(toggle);
    await waitFor(() => expect(server.school.video_watermark).toBe(true));
    await userEvent.click(toggle);
    await waitFor(() => expect(server.school.video_watermark).toBe(false));
    view.unmount();
    open();
    expect(screen.getByRole('switch', { name: WATERMARK })).not.toBeChecked();
  });

  it('a refused watermark save flips back and says Não foi salvo', async () => {
    server.refuse = { message: 'permission denied for table schools', code: '42501' };
    open();
    const toggle = screen.getByRole('switch', { name: WATERMARK });
    await userEvent.click(toggle);
    expect(await screen.findByText('Não foi salvo')).toBeInTheDocument();
    expect(toggle).toBeChecked();
  });

  it('without a saved row the limits show the defaults (2, 4, 5), each a labelled field with its help', async () => {
    open();
    expect(await screen.findByRole('spinbutton', { name: 'Telas simultâneas' })).toHaveValue(2);
    expect(field('Dispositivos em 7 dias')).toHaveValue(4);
    expect(field('Redes em 7 dias')).toHaveValue(5);
    expect(field('Telas simultâneas')).toHaveAccessibleDescription(/De 1 a 10\. Padrão: 2\./);
    expect(field('Dispositivos em 7 dias')).toHaveAccessibleDescription(/De 2 a 50\. Padrão: 4\./);
    expect(within(screen.getByRole('group', { name: 'Compartilhamento suspeito' })).getAllByRole('spinbutton')).toHaveLength(2);
  });

  it('refuses numbers out of bounds in pt-BR and saves nothing', async () => {
    open();
    await userEvent.clear(await screen.findByRole('spinbutton', { name: 'Telas simultâneas' }));
    await userEvent.type(field('Telas simultâneas'), '11');
    await userEvent.clear(field('Dispositivos em 7 dias'));
    await userEvent.type(field('Dispositivos em 7 dias'), '1');
    await userEvent.clear(field('Redes em 7 dias'));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Use um número inteiro de 1 a 10')).toBeInTheDocument();
    expect(field('Telas simultâneas')).toHaveAccessibleDescription(/Use um número inteiro de 1 a 10/);
    expect(screen.getByText('Use um número inteiro de 2 a 50')).toBeInTheDocument();
    expect(screen.getByText('Informe um número')).toBeInTheDocument();
    expect(server.upserts).toEqual([]);
  });

  it('saves with an upsert on school_id, asks before leaving unsaved, saves again; a re-mount shows the last', async () => {
    const view = open();
    await userEvent.clear(await screen.findByRole('spinbutton', { name: 'Telas simultâneas' }));
    await userEvent.type(field('Telas simultâneas'), '3');
    expect(reloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(server.upserts).toEqual([{ row: { school_id: 's1', max_screens: 3, sharing_max_devices: 4, sharing_max_networks: 5 }, onConflict: 'school_id' }]));
    expect(toast.success).toHaveBeenCalledWith('Configurações dos vídeos salvas!');
    await waitFor(() => expect(reloadAsks()).toBe(false));

    await userEvent.clear(field('Dispositivos em 7 dias'));
    await userEvent.type(field('Dispositivos em 7 dias'), '10');
    await userEvent.clear(field('Redes em 7 dias'));
    await userEvent.type(field('Redes em 7 dias'), '50');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(server.videoSettings).toEqual({ max_screens: 3, sharing_max_devices: 10, sharing_max_networks: 50 }));
    await waitFor(() => expect(reloadAsks()).toBe(false));
    view.unmount();
    open();
    expect(await screen.findByRole('spinbutton', { name: 'Telas simultâneas' })).toHaveValue(3);
    expect(field('Dispositivos em 7 dias')).toHaveValue(10);
    expect(field('Redes em 7 dias')).toHaveValue(50);
  });

  it('a refused save keeps what was typed, unsaved', async () => {
    open();
    await userEvent.clear(await screen.findByRole('spinbutton', { name: 'Telas simultâneas' }));
    await userEvent.type(field('Telas simultâneas'), '4');
    server.refuse = { message: 'new row violates row-level security policy for table "school_video_settings"', code: '42501' };
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(field('Telas simultâneas')).toHaveValue(4);
    expect(reloadAsks()).toBe(true);
  });
});
