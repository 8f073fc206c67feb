// The member header's bell as a student meets it (issue 26), the network mocked at the bell's request
// (src/concepts/bell.ts) and the notifications' writes (features/notifications/api/queries.ts).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { testAnnouncement } from '@/test/fixtures';
import { signedIn } from '@/test/session';
import { HeaderBell } from './header-bell';

const bell = vi.hoisted(() => ({ fetchBell: vi.fn() }));
const writes = vi.hoisted(() => ({ markNotificationRead: vi.fn(), markAllNotificationsRead: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/concepts/bell', async (importOriginal) => ({ ...(await importOriginal<object>()), ...bell }));
vi.mock('@/features/notifications/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...writes }));

const notification = (id: string, over: object = {}) => ({
  id,
  kind: 'comment_reply',
  comment_id: `c-${id}`,
  lesson_id: 'l1',
  course_id: 'k1',
  lesson_title: 'Fórmulas básicas',
  actor_name: 'Bia Souza',
  excerpt: 'Use o PROCV com FALSO no fim.',
  created_at: '2026-11-26T12:00:00Z',
  read_at: null,
  ...over,
});

// The popover's content is a lazy chunk: the first open loads it (slow on a busy machine).
describe('HeaderBell', { timeout: 20_000 }, () => {
  beforeEach(() => {
    [...Object.values(bell), ...Object.values(writes)].forEach((f) => f.mockReset());
    writes.markNotificationRead.mockResolvedValue(undefined);
  });

  it('lists the notifications with the unread count, then the announcements; "Marcar todas como lidas" clears the count', async () => {
    const feed = {
      announcements: [testAnnouncement],
      notifications: [
        notification('n1', { kind: 'staff_answer', actor_name: 'Prof. Carlos' }),
        notification('n2'),
        notification('n3', { kind: 'comment_approved', actor_name: null, read_at: '2026-11-25T12:00:00Z' }),
      ],
      unread: 2,
    };
    bell.fetchBell.mockResolvedValue(feed);
    const user = userEvent.setup();
    renderScreen(<HeaderBell />, { session: signedIn() });

    const button = await screen.findByRole('button', { name: 'Notificações, 2 não lidas' });
    expect(bell.fetchBell).toHaveBeenCalledWith(expect.anything(), 's1');
    await user.click(button);
    const panel = await screen.findByRole('dialog', { name: 'Notificações' });
    const items = await within(panel).findAllByTestId('notification-item');
    expect(items.map((i) => i.querySelector('.text-sm')?.textContent)).toEqual([
      'A equipe respondeu à sua pergunta em Fórmulas básicas',
      'Bia Souza respondeu ao seu comentário em Fórmulas básicas',
      'Seu comentário foi aprovado em Fórmulas básicas',
    ]);
    expect(items[0]).toHaveTextContent('não lida');
    expect(items[2]).not.toHaveTextContent('não lida');
    expect(within(within(panel).getByRole('region', { name: 'Comunicados' })).getByRole('button', { name: /Aula ao vivo sexta/ })).toBeInTheDocument();

    writes.markAllNotificationsRead.mockResolvedValue(2);
    bell.fetchBell.mockResolvedValue({ ...feed, unread: 0, notifications: feed.notifications.map((n) => ({ ...n, read_at: n.read_at ?? '2026-11-26T13:00:00Z' })) });
    await user.click(within(panel).getByRole('button', { name: 'Marcar todas como lidas' }));
    expect(writes.markAllNotificationsRead).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('button', { name: 'Notificações' })).toBeInTheDocument();
    expect(screen.queryByTestId('bell-count')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Marcar todas como lidas' })).not.toBeInTheDocument();
    // The button is gone: the keyboard's focus moved on to the first notification, inside the bell (issue 46).
    expect(within(panel).getAllByTestId('notification-item')[0]).toHaveFocus();
    await user.keyboard('{Tab}');
    expect(within(panel).getAllByTestId('notification-item')[1]).toHaveFocus();
    for (const item of within(panel).getAllByTestId('notification-item')) expect(item).not.toHaveTextContent('não lida');
  });

  it('an announcement previews its body as text, a block a line: the heading does not run into the text (issue 46)', async () => {
    bell.fetchBell.mockResolvedValue({
      announcements: [{ ...testAnnouncement, title: 'Novidades na plataforma', body: '<h2>Novidades</h2><p>Agora você pode baixar o <strong>certificado</strong>.</p>' }],
      notifications: [],
      unread: 0,
    });
    const user = userEvent.setup();
    renderScreen(<HeaderBell />, { session: signedIn() });
    await waitFor(() => expect(bell.fetchBell).toHaveBeenCalled());
    await user.click(screen.getByRole('button', { name: 'Notificações' }));
    const panel = await screen.findByRole('dialog', { name: 'Notificações' });
    const item = await within(panel).findByRole('button', { name: /Novidades na plataforma/ });
    expect(within(item).getByText(/Agora você/).textContent).toBe('Novidades\nAgora você pode baixar o certificado.');
    expect(item).not.toHaveTextContent('NovidadesAgora');
  });

  it('an item links to the lesson at the comment (a pending one, for staff, to the approval queue), marks itself read and closes the bell', async () => {
    bell.fetchBell.mockResolvedValue({ announcements: [], notifications: [notification('n1'), notification('n2', { kind: 'comment_pending', actor_name: 'Ana' })], unread: 2 });
    const user = userEvent.setup();
    renderScreen(<HeaderBell />, { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Notificações, 2 não lidas' }));
    const panel = await screen.findByRole('dialog', { name: 'Notificações' });
    expect(await within(panel).findByRole('link', { name: /Bia Souza respondeu ao seu comentário em Fórmulas básicas/ })).toHaveAttribute('href', '/course/k1/lesson/l1#comentario-c-n1');
    const link = within(panel).getByRole('link', { name: /Novo comentário aguardando aprovação em Fórmulas básicas/ });
    expect(link).toHaveAttribute('href', '/admin/comments?filtro=pendentes&curso=k1');
    expect(within(panel).getByText('Nenhum comunicado no momento.')).toBeInTheDocument();

    // The refresh after the write answers with n2 read.
    bell.fetchBell.mockResolvedValue({ announcements: [], notifications: [notification('n1'), notification('n2', { kind: 'comment_pending', actor_name: 'Ana', read_at: '2026-11-26T13:00:00Z' })], unread: 1 });
    await user.click(link);
    await waitFor(() => expect(writes.markNotificationRead).toHaveBeenCalledWith(expect.anything(), 'n2'));
    expect(currentLocation(screen)).toBe('/admin/comments?filtro=pendentes&curso=k1');
    expect(screen.queryByRole('dialog', { name: 'Notificações' })).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Notificações, 1 não lida' })).toBeInTheDocument();
  });

  it('nothing unread: the bell is named without a count and offers no "Marcar todas"', async () => {
    bell.fetchBell.mockResolvedValue({ announcements: [], notifications: [], unread: 0 });
    const user = userEvent.setup();
    renderScreen(<HeaderBell />, { session: signedIn() });
    await waitFor(() => expect(bell.fetchBell).toHaveBeenCalled());
    await user.click(screen.getByRole('button', { name: 'Notificações' }));
    const panel = await screen.findByRole('dialog', { name: 'Notificações' });
    expect(await within(panel).findByText('Nenhuma notificação no momento.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Marcar todas como lidas' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('bell-count')).not.toBeInTheDocument();
  });
});
