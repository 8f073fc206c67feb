// Every route of SPEC §2. Each page is its own lazily loaded chunk, so the student area never
// downloads the admin area (and the admin shell is a chunk of its own).
import { createBrowserRouter, type LoaderFunctionArgs, type PatchRoutesOnNavigationFunction, type RouteObject } from 'react-router-dom';
import { schoolLoginQuery } from '@/features/auth/api/school-login';
import { queryClient } from '@/platform/query-client';
import { PageSpinner } from '@/components/ui/spinner';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';
import type { FirstVisitPath } from './first-visit-pages';
import { page } from './lazy-page';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';

/** The admin layout's route: ./admin-routes.tsx's pages are patched in under it. */
const ADMIN_LAYOUT = 'admin-layout';

/**
 * The login page's school (name, colours, banner) starts loading with the page's code instead of after
 * it: the router runs loaders while it fetches the lazy chunk. Returns at once; the page reads the cache.
 */
function prefetchSchoolLogin({ params }: LoaderFunctionArgs) {
  if (params.slug) void queryClient.prefetchQuery(schoolLoginQuery(params.slug));
  return null;
}

/** Starts a signed-in page's data with its code: its loader in ./route-prefetch.ts (itself loaded on
 * demand), under the same path as the first visit's requests for it (./first-visit-pages.ts). */
function prefetch(path: FirstVisitPath) {
  return ({ params }: LoaderFunctionArgs) => {
    void import('./route-prefetch').then((m) => m.pageLoaders[path](params)).catch(() => undefined); // the page asks again if this failed
    return null;
  };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: PageSpinner,
    errorElement: <RouteError />,
    children: [
      {
        element: <RedirectIfSignedIn />,
        children: [
          { path: '/auth', lazy: page(() => import('./routes/auth')) },
          { path: '/:slug', loader: prefetchSchoolLogin, lazy: page(() => import('./routes/auth')) },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: page(() => import('./layout/member-layout')),
            children: [
              { path: '/', loader: prefetch('/'), lazy: page(() => import('./routes/home')) },
              { path: '/course/:courseId', loader: prefetch('/course/:courseId'), lazy: page(() => import('./routes/course')) },
              { path: '/profile', lazy: page(() => import('./routes/profile')) },
              { path: '/afiliado', lazy: page(() => import('./routes/affiliate')) },
              { path: '/checkout/plano/:planSlug', lazy: page(() => import('./routes/checkout')) },
              { path: '/checkout/:courseSlug', lazy: page(() => import('./routes/checkout')) },
              { path: '/checkout', lazy: page(() => import('./routes/checkout')) },
            ],
          },
          // The lesson player has its own header (SPEC §2 "Lesson player").
          { path: '/course/:courseId/lesson/:lessonId', loader: prefetch('/course/:courseId/lesson/:lessonId'), lazy: page(() => import('./routes/lesson')) },
          {
            path: '/admin',
            element: <RequireAdmin />,
            children: [
              {
                id: ADMIN_LAYOUT,
                lazy: page(() => import('./layout/admin-layout')),
                // The other admin pages come from ./admin-routes.tsx, on the first visit to one of them.
                children: [
                  { index: true, lazy: page(() => import('./routes/admin/dashboard')) },
                ],
              },
            ],
          },
        ],
      },
      // Public: anyone with a certificate's code checks it, signed in or not (issue 14).
      { path: '/certificado/:code', lazy: page(() => import('./routes/certificate')) },
      // The "Acesso liberado" e-mail's link (issue 22): whoever is signed in on this device.
      { path: '/acesso', lazy: page(() => import('./routes/access')) },
      // An optional e-mail's "Descadastrar" link (issue 22): no sign-in needed.
      { path: '/descadastrar', lazy: page(() => import('./routes/unsubscribe')) },
      { path: '*', lazy: page(() => import('./routes/not-found')) },
    ],
  },
];

/**
 * The admin pages' routes are discovered on the way to one (React Router's patchRoutesOnNavigation): each
 * lazy route costs the first download its import and its chunk list, and the login page has a budget
 * (150 KB, `npm run bench:bundle`) that thirty admin pages should not spend. Until then /admin/... matches
 * the catch-all, which is what makes the router ask.
 */
const discoverAdminRoutes: PatchRoutesOnNavigationFunction = async ({ path, patch }) => {
  if (!/^\/admin\/./.test(path)) return;
  const { adminRoutes } = await import('./admin-routes');
  patch(ADMIN_LAYOUT, adminRoutes);
};

export function createAppRouter() {
  return createBrowserRouter(routes, { patchRoutesOnNavigation: discoverAdminRoutes });
}
