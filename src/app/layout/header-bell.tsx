// The member header's bell (issue 26): the account's unread notifications on the button; open, the
// notifications and the school's announcements. The open content is its own chunk (bell-panel.tsx),
// fetched when the pointer or focus reaches the button, so the header stays light.
import { lazy, Suspense, useState } from 'react';
import { Bell } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { AnnouncementDialog } from '@/features/announcements/components/announcement-dialog';
import type { Announcement } from '@/features/announcements/api/queries';
import { useNotifications } from '@/features/notifications/api/hooks';
import { bellLabel } from '@/features/notifications/api/queries';
import { formatDate } from '@/lib/format';
import { useSession } from '@/lib/session';

const loadPanel = () => import('./bell-panel');
const BellPanel = lazy(loadPanel);

export function HeaderBell() {
  const { school, profile } = useSession();
  const schoolId = school?.id ?? profile?.school_id;
  const { data } = useNotifications(schoolId);
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<Announcement | null>(null);
  const unread = data?.unread ?? 0;
  const preload = () => void loadPanel();
  return (
    <>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button variant="ghost" size="icon" className="relative text-muted-foreground" onPointerEnter={preload} onFocus={preload}>
            <span className="sr-only">{bellLabel(unread)}</span>
            <Bell className="size-5" aria-hidden="true" />
            {/* The count is drawn by CSS, so the button's only text is its name above. */}
            {unread > 0 && (
              <span
                aria-hidden="true"
                data-testid="bell-count"
                data-count={unread > 9 ? '9+' : String(unread)}
                className="absolute top-1.5 right-1.5 flex min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] leading-4 font-semibold text-white after:content-[attr(data-count)]"
              />
            )}
          </Button>
        </PopoverTrigger>
        <PopoverContent aria-label="Notificações">
          <Suspense fallback={<p className="px-3 py-6 text-center text-sm text-muted-foreground">Carregando...</p>}>
            <BellPanel
              schoolId={schoolId}
              onClose={() => setOpen(false)}
              onOpenAnnouncement={(a) => {
                setOpen(false);
                setSelected(a);
              }}
            />
          </Suspense>
        </PopoverContent>
      </Popover>
      {selected && (
        <AnnouncementDialog announcement={selected} open onClose={() => setSelected(null)} description={formatDate(selected.created_at)} />
      )}
    </>
  );
}
