import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { CouponsPage } from '@/features/coupons/components/coupons-page';
import { WithOwnSchool } from '@/app/own-school';
import { LoadError } from '@/components/ui/load-error';
import { AdminPage } from '@/components/ui/page-header';
import { PageSpinner } from '@/components/ui/spinner';

// Cupons (issue 24): the coupons feature, with the school's courses for a coupon's course list.
function Coupons({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  if (courses.isError)
    return (
      <AdminPage>
        <LoadError title="Não foi possível carregar os cursos" onRetry={courses.refetch} />
      </AdminPage>
    );
  return <CouponsPage schoolId={schoolId} courses={courses.data.map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminCouponsPage() {
  return <WithOwnSchool>{(school) => <Coupons schoolId={school.id} />}</WithOwnSchool>;
}
