// The course content editor (SPEC §2 "Course content"): the outline of modules and lessons, reordered by
// drag and drop (pointer or keyboard, announced in pt-BR), and the module, lesson and delete dialogs.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
  type Announcements,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { ArrowLeft, Layers, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-variants';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { PageSpinner } from '@/components/ui/spinner';
import { useCourseContent, useCourseLessonVideos, useDeleteContent, useReorderContent } from '../api/hooks';
import type { EditorModule } from '../api/queries';
import { containerOf, moveLesson, moveModule, nextOrderIndex } from '../lib/outline';
import { LessonDialog, type LessonDialogTarget, type RenderMaterials, type RenderQuiz } from './lesson-dialog';
import { ModuleDialog } from './module-dialog';
import { DROP_PREFIX, LessonDropArea, MODULE_PREFIX, SortableLesson, SortableModule } from './outline-items';

type Deleting = { table: 'modules' | 'lessons'; id: string; title: string } | null;

/** `renderMaterials`, `renderQuiz`: the Materiais and Avaliação tabs of a saved lesson (features/materials,
 * features/quizzes), passed in by the route. */
export function ContentEditor({
  courseId,
  renderMaterials,
  renderQuiz,
}: {
  courseId: string;
  renderMaterials: RenderMaterials;
  renderQuiz: RenderQuiz;
}) {
  const content = useCourseContent(courseId);
  const hostedVideos = useCourseLessonVideos(courseId);
  const reorder = useReorderContent(courseId);
  const remove = useDeleteContent();
  const [moduleDialog, setModuleDialog] = useState<{ module: EditorModule | null } | null>(null);
  const [lessonTarget, setLessonTarget] = useState<LessonDialogTarget | null>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  // While a module moves only modules are drop targets, while a lesson moves only lessons (and empty
  // modules) are: the keyboard's arrows then step through items of the same kind.
  const [dragging, setDragging] = useState<'module' | 'lesson' | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  if (content.isPending) return <PageSpinner />;
  const course = content.data?.course;
  if (content.isError || !course) {
    return (
      <AdminPage>
        <EmptyState
          title="Curso não encontrado"
          description="Ele pode ter sido excluído ou pertencer a outra escola."
        />
      </AdminPage>
    );
  }
  const modules = content.data.modules;
  const titleOf = (id: string) => {
    if (id.startsWith(MODULE_PREFIX)) return modules.find((m) => m.id === id.slice(MODULE_PREFIX.length))?.title ?? '';
    if (id.startsWith(DROP_PREFIX))
      return `o módulo ${modules.find((m) => m.id === id.slice(DROP_PREFIX.length))?.title ?? ''}`;
    return modules.flatMap((m) => m.lessons).find((l) => l.id === id)?.title ?? '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Item ${titleOf(String(active.id))} selecionado. Use as setas para mover e Espaço para soltar.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${titleOf(String(active.id))} sobre ${titleOf(String(over.id))}.`
        : `${titleOf(String(active.id))} fora de uma lista.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${titleOf(String(active.id))} movido para a posição de ${titleOf(String(over.id))}.`
        : 'Movimento cancelado.',
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
      const overModule = o.startsWith(MODULE_PREFIX)
        ? o.slice(MODULE_PREFIX.length)
        : containerOf(modules, o.replace(DROP_PREFIX, ''))?.id;
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
          <p className="text-sm text-muted-foreground">
            Arraste pelas alças (ou foque a alça e use Espaço e as setas) para reordenar módulos e aulas, inclusive
            entre módulos.
          </p>
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            onDragStart={onDragStart}
            onDragEnd={onDragEnd}
            onDragCancel={() => setDragging(null)}
            accessibility={{ announcements }}
          >
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
                    onAddLesson={() =>
                      setLessonTarget({
                        moduleId: module.id,
                        lessonId: null,
                        orderIndex: nextOrderIndex(module.lessons),
                      })
                    }
                  >
                    <SortableContext items={module.lessons.map((l) => l.id)} strategy={verticalListSortingStrategy}>
                      <LessonDropArea
                        moduleId={module.id}
                        empty={module.lessons.length === 0}
                        droppable={dragging === 'lesson'}
                      >
                        {module.lessons.map((lesson) => (
                          <SortableLesson
                            key={lesson.id}
                            lesson={lesson}
                            hostedVideo={hostedVideos.data?.get(lesson.id)}
                            droppable={dragging !== 'module'}
                            onEdit={() =>
                              setLessonTarget({
                                moduleId: module.id,
                                lessonId: lesson.id,
                                orderIndex: lesson.order_index,
                              })
                            }
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
      <LessonDialog
        target={lessonTarget}
        onClose={() => setLessonTarget(null)}
        courseId={courseId}
        schoolId={course.school_id}
        renderMaterials={renderMaterials}
        renderQuiz={renderQuiz}
      />
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
