import { Megaphone } from 'lucide-react';
import { formatDate } from '@/utils/format';
import { htmlToText } from '@/utils/html-text';
import { useActiveAnnouncements } from '../api/hooks';
import type { Announcement } from '../api/queries';

/** The bell's "Comunicados": the school's active announcements; `onOpen` shows one in full (AnnouncementDialog). */
export function AnnouncementList({ schoolId, onOpen }: { schoolId: string | null | undefined; onOpen: (announcement: Announcement) => void }) {
  const { data, isPending, isError } = useActiveAnnouncements(schoolId);
  const count = data?.length ?? 0;
  return (
    <section aria-labelledby="bell-announcements-title" className="border-t border-border">
      <div className="border-b border-border px-4 py-3">
        <h2 id="bell-announcements-title" className="text-sm font-semibold">
          Comunicados
        </h2>
      </div>
      <div className="p-1">
        {isPending && schoolId ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Carregando...</p>
        ) : isError ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Não foi possível carregar os comunicados.</p>
        ) : count === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Nenhum comunicado no momento.</p>
        ) : (
          // One column no wider than the bell: a long title is cut with "…" instead of widening the list.
          <ul className="grid grid-cols-1 gap-0.5">
            {data!.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  onClick={() => onOpen(a)}
                  className="flex w-full cursor-pointer gap-3 rounded-lg px-3 py-2.5 text-left transition-colors hover:bg-muted focus-visible:bg-muted"
                >
                  <span aria-hidden="true" className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                    <Megaphone className="size-4" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{a.title}</span>
                    {/* The body's blocks a line each ("Novidades", then "Agora você…"), two lines at most. */}
                    <span className="line-clamp-2 text-xs break-words whitespace-pre-line text-muted-foreground">{htmlToText(a.body)}</span>
                    <span className="mt-0.5 block text-[11px] text-muted-foreground">{formatDate(a.created_at)}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
