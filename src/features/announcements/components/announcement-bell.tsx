import { useState } from 'react';
import { Bell, Megaphone } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useActiveAnnouncements } from '../api/hooks';
import type { Announcement } from '../api/queries';
import { AnnouncementDialog } from './announcement-dialog';

function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The header bell: the school's active announcements; choosing one opens it in full. */
export function AnnouncementBell({ schoolId, className }: { schoolId: string | null | undefined; className?: string }) {
  const { data, isPending, isError } = useActiveAnnouncements(schoolId);
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<Announcement | null>(null);
  const count = data?.length ?? 0;
  return (
    <>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className={cn('relative text-muted-foreground', className)}
          >
            <span className="sr-only">{count ? `Notificações (${count} ${count === 1 ? 'comunicado' : 'comunicados'})` : 'Notificações'}</span>
            <Bell className="size-5" aria-hidden="true" />
            {/* The count is drawn by CSS, so the button's only text is its name above. */}
            {count > 0 && (
              <span
                aria-hidden="true"
                data-count={count > 9 ? '9+' : String(count)}
                className="absolute top-1.5 right-1.5 flex min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] leading-4 font-semibold text-white after:content-[attr(data-count)]"
              />
            )}
          </Button>
        </PopoverTrigger>
        <PopoverContent aria-label="Comunicados">
          <div className="border-b border-border px-4 py-3">
            <p className="text-sm font-semibold">Comunicados</p>
          </div>
          <div className="max-h-96 overflow-y-auto p-1">
            {isPending && schoolId ? (
              <p className="px-3 py-6 text-center text-sm text-muted-foreground">Carregando...</p>
            ) : isError ? (
              <p className="px-3 py-6 text-center text-sm text-muted-foreground">Não foi possível carregar os comunicados.</p>
            ) : count === 0 ? (
              <p className="px-3 py-6 text-center text-sm text-muted-foreground">Nenhum comunicado no momento.</p>
            ) : (
              <ul className="grid gap-0.5">
                {data!.map((a) => (
                  <li key={a.id}>
                    <button
                      type="button"
                      onClick={() => {
                        setOpen(false);
                        setSelected(a);
                      }}
                      className="flex w-full cursor-pointer gap-3 rounded-lg px-3 py-2.5 text-left transition-colors hover:bg-muted focus-visible:bg-muted"
                    >
                      <span aria-hidden="true" className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                        <Megaphone className="size-4" />
                      </span>
                      <span className="min-w-0">
                        <span className="block truncate text-sm font-medium">{a.title}</span>
                        <span className="line-clamp-2 text-xs text-muted-foreground">{plainText(a.body)}</span>
                        <span className="mt-0.5 block text-[11px] text-muted-foreground">{formatDate(a.created_at)}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </PopoverContent>
      </Popover>
      {selected && (
        <AnnouncementDialog announcement={selected} open onClose={() => setSelected(null)} description={formatDate(selected.created_at)} />
      )}
    </>
  );
}
