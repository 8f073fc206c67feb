import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { rootKeys } from '@/platform/query-keys';
import { toast } from '@/platform/toast';
import { currentLocation, renderScreen } from '@/test/render';
import type { SharingAccount, SharingSession } from '../api/queries';
import { SharedLoginsPage } from './shared-logins-page';

// The network, at the supabase client's edge: the RPCs and the two tables the screen touches answer from
// `server`; the queries, hooks, query client and screen above it are real.
const server = vi.hoisted(() => ({
  accounts: [] as SharingAccount[],
  settings: null as Record<string, unknown> | null,
  rpcs: [] as { fn: string; args: Record<string, unknown> }[],
  profileUpdates: [] as { row: Record<string, unknown>; id: string }[],
  failReport: false,
}));
vi.mock('@/platform/supabase', () => ({
  supabase: {
    rpc: async (fn: string, args: Record<string, unknown>) => {
      server.rpcs.push({ fn, args });
      if (fn === 'suspicious_sharing') {
        if (server.failReport) return { data: null, error: { message: 'canceling statement due to statement timeout', code: '57014' } };
        const { p_limit: limit, p_offset: offset } = args as { p_limit: number; p_offset: number };
        const total = server.accounts.length;
        return { data: server.accounts.slice(offset, offset + limit).map((a) => ({ ...a, total_count: total })), error: null };
      }
      if (fn === 'end_account_sessions') {
        const account = server.accounts.find((a) => a.user_id === args.p_user_id)!;
        const sessions = account.sessions;
        const live = sessions.filter((s) => !s.ended_at);
        account.sessions = sessions.map((s) => (s.ended_at ? s : { ...s, ended_at: '2026-11-28T12:00:00Z', end_reason: 'signed_out' }));
        return { data: live.length, error: null };
      }
      throw new Error(`unexpected rpc ${fn}`);
    },
    from: (table: string) => {
      if (table === 'school_video_settings') return { select: () => ({ eq: () => ({ maybeSingle: async () => ({ data: server.settings, error: null }) }) }) };
      if (table === 'profiles')
        return {
          update: (row: Record<string, unknown>) => ({
            eq: (_col: string, id: string) => ({
              select: async () => {
                server.profileUpdates.push({ row, id });
                Object.assign(server.accounts.find((a) => a.user_id === id)!, row);
                return { data: [{ id }], error: null };
              },
            }),
          }),
        };
      throw new Error(`unexpected table ${table}`);
    },
  },
}));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));

const session = (id: string, device: string, extra: Partial<SharingSession> = {}): SharingSession => ({
  id,
  device,
  browser: 'Chrome · Windows',
  network: '189.10.20.0/24',
  lesson_id: 'l1',
  lesson_title: 'Fórmulas básicas',
  started_at: '2026-11-27T13:00:00Z',
  last_heartbeat_at: '2026-11-27T13:10:00Z',
  ended_at: '2026-11-27T13:10:00Z',
  end_reason: 'ended',
  ...extra,
});
const account = (i: number, extra: Partial<SharingAccount> = {}): SharingAccount => ({
  user_id: `u${i}`,
  name: `Aluno ${i}`,
  email: `aluno${i}@escola.com.br`,
  is_active: true,
  devices: 5,
  networks: 2,
  session_count: 2,
  last_seen_at: '2026-11-27T13:10:00Z',
  sessions: [session(`s${i}-a`, '3f2a9c1b'), session(`s${i}-b`, '77aa0e12')],
  ...extra,
});
const open = (route = '/admin/compartilhamento') => renderScreen(<SharedLoginsPage schoolId="s1" />, { route });
const card = (name: string) => screen.getByRole('heading', { name }).closest('li')!;

describe('Compartilhamento suspeito', () => {
  beforeEach(() => {
    server.accounts = [];
    server.settings = null;
    server.rpcs = [];
    server.profileUpdates = [];
    server.failReport = false;
    vi.mocked(toast.success).mockReset();
  });

  it("lists the school's accounts with devices, networks, last seen and state; says the limits it applies", async () => {
    server.accounts = [account(1), account(2, { is_active: false, devices: 1, networks: 6 })];
    open();
    expect(await screen.findByRole('heading', { name: 'Aluno 1' })).toBeInTheDocument();
    expect(server.rpcs[0]).toEqual({ fn: 'suspicious_sharing', args: { p_school_id: 's1', p_limit: 24, p_offset: 0 } });
    const first = within(card('Aluno 1'));
    expect(first.getByText('aluno1@escola.com.br')).toBeInTheDocument();
    expect(first.getByText('Dispositivos').nextSibling).toHaveTextContent('5');
    expect(first.getByText('Redes').nextSibling).toHaveTextContent('2');
    expect(first.getByText('Visto por último').nextSibling).toHaveTextContent('27/11/2026, 10:10');
    expect(first.getByText('Conta ativa')).toBeInTheDocument();
    expect(within(card('Aluno 2')).getByText('Conta desativada')).toBeInTheDocument();
    expect(within(card('Aluno 2')).getByRole('button', { name: 'Reativar conta de Aluno 2' })).toBeInTheDocument();
    expect(screen.getByText('2 contas')).toBeInTheDocument();
    expect(await screen.findByText(/Aparecem aqui as contas vistas em mais de 4 dispositivos ou em mais de 5 redes nos últimos 7 dias/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Configurações → Vídeos das aulas' })).toHaveAttribute('href', '/admin/settings');
  });

  it('opens an account to its sessions: device, browser, network, lesson, times and why it ended, in pt-BR', async () => {
    server.accounts = [
      account(1, {
        session_count: 60,
        sessions: [
          session('a', '3f2a9c1b', { ended_at: null, end_reason: null, last_heartbeat_at: '2026-11-28T11:59:30Z' }),
          session('b', '77aa0e12', { end_reason: 'taken_over', network: '200.50.60.0/24' }),
          session('c', '3f2a9c1b', { end_reason: 'timed_out', lesson_title: null }),
        ],
      }),
    ];
    open();
    const toggle = await screen.findByRole('button', { name: 'Ver sessões de Aluno 1' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: 'Sessões de Aluno 1' })).toBeNull();
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Ocultar sessões de Aluno 1' })).toHaveAttribute('aria-expanded', 'true');
    const items = within(screen.getByRole('list', { name: 'Sessões de Aluno 1' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Dispositivo 1 (3f2a9c1b)');
    expect(items[0]).toHaveTextContent('Chrome · Windows');
    expect(items[0]).toHaveTextContent('189.10.20.0/24');
    expect(items[0]).toHaveTextContent('Fórmulas básicas');
    expect(items[0]).toHaveTextContent('Último sinal28/11/2026, 08:59');
    expect(within(items[0]!).getByText('Assistindo agora')).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Dispositivo 2 (77aa0e12)');
    expect(items[1]).toHaveTextContent('200.50.60.0/24');
    expect(items[1]).toHaveTextContent('Fim27/11/2026, 10:10 · outro dispositivo usou "Assistir aqui"');
    expect(items[2]).toHaveTextContent('Dispositivo 1 (3f2a9c1b)');
    expect(items[2]).toHaveTextContent('Aula excluída');
    expect(items[2]).toHaveTextContent('sem sinal por 90 segundos');
    expect(screen.getByText('Mostrando as 3 sessões mais recentes de 60.')).toBeInTheDocument();
    expect(within(card('Aluno 1')).getByText('1 vídeo aberto agora')).toBeInTheDocument();
  });

  it('"Encerrar sessões" asks first, then ends them, says how many, and shows them ended', async () => {
    server.accounts = [account(1, { sessions: [session('a', 'd1', { ended_at: null, end_reason: null }), session('b', 'd2', { ended_at: null, end_reason: null }), session('c', 'd3')] })];
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Encerrar sessões de Aluno 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Encerrar sessões?' });
    expect(confirm).toHaveTextContent('Aluno 1');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(server.rpcs.filter((r) => r.fn === 'end_account_sessions')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Encerrar sessões de Aluno 1' }));
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Encerrar sessões?' })).getByRole('button', { name: 'Encerrar sessões' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('2 sessões de vídeo encerradas. A conta sai de todos os dispositivos em até 1 hora.'));
    expect(server.rpcs).toContainEqual({ fn: 'end_account_sessions', args: { p_user_id: 'u1' } });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Ver sessões de Aluno 1' }));
    const items = within(screen.getByRole('list', { name: 'Sessões de Aluno 1' })).getAllByRole('listitem');
    await waitFor(() => expect(items[0]).toHaveTextContent('encerrada pela equipe'));
    expect(screen.queryByText('Assistindo agora')).toBeNull();
  });

  it('"Desativar conta" asks first, then deactivates through the Students screen\'s operation, whose list goes stale', async () => {
    server.accounts = [account(1)];
    const { queryClient } = open();
    // The Students screen's page, already in the cache.
    queryClient.setQueryData([...rootKeys.students, 's1', '', 0], { rows: [], total: 0 });
    await userEvent.click(await screen.findByRole('button', { name: 'Desativar conta de Aluno 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Desativar conta?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Desativar conta' }));
    await waitFor(() => expect(server.profileUpdates).toEqual([{ row: { is_active: false }, id: 'u1' }]));
    expect(toast.success).toHaveBeenCalledWith('Conta desativada! O acesso foi bloqueado.');
    expect(await within(card('Aluno 1')).findByText('Conta desativada')).toBeInTheDocument();
    expect(queryClient.getQueryState([...rootKeys.students, 's1', '', 0])?.isInvalidated).toBe(true);
  });

  it('pages 24 at a time with the page in the URL', async () => {
    server.accounts = Array.from({ length: 30 }, (_, i) => account(i + 1));
    const view = open();
    expect(await screen.findByRole('heading', { name: 'Aluno 24' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Aluno 25' })).toBeNull();
    expect(screen.getByText('30 contas')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    expect(await screen.findByRole('heading', { name: 'Aluno 25' })).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/compartilhamento?pagina=2');
    expect(server.rpcs.at(-1)).toEqual({ fn: 'suspicious_sharing', args: { p_school_id: 's1', p_limit: 24, p_offset: 24 } });
  });

  it("empty: explains what the report looks for with the school's limits", async () => {
    server.settings = { max_screens: 2, sharing_max_devices: 6, sharing_max_networks: 8 };
    open();
    expect(await screen.findByText('Nenhuma conta com sinais de compartilhamento')).toBeInTheDocument();
    expect(await screen.findByText(/nenhuma conta assistiu aos vídeos protegidos das aulas em mais de 6 dispositivos .* ou em mais de 8 redes de internet diferentes/)).toBeInTheDocument();
  });

  it('a failed load shows the retry card', async () => {
    server.failReport = true;
    open();
    expect(await screen.findByText('Não foi possível carregar o relatório')).toBeInTheDocument();
    server.failReport = false;
    server.accounts = [account(1)];
    await userEvent.click(screen.getByRole('button', { name: /Tentar novamente/ }));
    expect(await screen.findByRole('heading', { name: 'Aluno 1' })).toBeInTheDocument();
  });
});
