// The bell's notification writes. The list itself is the bell's request (src/concepts/use-bell.ts, key
// bellKeys.feed(schoolId, userId) under rootKeys.announcements): a write updates that entry at once
// and then refreshes it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bellKeys, type BellFeed } from '@/concepts/bell';
import { useBell } from '@/concepts/use-bell';
import { supabase } from '@/platform/supabase';
import { markAllNotificationsRead, markNotificationRead } from './queries';

const notificationsOf = (feed: BellFeed) => ({ notifications: feed.notifications, unread: feed.unread });

/** The account's latest notifications at the school and the exact unread count. */
export function useNotifications(schoolId: string | null | undefined) {
  return useBell(schoolId, notificationsOf);
}

function useMarkInFeed() {
  const queryClient = useQueryClient();
  return (mark: (feed: BellFeed, now: string) => BellFeed) => {
    const now = new Date().toISOString();
    queryClient.setQueriesData<BellFeed>({ queryKey: bellKeys.feeds }, (feed) => (feed ? mark(feed, now) : feed));
  };
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  const markInFeed = useMarkInFeed();
  return useMutation({
    mutationFn: (id: string) => markNotificationRead(supabase, id),
    onMutate: (id) =>
      markInFeed((feed, now) => {
        const target = feed.notifications.find((n) => n.id === id);
        if (!target || target.read_at) return feed;
        return { ...feed, unread: Math.max(0, feed.unread - 1), notifications: feed.notifications.map((n) => (n.id === id ? { ...n, read_at: now } : n)) };
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bellKeys.feeds }),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  const markInFeed = useMarkInFeed();
  return useMutation({
    mutationFn: () => markAllNotificationsRead(supabase),
    meta: { errorTitle: 'Erro ao marcar notificações como lidas' },
    onSuccess: () => markInFeed((feed, now) => ({ ...feed, unread: 0, notifications: feed.notifications.map((n) => (n.read_at ? n : { ...n, read_at: now })) })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bellKeys.feeds }),
  });
}
