/* eslint-disable react-refresh/only-export-components -- test helpers */
// renderScreen(): a feature's screen as the app mounts it — a fresh QueryClient with the app's one
// mutation error path (src/platform/query-client.ts), a data router at `route` (as createBrowserRouter in the
// app: useBlocker works), and a signed-in staff session. A component test mocks the feature's
// api/queries.ts (the network) and drives the real hooks.
import type { ReactElement } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router-dom';
import { createQueryClient } from '@/platform/query-client';
import type { SessionContextValue } from '@/platform/session';
import { signedIn, WithSession } from './session';

/** The current URL of the router, for asserting `?pagina=2&q=...` (rendered as a hidden element). */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location" hidden>{location.pathname + location.search}</output>;
}

export function renderScreen(ui: ReactElement, { route = '/', path = '*', session = signedIn({ isAdmin: true }) }: { route?: string; path?: string; session?: SessionContextValue } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ ...queryClient.getDefaultOptions(), queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  // The screen at `path`; any other address (a link the screen follows) renders nothing but the probe.
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <LocationProbe />
          </>
        ),
        children: [{ path, element: ui }, ...(path === '*' ? [] : [{ path: '*', element: null }])],
      },
    ],
    { initialEntries: [route] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <WithSession value={session}>
        <RouterProvider router={router} />
      </WithSession>
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}

/** The router's current path and query string, as rendered by renderScreen. */
export const currentLocation = (container: { getByTestId: (id: string) => HTMLElement }) => container.getByTestId('location').textContent;
