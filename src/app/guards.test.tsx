import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { SessionContextValue } from '@/platform/session';
import { sessionValue, signedIn, testProfile, WithSession } from '@/test/session';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';

function renderAt(path: string, value: SessionContextValue, withQueries = false) {
  const router = createMemoryRouter(
    [
      {
        element: <RedirectIfSignedIn />,
        children: [
          { path: '/auth', element: <h1>Página de login</h1> },
          { path: '/:slug', element: <h1>Login da escola</h1> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          { path: '/', element: <h1>Início</h1> },
          { path: '/profile', element: <h1>Meu Perfil</h1> },
          { path: '/admin', element: <RequireAdmin />, children: [{ index: true, element: <h1>Painel admin</h1> }] },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const app = (
    <WithSession value={value}>
      <RouterProvider router={router} />
    </WithSession>
  );
  render(withQueries ? <QueryClientProvider client={new QueryClient()}>{app}</QueryClientProvider> : app);
  return router;
}

describe('route guards', () => {
  it('shows a spinner while the session loads', () => {
    renderAt('/profile', sessionValue({ loading: true, initializing: true }));
    expect(screen.getByTestId('page-spinner')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Carregando...');
  });

  it.each(['/', '/profile', '/admin'])('sends signed-out visitors of %s to /auth', async (path) => {
    const router = renderAt(path, sessionValue());
    expect(await screen.findByRole('heading', { name: 'Página de login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('after a sign-out in this tab, sends the signed-out page to the school login', async () => {
    const router = renderAt('/profile', sessionValue({ signOutTarget: '/escola-demo' }));
    expect(await screen.findByRole('heading', { name: 'Login da escola' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/escola-demo');
  });

  it('lets signed-in users into protected pages', async () => {
    renderAt('/profile', signedIn());
    expect(await screen.findByRole('heading', { name: 'Meu Perfil' })).toBeInTheDocument();
  });

  it.each(['/auth', '/escola-demo'])('sends signed-in users from %s to /', async (path) => {
    const router = renderAt(path, signedIn());
    expect(await screen.findByRole('heading', { name: 'Início' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('keeps the login page while the sign-in flow checks the account', async () => {
    renderAt('/escola-demo', signedIn({ authFlowPending: true }));
    expect(await screen.findByRole('heading', { name: 'Login da escola' })).toBeInTheDocument();
  });

  it('keeps users who must change their password on the login page', async () => {
    renderAt('/auth', signedIn({ mustChangePassword: true }));
    expect(await screen.findByRole('heading', { name: 'Página de login' })).toBeInTheDocument();
  });

  it('keeps a password recovery session on the school login page until the new password is set', async () => {
    const router = renderAt('/escola-demo', signedIn({ passwordRecovery: true }));
    expect(await screen.findByRole('heading', { name: 'Login da escola' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/escola-demo');
  });

  it('sends users who must change their password from protected pages to their school login', async () => {
    const school = { slug: 'escola-demo' } as SessionContextValue['school'];
    const router = renderAt('/', signedIn({ mustChangePassword: true, school }));
    expect(await screen.findByRole('heading', { name: 'Login da escola' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/escola-demo');
  });

  it('signs out inactive accounts on protected pages', async () => {
    const value = signedIn({ profile: { ...testProfile, is_active: false } });
    renderAt('/', value);
    expect(screen.getByTestId('page-spinner')).toBeInTheDocument();
    await screen.findByTestId('page-spinner');
    expect(value.signOut).toHaveBeenCalled();
  });

  it('sends non-admins from /admin to /', async () => {
    const router = renderAt('/admin', signedIn());
    expect(await screen.findByRole('heading', { name: 'Início' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets admins into /admin', async () => {
    renderAt('/admin', signedIn({ isAdmin: true, roles: [{ user_id: 'u1', school_id: 's1', role: 'SCHOOL_ADMIN' }] }));
    expect(await screen.findByRole('heading', { name: 'Painel admin' })).toBeInTheDocument();
  });

  it('never treats a session that owes its two-factor code as complete: every page sends it to the code step', async () => {
    const school = { slug: 'escola-demo' } as SessionContextValue['school'];
    const value = signedIn({ needsSecondFactor: true, isAdmin: true, school });
    for (const path of ['/', '/admin']) {
      const router = renderAt(path, value);
      expect(await screen.findByRole('heading', { name: 'Login da escola' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/escola-demo');
      cleanup();
    }
    // And the login page keeps it there (the code step) instead of sending it home.
    const router = renderAt('/escola-demo', value);
    expect(await screen.findByRole('heading', { name: 'Login da escola' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/escola-demo');
  });

  it('asks staff of a school that requires two-factor to set it up before the admin area', async () => {
    const value = signedIn({ isAdmin: true, secondFactorSetupRequired: true, school: { name: 'Escola Demo' } as SessionContextValue['school'] });
    renderAt('/admin', value, true);
    expect(await screen.findByRole('heading', { name: 'Ative a verificação em duas etapas' })).toBeInTheDocument();
    expect(screen.getByText(/Escola Demo exige a verificação em duas etapas da equipe/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ativar agora' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Painel admin' })).not.toBeInTheDocument();
  });
});
