import { useState } from 'react';
import { Link } from 'react-router-dom';
import { BookOpen, ImageIcon, LayoutList, Pencil, Plus, Search } from 'lucide-react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button-variants';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ListSearch } from '@/components/ui/list-search';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { useListParams } from '@/utils/list-params';
import { AdminPage, PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { StorageImage } from '@/components/ui/storage-image';
import { Switch } from '@/components/ui/switch';
import { DeleteRowButton } from '@/components/ui/row-actions';
import { formatMoney } from '@/utils/format';
import { useSession } from '@/platform/session';
import { ADMIN_COURSES_PAGE_SIZE } from '../../api/admin-queries';
import { useAdminCourses, useDeleteCourse, useToggleCourseStatus, type AdminCourse } from '../../api/admin-hooks';
import { STATUS_LABEL, type CourseStatus } from '../../schemas';

const STATUS_VARIANT: Record<CourseStatus, BadgeVariant> = { DRAFT: 'warning', PUBLISHED: 'success', ARCHIVED: 'secondary' };

export function AdminCourseList() {
  const { profile } = useSession();
  const { page, query, setPage, setQuery } = useListParams();
  const courses = useAdminCourses(profile?.school_id, query, page);
  const [toDelete, setToDelete] = useState<AdminCourse | null>(null);
  const remove = useDeleteCourse();
  const list = courses.data?.rows ?? [];
  const searching = query !== '';

  return (
    <AdminPage>
      <PageHeader
        title="Cursos"
        description="Crie, edite e publique os cursos da sua escola"
        actions={
          <Link to="/admin/courses/new" className={buttonClasses()}>
            <Plus aria-hidden="true" /> Novo Curso
          </Link>
        }
      />
      <ListSearch label="Buscar curso por título" placeholder="Buscar por título..." value={query} onSearch={setQuery} />
      {courses.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-72 rounded-xl" />
          ))}
        </div>
      ) : courses.isError ? (
        <LoadError title="Não foi possível carregar os cursos" onRetry={courses.refetch} />
      ) : list.length === 0 ? (
        searching ? (
          <EmptyState icon={Search} title="Nenhum curso encontrado" description={`Nenhum curso com "${query}" no título.`} />
        ) : (
          <EmptyState
            icon={BookOpen}
            title="Nenhum curso criado ainda"
            description="Crie o primeiro curso da sua escola."
            action={
              <Link to="/admin/courses/new" className={buttonClasses()}>
                <Plus aria-hidden="true" /> Novo Curso
              </Link>
            }
          />
        )
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Cursos">
          {list.map((course) => (
            <CourseAdminCard key={course.id} course={course} onDelete={() => setToDelete(course)} />
          ))}
        </ul>
      )}
      {courses.data && <Pagination page={page} pageSize={ADMIN_COURSES_PAGE_SIZE} total={courses.data.total} onPageChange={setPage} label="Páginas de cursos" noun={['curso', 'cursos']} />}
      <ConfirmDialog
        open={!!toDelete}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Excluir curso?"
        description={`O curso "${toDelete?.title ?? ''}", com seus módulos, aulas, materiais e matrículas, será excluído. Esta ação não pode ser desfeita.`}
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSettled: () => setToDelete(null) })}
      />
    </AdminPage>
  );
}

/** A card of the list: 1 column, 2 from sm, 3 from lg (beside the admin sidebar: a little less). */
const ADMIN_CARD_SIZES = '(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw';

function CourseAdminCard({ course, onDelete }: { course: AdminCourse; onDelete: () => void }) {
  const toggle = useToggleCourseStatus();
  const published = course.status === 'PUBLISHED';
  const switchId = `publish-${course.id}`;
  return (
    <li className="flex min-w-0 flex-col overflow-hidden rounded-xl border border-border bg-white shadow-xs">
      <div className="relative aspect-video bg-muted">
        {course.thumbnail_url ? (
          <StorageImage src={course.thumbnail_url} sizes={ADMIN_CARD_SIZES} className="size-full object-cover" style={{ objectPosition: course.thumbnail_position }} />
        ) : (
          <div className="flex size-full items-center justify-center text-muted-foreground">
            <ImageIcon aria-hidden="true" className="size-8" />
          </div>
        )}
        <Badge variant={STATUS_VARIANT[course.status]} className="absolute top-3 left-3">
          {STATUS_LABEL[course.status]}
        </Badge>
      </div>
      <div className="grid flex-1 content-start gap-3 p-4">
        <div className="min-w-0">
          <h2 className="truncate font-semibold" title={course.title}>
            {course.title}
          </h2>
          <p className="truncate text-xs text-muted-foreground">/{course.slug}</p>
          <p className="mt-1 text-sm">{Number(course.price) > 0 ? formatMoney(course.price) : 'Gratuito'}</p>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={switchId}
            checked={published}
            disabled={toggle.isPending || course.status === 'ARCHIVED'}
            onCheckedChange={() => toggle.mutate(course)}
          />
          <label htmlFor={switchId} className="text-sm">
            {published ? 'Publicado' : course.status === 'ARCHIVED' ? 'Arquivado (edite para publicar)' : 'Publicar'}
          </label>
        </div>
        <div className="mt-auto flex flex-wrap gap-2">
          <Link to={`/admin/courses/${course.id}/content`} className={buttonClasses({ size: 'sm' })}>
            <LayoutList aria-hidden="true" /> Gerenciar Conteúdo
          </Link>
          <Link to={`/admin/courses/${course.id}/edit`} className={buttonClasses({ variant: 'outline', size: 'sm' })} aria-label={`Editar ${course.title}`}>
            <Pencil aria-hidden="true" /> Editar
          </Link>
          <DeleteRowButton name={course.title} onClick={onDelete} />
        </div>
      </div>
    </li>
  );
}
