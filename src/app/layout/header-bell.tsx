// The member header's bell (issue 26): the account's unread notifications on the button; open, the
// notifications and the school's announcements. The popover's code is a chunk of its own
// (./bell-popover.tsx, issue 21), loaded once the page has settled or when the pointer or focus
// reaches the button; until then the same-looking button opens it as soon as that code arrives.
import { Bell } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useNotifications } from '@/features/notifications/api/hooks';
import { bellLabel } from '@/features/notifications/api/queries';
import { useSession } from '@/platform/session';
import { useDeferredTrigger } from '@/platform/deferred-module';

const loadPopover = () => import('./bell-popover');
const TRIGGER_CLASS = 'relative text-muted-foreground';

export function HeaderBell() {
  const { school, profile } = useSession();
  const schoolId = school?.id ?? profile?.school_id;
  const { data } = useNotifications(schoolId);
  const popover = useDeferredTrigger(loadPopover);
  const unread = data?.unread ?? 0;
  const trigger = (
    <>
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
    </>
  );
  if (popover.module) {
    return <popover.module.BellPopover schoolId={schoolId} trigger={trigger} triggerClassName={TRIGGER_CLASS} {...popover.initial} />;
  }
  return (
    <Button variant="ghost" size="icon" className={TRIGGER_CLASS} aria-haspopup="dialog" {...popover.placeholderProps}>
      {trigger}
    </Button>
  );
}
