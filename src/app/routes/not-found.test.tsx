import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect, it, vi } from 'vitest';
import NotFound from './not-found';

it('shows the not-found page and logs the missed route', () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const router = createMemoryRouter([{ path: '*', element: <NotFound /> }], { initialEntries: ['/rota/inexistente'] });
  render(<RouterProvider router={router} />);
  expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  expect(error).toHaveBeenCalledWith('404 Error: User attempted to access non-existent route:', '/rota/inexistente');
  error.mockRestore();
});
