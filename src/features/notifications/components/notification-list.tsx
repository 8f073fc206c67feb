import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { CheckCircle2, Clock, MessageCircle, ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/utils/format';
import { cn } from '@/utils/cn';
import { useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications } from '../api/hooks';
import { notificationHref, notificationText, type Notification } from '../api/queries';

const ICONS: Record<Notification['kind'], typeof MessageCircle> = {
  comment_reply: MessageCircle,
  staff_answer: ShieldCheck,
  comment_approved: CheckCircle2,
  comment_pending: Clock,
};

/**
 * The bell's "Notificações": the account's latest notifications, unread ones marked; choosing one marks
 * it read and opens the lesson at the comment. `onNavigate` closes the bell. "Marcar todas como lidas"
 * goes away once nothing is unread: the keyboard's focus moves on to the first notification, the
 * button's successor, instead of falling to the page's body.
 */
export function NotificationList({ schoolId, onNavigate }: { schoolId: string | null | undefined; onNavigate?: () => void }) {
  const { data, isPending, isError } = useNotifications(schoolId);
  const markOne = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = data?.unread ?? 0;
  const list = useRef<HTMLUListElement>(null);
  const markAllRead = () => {
    // Not `disabled` while it saves: a disabled button loses the focus too.
    if (markAll.isPending) return;
    markAll.mutate(undefined, { onSuccess: () => list.current?.querySelector<HTMLElement>('a')?.focus() });
  };
  return (
    <section aria-labelledby="bell-notifications-title">
      <div className="flex min-h-12 items-center justify-between gap-2 border-b border-border px-4 py-2">
        <h2 id="bell-notifications-title" className="text-sm font-semibold">
          Notificações
        </h2>
        {unread > 0 && (
          <Button variant="ghost" size="sm" className="h-8 px-2 text-xs text-primary" aria-disabled={markAll.isPending || undefined} onClick={markAllRead}>
            Marcar todas como lidas
          </Button>
        )}
      </div>
      <div className="p-1">
        {isPending && schoolId ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Carregando...</p>
        ) : isError ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Não foi possível carregar as notificações.</p>
        ) : !data || data.notifications.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Nenhuma notificação no momento.</p>
        ) : (
          <ul ref={list} className="grid grid-cols-1 gap-0.5">
            {data.notifications.map((n) => {
              const Icon = ICONS[n.kind];
              const isUnread = !n.read_at;
              return (
                <li key={n.id}>
                  <Link
                    to={notificationHref(n)}
                    data-testid="notification-item"
                    onClick={() => {
                      if (isUnread) markOne.mutate(n.id);
                      onNavigate?.();
                    }}
                    className={cn(
                      'flex w-full gap-3 rounded-lg px-3 py-2.5 text-left transition-colors hover:bg-muted focus-visible:bg-muted',
                      isUnread && 'bg-primary/5',
                    )}
                  >
                    <span aria-hidden="true" className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                      <Icon className="size-4" />
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className={cn('block text-sm break-words', isUnread ? 'font-semibold' : 'font-medium')}>{notificationText(n)}</span>
                      {n.excerpt && <span className="line-clamp-2 text-xs break-words text-muted-foreground">{n.excerpt}</span>}
                      <span className="mt-0.5 block text-[11px] text-muted-foreground">
                        {formatDateTime(n.created_at)}
                        {isUnread && <span className="sr-only"> · não lida</span>}
                      </span>
                    </span>
                    {isUnread && <span aria-hidden="true" className="mt-2 size-2 shrink-0 rounded-full bg-primary" />}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
