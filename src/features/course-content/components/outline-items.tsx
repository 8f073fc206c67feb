// The rows of the content editor's outline: a module (collapsible, with its lessons), the drop area of
// an empty module, a lesson, and their drag handles and action menus (dnd-kit sortables).
import type { ReactNode } from 'react';
import { useDroppable } from '@dnd-kit/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  CalendarClock,
  ChevronDown,
  Clock,
  Film,
  GripVertical,
  MoreVertical,
  Pencil,
  Plus,
  Trash2,
} from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { StorageImage } from '@/components/ui/storage-image';
import { minutesFromSeconds } from '@/utils/format';
import { releaseRuleText } from '@/concepts/release';
import { cn } from '@/utils/cn';
import type { CourseLessonVideo, EditorLesson, EditorModule } from '../api/queries';

/** dnd-kit ids: a module's sortable id, and the drop area of an empty module (lessons use their own id). */
export const MODULE_PREFIX = 'module:';
export const DROP_PREFIX = 'drop:';

/** The 4rem module thumbnail of the outline, at 2x and 4x. */
const THUMB_WIDTHS = [128, 256];

function DragHandle({
  label,
  listeners,
  attributes,
}: {
  label: string;
  listeners: ReturnType<typeof useSortable>['listeners'];
  attributes: ReturnType<typeof useSortable>['attributes'];
}) {
  return (
    <button
      type="button"
      className="flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary active:cursor-grabbing"
      {...attributes}
      {...listeners}
      aria-label={label}
    >
      <GripVertical aria-hidden="true" className="size-4" />
    </button>
  );
}

function ItemMenu({ label, onEdit, onDelete }: { label: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label}>
          <MoreVertical aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={onEdit}>
          <Pencil aria-hidden="true" /> Editar
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onDelete} className="text-destructive">
          <Trash2 aria-hidden="true" /> Excluir
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function SortableModule({
  module,
  index,
  droppable,
  open,
  onToggle,
  onEdit,
  onDelete,
  onAddLesson,
  children,
}: {
  module: EditorModule;
  index: number;
  droppable: boolean;
  open: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onAddLesson: () => void;
  children: ReactNode;
}) {
  const { setNodeRef, transform, transition, isDragging, attributes, listeners } = useSortable({
    id: MODULE_PREFIX + module.id,
    disabled: { droppable: !droppable },
  });
  const count = module.lessons.length;
  const release = releaseRuleText(module);
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn(
        'min-w-0 rounded-xl border border-border bg-white shadow-xs',
        isDragging && 'relative z-10 opacity-80 shadow-lg',
      )}
      data-testid="content-module"
    >
      <div className="flex items-center gap-2 p-3 sm:gap-3">
        <DragHandle label={`Arrastar módulo ${module.title}`} attributes={attributes} listeners={listeners} />
        {module.thumbnail_url ? (
          <StorageImage
            src={module.thumbnail_url}
            sizes="64px"
            widths={THUMB_WIDTHS}
            className="hidden aspect-[4/3] w-16 shrink-0 rounded-md object-cover sm:block"
          />
        ) : (
          <span className="hidden aspect-[4/3] w-16 shrink-0 items-center justify-center rounded-md bg-muted text-xs text-muted-foreground sm:flex">
            Módulo {index + 1}
          </span>
        )}
        <button
          type="button"
          className="flex min-w-0 flex-1 items-center gap-2 text-left"
          aria-expanded={open}
          onClick={onToggle}
        >
          <span className="min-w-0">
            <span className="block truncate font-semibold">{module.title}</span>
            <span className="block text-xs text-muted-foreground">
              {count} {count === 1 ? 'aula' : 'aulas'}
            </span>
            {release && (
              <Badge variant="warning" className="mt-1 whitespace-normal" data-testid="module-release-rule">
                <CalendarClock aria-hidden="true" className="size-3 shrink-0" /> {release}
              </Badge>
            )}
          </span>
          <ChevronDown
            aria-hidden="true"
            className={cn('ml-auto size-4 shrink-0 transition-transform', open && 'rotate-180')}
          />
        </button>
        <ItemMenu label={`Ações do módulo ${module.title}`} onEdit={onEdit} onDelete={onDelete} />
      </div>
      {open && (
        <div className="grid gap-2 border-t border-border p-3">
          {children}
          <Button
            variant="outline"
            size="sm"
            className="w-fit"
            onClick={onAddLesson}
            aria-label={`Adicionar Aula em ${module.title}`}
          >
            <Plus aria-hidden="true" /> Adicionar Aula
          </Button>
        </div>
      )}
    </li>
  );
}

export function LessonDropArea({
  moduleId,
  empty,
  droppable,
  children,
}: {
  moduleId: string;
  empty: boolean;
  droppable: boolean;
  children: ReactNode;
}) {
  // Only an empty module needs a drop area of its own; a full one takes drops on its lessons.
  const { setNodeRef, isOver } = useDroppable({ id: DROP_PREFIX + moduleId, disabled: !empty || !droppable });
  return (
    <ol
      ref={setNodeRef}
      className={cn(
        'grid gap-2',
        empty && 'min-h-12 rounded-lg border border-dashed border-border',
        isOver && 'bg-primary/5',
      )}
      aria-label="Aulas"
    >
      {empty && (
        <li className="flex items-center px-3 py-2 text-sm text-muted-foreground">
          Nenhuma aula neste módulo. Adicione uma ou arraste uma aula para cá.
        </li>
      )}
      {children}
    </ol>
  );
}

export function SortableLesson({
  lesson,
  hostedVideo,
  droppable,
  onEdit,
  onDelete,
}: {
  lesson: EditorLesson;
  /** Its video at the video host (issue 39), when it has one. */
  hostedVideo?: CourseLessonVideo;
  droppable: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { setNodeRef, transform, transition, isDragging, attributes, listeners } = useSortable({
    id: lesson.id,
    disabled: { droppable: !droppable },
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn(
        'flex min-w-0 items-center gap-2 rounded-lg border border-border bg-muted/30 px-2 py-2',
        isDragging && 'relative z-10 bg-white shadow-lg',
      )}
      data-testid="content-lesson"
    >
      <DragHandle label={`Arrastar aula ${lesson.title}`} attributes={attributes} listeners={listeners} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{lesson.title}</p>
        <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          <Badge variant="success">Publicado</Badge>
          {/* SPEC §2 names the badge 'Preview'; it leads with what it means to the school's staff. */}
          {lesson.is_preview && <Badge variant="warning">Aula gratuita (Preview)</Badge>}
          {hostedVideo ? (
            <HostedVideoBadge video={hostedVideo} />
          ) : (
            lesson.video_type !== 'none' && (
              <span className="inline-flex items-center gap-1">
                <Film aria-hidden="true" className="size-3" />
                {lesson.video_type === 'upload'
                  ? 'Vídeo enviado'
                  : lesson.video_type === 'youtube'
                    ? 'YouTube'
                    : 'Vimeo'}
              </span>
            )
          )}
          {minutesFromSeconds(lesson.duration_sec) > 0 && (
            <span className="inline-flex items-center gap-1">
              <Clock aria-hidden="true" className="size-3" /> {minutesFromSeconds(lesson.duration_sec)} min
            </span>
          )}
        </div>
      </div>
      <ItemMenu label={`Ações da aula ${lesson.title}`} onEdit={onEdit} onDelete={onDelete} />
    </li>
  );
}

/** A hosted video's processing in the outline: the same words as the lesson dialog's. */
function HostedVideoBadge({ video }: { video: CourseLessonVideo }) {
  if (video.status === 'failed') return <Badge variant="destructive">Falha ao processar o vídeo</Badge>;
  if (video.status === 'ready')
    return (
      <span className="inline-flex items-center gap-1">
        <Film aria-hidden="true" className="size-3" /> Vídeo protegido
      </span>
    );
  return (
    <Badge variant="secondary" className="tabular-nums">
      {video.status === 'processing' ? `Processando vídeo… ${video.percent}%` : 'Aguardando o arquivo do vídeo'}
    </Badge>
  );
}
