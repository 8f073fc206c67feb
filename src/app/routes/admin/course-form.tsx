// /admin/courses/new and /admin/courses/:courseId/edit (SPEC §2): features/courses' form page.
export { default } from '@/features/courses/components/admin/course-form-page';
