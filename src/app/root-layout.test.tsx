import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LCP_SHELL_ID } from '@/platform/first-visit';
import { RootLayout } from './root-layout';

function shell() {
  const img = document.createElement('img');
  img.id = LCP_SHELL_ID;
  document.documentElement.append(img);
}

// Here only the change of page: a page that never settles.
vi.mock('@/platform/first-visit', async (original) => ({ ...(await original<object>()), whenPageSettled: () => () => undefined }));

afterEach(() => document.getElementById(LCP_SHELL_ID)?.remove());

describe('RootLayout', () => {
  it("takes the HTML's early copy of the first page's image away when another page opens, not before", async () => {
    shell();
    const router = createMemoryRouter(
      [
        {
          element: <RootLayout />,
          children: [
            { path: '/', element: <p>Início</p> },
            { path: '/profile', element: <p>Perfil</p> },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    await act(() => router.navigate('/?aba=cursos')); // the same page: it stays
    expect(document.getElementById(LCP_SHELL_ID)).not.toBeNull();
    await act(() => router.navigate('/profile'));
    expect(document.getElementById(LCP_SHELL_ID)).toBeNull();
  });
});
