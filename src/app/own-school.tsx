// The admin pages of one school wrap their feature's page in this (the route composes it): the signed-in
// staff member's school from the session, or a note when the account has none; with the school's courses
// for the pages whose filters or forms list them.
import type { ReactNode } from 'react';
import { CourseFilter, type CourseOption } from '@/concepts/course-filter';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage } from '@/components/ui/page-header';
import { PageSpinner } from '@/components/ui/spinner';
import { useSession, type SchoolRow } from '@/platform/session';

/** Renders `children` with the signed-in staff's school, or says why there is none. */
export function WithOwnSchool({ children }: { children: (school: SchoolRow) => ReactNode }) {
  const { school, profile, loading } = useSession();
  if (school) return <>{children(school)}</>;
  if (loading || profile?.school_id) return <PageSpinner />;
  return (
    <AdminPage>
      <EmptyState
        title="Sua conta não está ligada a uma escola"
        description="Estas configurações pertencem a uma escola; entre com a conta de um administrador da escola."
      />
    </AdminPage>
  );
}

/** As WithOwnSchool, with every course of the school (title order) once they are loaded. */
export function WithOwnSchoolCourses({
  children,
}: {
  children: (schoolId: string, courses: CourseOption[]) => ReactNode;
}) {
  return <WithOwnSchool>{(school) => <SchoolCourses schoolId={school.id}>{children}</SchoolCourses>}</WithOwnSchool>;
}

function SchoolCourses({
  schoolId,
  children,
}: {
  schoolId: string;
  children: (schoolId: string, courses: CourseOption[]) => ReactNode;
}) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  if (courses.isError)
    return (
      <AdminPage>
        <LoadError title="Não foi possível carregar os cursos" onRetry={courses.refetch} />
      </AdminPage>
    );
  return (
    <>
      {children(
        schoolId,
        courses.data.map((c) => ({ id: c.id, title: c.title })),
      )}
    </>
  );
}

/** The Curso filter with the school's courses, read when it is first shown (the dashboard shows it on demand). */
export function SchoolCourseFilter({ id, schoolId, value, onChange }: { id: string; schoolId: string; value: string; onChange: (courseId: string) => void }) {
  const courses = useCourseOptions(schoolId);
  return <CourseFilter id={id} value={value} courses={courses.data ?? []} onChange={onChange} />;
}
