import { AdminCourseList } from '@/features/courses/components/admin/course-list';

export default function AdminCoursesPage() {
  return <AdminCourseList />;
}
