import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { PlansPage } from '@/features/plans/components/plans-page';
import { WithOwnSchool } from '@/app/own-school';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage } from '@/components/ui/page-header';
import { PageSpinner } from '@/components/ui/spinner';

// Planos (issue 24): the plans feature, with the school's courses for a plan's course list.
function Plans({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  if (courses.isError)
    return (
      <AdminPage>
        <LoadError title="Não foi possível carregar os cursos" onRetry={courses.refetch} />
      </AdminPage>
    );
  return <PlansPage schoolId={schoolId} courses={courses.data.map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminPlansPage() {
  return <WithOwnSchool>{(school) => <Plans schoolId={school.id} />}</WithOwnSchool>;
}
