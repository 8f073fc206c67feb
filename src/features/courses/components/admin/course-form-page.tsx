import { useParams } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage } from '@/components/ui/page-header';
import { useAdminCourse, useCourseBump } from '@/features/courses/api/admin-hooks';
import { CourseForm } from '@/features/courses/components/admin/course-form';
import { useSession } from '@/platform/session';

// /admin/courses/new and /admin/courses/:courseId/edit: the same form (SPEC §2).
export default function AdminCourseFormPage() {
  const { courseId } = useParams();
  const { profile, user } = useSession();
  const course = useAdminCourse(courseId);
  const bump = useCourseBump(courseId);
  if (!profile?.school_id || !user) {
    return (
      <AdminPage>
        <EmptyState title="Sua conta não está ligada a uma escola" description="Os cursos pertencem a uma escola; entre com a conta de um administrador da escola." />
      </AdminPage>
    );
  }
  // The form takes its values once: wait for a fresh read, never edit a stale cached copy.
  if (courseId && (course.isPending || (course.isFetching && !course.isFetchedAfterMount) || bump.isPending || (bump.isFetching && !bump.isFetchedAfterMount))) {
    return (
      <div className="flex justify-center py-16">
        <Spinner />
      </div>
    );
  }
  if (courseId && !course.data) {
    return (
      <AdminPage>
        <EmptyState title="Curso não encontrado" description="Ele pode ter sido excluído ou pertencer a outra escola." />
      </AdminPage>
    );
  }
  if (courseId && bump.isError) {
    return (
      <AdminPage>
        <LoadError title="Não foi possível carregar a oferta adicional do curso" onRetry={bump.refetch} />
      </AdminPage>
    );
  }
  return <CourseForm key={courseId ?? 'new'} course={course.data ?? null} bump={bump.data ?? null} schoolId={course.data?.school_id ?? profile.school_id} userId={user.id} />;
}
