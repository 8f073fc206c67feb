// The account's notifications (issue 26, docs/discussions.md "notifications"): they are read with the
// announcements in the bell's one request (src/concepts/bell.ts); here the writes and what each one says.
import type { DbClient } from '@/platform/db';
import type { BellNotification } from '@/concepts/bell';
import { commentLink } from '@/concepts/comment-anchor';

export type Notification = BellNotification;

/** Marks one of the account's own notifications read (RLS: only `read_at`, only one's own). */
export async function markNotificationRead(client: DbClient, id: string): Promise<void> {
  const { error } = await client.from('notifications').update({ read_at: new Date().toISOString() }).eq('id', id).is('read_at', null);
  if (error) throw error;
}

/** "Marcar todas como lidas": the number marked. */
export async function markAllNotificationsRead(client: DbClient): Promise<number> {
  const { data, error } = await client.rpc('mark_all_notifications_read');
  if (error) throw error;
  return data ?? 0;
}

/** The pt-BR sentence of a notification, with the lesson's title last. */
export function notificationText(n: Pick<Notification, 'kind' | 'actor_name' | 'lesson_title'>): string {
  const actor = n.actor_name?.trim() || 'Alguém';
  switch (n.kind) {
    case 'comment_reply':
      return `${actor} respondeu ao seu comentário em ${n.lesson_title}`;
    case 'staff_answer':
      return `A equipe respondeu à sua pergunta em ${n.lesson_title}`;
    case 'comment_approved':
      return `Seu comentário foi aprovado em ${n.lesson_title}`;
    case 'comment_pending':
      return `Novo comentário aguardando aprovação em ${n.lesson_title}`;
  }
}

/** Where a notification opens: the lesson, at the comment; a comment awaiting approval (staff's), the
 * Comentários screen's queue of pending comments of that course, where it is approved or hidden. */
export function notificationHref(n: Pick<Notification, 'kind' | 'course_id' | 'lesson_id' | 'comment_id'>): string {
  if (n.kind === 'comment_pending') return `/admin/comments?filtro=pendentes&curso=${encodeURIComponent(n.course_id)}`;
  return commentLink(n.course_id, n.lesson_id, n.comment_id);
}

/** The bell's accessible name: "Notificações, 2 não lidas" / "Notificações, 1 não lida" / "Notificações". */
export function bellLabel(unread: number): string {
  if (unread <= 0) return 'Notificações';
  return `Notificações, ${unread} ${unread === 1 ? 'não lida' : 'não lidas'}`;
}
