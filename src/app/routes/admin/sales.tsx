import { PageSpinner } from '@/components/ui/spinner';
import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { SalesPage } from '@/features/sales/components/sales-page';
import { WithOwnSchool } from '@/app/own-school';

function Sales({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return <SalesPage schoolId={schoolId} courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminSalesPage() {
  return <WithOwnSchool>{(school) => <Sales schoolId={school.id} />}</WithOwnSchool>;
}
