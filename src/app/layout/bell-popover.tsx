// The bell's Radix popover (./header-bell.tsx loads it once the page has settled): open, the
// notifications and the school's announcements (./bell-panel.tsx, a chunk of its own fetched when the
// pointer or focus reaches the button); an announcement opens in its dialog.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { AnnouncementDialog } from '@/features/announcements/components/announcement-dialog';
import type { Announcement } from '@/features/announcements/api/queries';
import { formatDate } from '@/utils/format';
import type { DeferredTriggerStart } from '@/platform/deferred-module';

const loadPanel = () => import('./bell-panel');
const BellPanel = lazy(loadPanel);

export interface BellPopoverProps extends DeferredTriggerStart {
  schoolId: string | null | undefined;
  trigger: ReactNode;
  triggerClassName: string;
}

export function BellPopover({ schoolId, trigger, triggerClassName, defaultOpen, autoFocus }: BellPopoverProps) {
  const [open, setOpen] = useState(defaultOpen);
  const [selected, setSelected] = useState<Announcement | null>(null);
  const preload = () => void loadPanel();
  return (
    <>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button variant="ghost" size="icon" className={triggerClassName} autoFocus={autoFocus} onPointerEnter={preload} onFocus={preload}>
            {trigger}
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
