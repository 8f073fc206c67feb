import { useCourseOptions } from '@/features/courses/api/admin-hooks';
import { MaterialsPage } from '@/features/materials/components/materials-page';
import { WithOwnSchool } from '@/app/own-school';
import { PageSpinner } from '@/components/ui/spinner';

function Materials({ schoolId }: { schoolId: string }) {
  const courses = useCourseOptions(schoolId);
  if (courses.isPending) return <PageSpinner />;
  return <MaterialsPage schoolId={schoolId} courses={(courses.data ?? []).map((c) => ({ id: c.id, title: c.title }))} />;
}

export default function AdminMaterialsPage() {
  return <WithOwnSchool>{(school) => <Materials schoolId={school.id} />}</WithOwnSchool>;
}
