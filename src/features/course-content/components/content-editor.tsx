import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
  type Announcements,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowLeft, CalendarClock, ChevronDown, Clock, Film, GripVertical, Layers, MoreVertical, Pencil, Plus, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-variants';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { PageSpinner } from '@/components/ui/spinner';
import { StorageImage } from '@/components/ui/storage-image';
import { minutesFromSeconds } from '@/lib/format';
import { releaseRuleText } from '@/lib/release';
import { cn } from '@/lib/utils';
import { useCourseContent, useDeleteContent, useReorderContent } from '../api/hooks';
import type { EditorLesson, EditorModule } from '../api/queries';
import { containerOf, moveLesson, moveModule, nextOrderIndex } from '../lib/outline';
import { LessonDialog, type LessonDialogTarget } from './lesson-dialog';
import { ModuleDialog } from './module-dialog';

const MODULE_PREFIX = 'module:';
const DROP_PREFIX = 'drop:';

type Deleting = { table: 'modules' | 'lessons'; id: string; title: string } | null;

/** The 4rem module thumbnail of the outline, at 2x and 4x. */
const THUMB_WIDTHS = [128, 256];

export function ContentEditor({ courseId }: { courseId: string }) {
  const content = useCourseContent(courseId);
  const reorder = useReorderContent(courseId);
  const remove = useDeleteContent(courseId);
  const [moduleDialog, setModuleDialog] = useState<{ module: EditorModule | null } | null>(null);
  const [lessonTarget, setLessonTarget] = useState<LessonDialogTarget | null>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  // While a module moves only modules are drop targets, while a lesson moves only lessons (and empty
  // modules) are: the keyboard's arrows then step through items of the same kind.
  const [dragging, setDragging] = useState<'module' | 'lesson' | null>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  if (content.isPending) return <PageSpinner />;
  const course = content.data?.course;
  if (content.isError || !course) {
    return (
      <AdminPage>
        <EmptyState title="Curso não encontrado" description="Ele pode ter sido excluído ou pertencer a outra escola." />
      </AdminPage>
    );
  }
  const modules = content.data.modules;
  const titleOf = (id: string) => {
    if (id.startsWith(MODULE_PREFIX)) return modules.find((m) => m.id === id.slice(MODULE_PREFIX.length))?.title ?? '';
    if (id.startsWith(DROP_PREFIX)) return `o módulo ${modules.find((m) => m.id === id.slice(DROP_PREFIX.length))?.title ?? ''}`;
    return modules.flatMap((m) => m.lessons).find((l) => l.id === id)?.title ?? '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Item ${titleOf(String(active.id))} selecionado. Use as setas para mover e Espaço para soltar.`,
    onDragOver: ({ active, over }) => (over ? `${titleOf(String(active.id))} sobre ${titleOf(String(over.id))}.` : `${titleOf(String(active.id))} fora de uma lista.`),
    onDragEnd: ({ active, over }) => (over ? `${titleOf(String(active.id))} movido para a posição de ${titleOf(String(over.id))}.` : 'Movimento cancelado.'),
    onDragCancel: ({ active }) => `Movimento de ${titleOf(String(active.id))} cancelado.`,
  };

  function onDragStart({ active }: DragStartEvent) {
    setDragging(String(active.id).startsWith(MODULE_PREFIX) ? 'module' : 'lesson');
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setDragging(null);
    if (!over) return;
    const a = String(active.id);
    const o = String(over.id);
    if (a === o) return;
    if (a.startsWith(MODULE_PREFIX)) {
      const overModule = o.startsWith(MODULE_PREFIX) ? o.slice(MODULE_PREFIX.length) : containerOf(modules, o.replace(DROP_PREFIX, ''))?.id;
      if (!overModule) return;
      const next = moveModule(modules, a.slice(MODULE_PREFIX.length), overModule);
      if (next !== modules) reorder.mutate(next);
      return;
    }
    const target = o.startsWith(MODULE_PREFIX) ? o.slice(MODULE_PREFIX.length) : o.replace(DROP_PREFIX, '');
    const next = moveLesson(modules, a, target);
    if (next !== modules) reorder.mutate(next);
  }

  return (
    <AdminPage className="max-w-5xl">
      <Link to="/admin/courses" className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'w-fit' })}>
        <ArrowLeft aria-hidden="true" /> Voltar aos cursos
      </Link>
      <PageHeader
        title="Conteúdo do Curso"
        description={course.title}
        actions={
          modules.length > 0 && (
            <Button onClick={() => setModuleDialog({ module: null })}>
              <Plus aria-hidden="true" /> Adicionar Módulo
            </Button>
          )
        }
      />
      {modules.length === 0 ? (
        <EmptyState
          icon={Layers}
          title="Nenhum módulo criado ainda"
          description="Crie o primeiro módulo e depois adicione as aulas."
          action={
            <Button onClick={() => setModuleDialog({ module: null })}>
              <Plus aria-hidden="true" /> Criar primeiro módulo
            </Button>
          }
        />
      ) : (
        <>
          <p className="text-sm text-muted-foreground">Arraste pelas alças (ou foque a alça e use Espaço e as setas) para reordenar módulos e aulas, inclusive entre módulos.</p>
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)} accessibility={{ announcements }}>
            <SortableContext items={modules.map((m) => MODULE_PREFIX + m.id)} strategy={verticalListSortingStrategy}>
              <ol className="grid gap-4" aria-label="Módulos">
                {modules.map((module, index) => (
                  <SortableModule
                    key={module.id}
                    module={module}
                    index={index}
                    droppable={dragging !== 'lesson'}
                    open={!collapsed.has(module.id)}
                    onToggle={() =>
                      setCollapsed((s) => {
                        const n = new Set(s);
                        if (n.has(module.id)) n.delete(module.id);
                        else n.add(module.id);
                        return n;
                      })
                    }
                    onEdit={() => setModuleDialog({ module })}
                    onDelete={() => setDeleting({ table: 'modules', id: module.id, title: module.title })}
                    onAddLesson={() => setLessonTarget({ moduleId: module.id, lessonId: null, orderIndex: nextOrderIndex(module.lessons) })}
                  >
                    <SortableContext items={module.lessons.map((l) => l.id)} strategy={verticalListSortingStrategy}>
                      <LessonDropArea moduleId={module.id} empty={module.lessons.length === 0} droppable={dragging === 'lesson'}>
                        {module.lessons.map((lesson) => (
                          <SortableLesson
                            key={lesson.id}
                            lesson={lesson}
                            droppable={dragging !== 'module'}
                            onEdit={() => setLessonTarget({ moduleId: module.id, lessonId: lesson.id, orderIndex: lesson.order_index })}
                            onDelete={() => setDeleting({ table: 'lessons', id: lesson.id, title: lesson.title })}
                          />
                        ))}
                      </LessonDropArea>
                    </SortableContext>
                  </SortableModule>
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        </>
      )}
      {moduleDialog && (
        <ModuleDialog
          open
          onOpenChange={(open) => !open && setModuleDialog(null)}
          courseId={courseId}
          schoolId={course.school_id}
          module={moduleDialog.module}
          orderIndex={nextOrderIndex(modules)}
        />
      )}
      <LessonDialog target={lessonTarget} onClose={() => setLessonTarget(null)} courseId={courseId} schoolId={course.school_id} />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting?.table === 'modules' ? 'Excluir módulo?' : 'Excluir aula?'}
        description={
          deleting?.table === 'modules'
            ? `O módulo "${deleting.title}" e todas as suas aulas serão excluídos. Esta ação não pode ser desfeita.`
            : `A aula "${deleting?.title ?? ''}", com seus materiais, comentários e avaliações, será excluída. Esta ação não pode ser desfeita.`
        }
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
      />
    </AdminPage>
  );
}

function DragHandle({ label, listeners, attributes }: { label: string; listeners: ReturnType<typeof useSortable>['listeners']; attributes: ReturnType<typeof useSortable>['attributes'] }) {
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

function SortableModule({
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
  const { setNodeRef, transform, transition, isDragging, attributes, listeners } = useSortable({ id: MODULE_PREFIX + module.id, disabled: { droppable: !droppable } });
  const count = module.lessons.length;
  const release = releaseRuleText(module);
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn('min-w-0 rounded-xl border border-border bg-white shadow-xs', isDragging && 'relative z-10 opacity-80 shadow-lg')}
      data-testid="content-module"
    >
      <div className="flex items-center gap-2 p-3 sm:gap-3">
        <DragHandle label={`Arrastar módulo ${module.title}`} attributes={attributes} listeners={listeners} />
        {module.thumbnail_url ? (
          <StorageImage src={module.thumbnail_url} sizes="64px" widths={THUMB_WIDTHS} className="hidden aspect-[4/3] w-16 shrink-0 rounded-md object-cover sm:block" />
        ) : (
          <span className="hidden aspect-[4/3] w-16 shrink-0 items-center justify-center rounded-md bg-muted text-xs text-muted-foreground sm:flex">Módulo {index + 1}</span>
        )}
        <button type="button" className="flex min-w-0 flex-1 items-center gap-2 text-left" aria-expanded={open} onClick={onToggle}>
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
          <ChevronDown aria-hidden="true" className={cn('ml-auto size-4 shrink-0 transition-transform', open && 'rotate-180')} />
        </button>
        <ItemMenu label={`Ações do módulo ${module.title}`} onEdit={onEdit} onDelete={onDelete} />
      </div>
      {open && (
        <div className="grid gap-2 border-t border-border p-3">
          {children}
          <Button variant="outline" size="sm" className="w-fit" onClick={onAddLesson} aria-label={`Adicionar Aula em ${module.title}`}>
            <Plus aria-hidden="true" /> Adicionar Aula
          </Button>
        </div>
      )}
    </li>
  );
}

function LessonDropArea({ moduleId, empty, droppable, children }: { moduleId: string; empty: boolean; droppable: boolean; children: ReactNode }) {
  // Only an empty module needs a drop area of its own; a full one takes drops on its lessons.
  const { setNodeRef, isOver } = useDroppable({ id: DROP_PREFIX + moduleId, disabled: !empty || !droppable });
  return (
    <ol ref={setNodeRef} className={cn('grid gap-2', empty && 'min-h-12 rounded-lg border border-dashed border-border', isOver && 'bg-primary/5')} aria-label="Aulas">
      {empty && <li className="flex items-center px-3 py-2 text-sm text-muted-foreground">Nenhuma aula neste módulo. Adicione uma ou arraste uma aula para cá.</li>}
      {children}
    </ol>
  );
}

function SortableLesson({ lesson, droppable, onEdit, onDelete }: { lesson: EditorLesson; droppable: boolean; onEdit: () => void; onDelete: () => void }) {
  const { setNodeRef, transform, transition, isDragging, attributes, listeners } = useSortable({ id: lesson.id, disabled: { droppable: !droppable } });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn('flex min-w-0 items-center gap-2 rounded-lg border border-border bg-muted/30 px-2 py-2', isDragging && 'relative z-10 bg-white shadow-lg')}
      data-testid="content-lesson"
    >
      <DragHandle label={`Arrastar aula ${lesson.title}`} attributes={attributes} listeners={listeners} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{lesson.title}</p>
        <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          <Badge variant="success">Publicado</Badge>
          {lesson.is_preview && <Badge variant="warning">Preview</Badge>}
          {lesson.video_type !== 'none' && (
            <span className="inline-flex items-center gap-1">
              <Film aria-hidden="true" className="size-3" />
              {lesson.video_type === 'upload' ? 'Vídeo enviado' : lesson.video_type === 'youtube' ? 'YouTube' : 'Vimeo'}
            </span>
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
