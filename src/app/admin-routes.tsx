// The admin pages under the admin layout, but its index (the dashboard): ./router.tsx patches them in on
// the first visit to one, so that their imports are not in every visitor's first download.
import type { RouteObject } from 'react-router-dom';
import { page } from './lazy-page';

export const adminRoutes: RouteObject[] = [
  { path: 'member-area', lazy: page(() => import('./routes/admin/member-area')) },
  { path: 'courses', lazy: page(() => import('./routes/admin/courses')) },
  { path: 'courses/new', lazy: page(() => import('./routes/admin/course-form')) },
  { path: 'courses/:courseId/edit', lazy: page(() => import('./routes/admin/course-form')) },
  { path: 'courses/:courseId/content', lazy: page(() => import('./routes/admin/course-content')) },
  { path: 'materials', lazy: page(() => import('./routes/admin/materials')) },
  { path: 'clients', lazy: page(() => import('./routes/admin/clients')) },
  { path: 'students', lazy: page(() => import('./routes/admin/students')) },
  { path: 'enrollments', lazy: page(() => import('./routes/admin/enrollments')) },
  { path: 'turmas', lazy: page(() => import('./routes/admin/turmas')) },
  { path: 'turmas/:turmaId', lazy: page(() => import('./routes/admin/turma')) },
  { path: 'announcements', lazy: page(() => import('./routes/admin/announcements')) },
  { path: 'comments', lazy: page(() => import('./routes/admin/comments')) },
  { path: 'coupons', lazy: page(() => import('./routes/admin/coupons')) },
  { path: 'plans', lazy: page(() => import('./routes/admin/plans')) },
  { path: 'reports', lazy: page(() => import('./routes/admin/reports')) },
  { path: 'compartilhamento', lazy: page(() => import('./routes/admin/shared-logins')) },
  { path: 'sales', lazy: page(() => import('./routes/admin/sales')) },
  { path: 'recovery', lazy: page(() => import('./routes/admin/recovery')) },
  { path: 'affiliates', lazy: page(() => import('./routes/admin/affiliates')) },
  { path: 'audit', lazy: page(() => import('./routes/admin/audit')) },
  { path: 'settings', lazy: page(() => import('./routes/admin/settings')) },
  { path: 'login-settings', lazy: page(() => import('./routes/admin/login-settings')) },
];
