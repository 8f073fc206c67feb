import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { UnsavedChangesScope } from '@/components/ui/unsaved-changes';
import { ProfileForm } from './profile-form';

/** The form asks before leaving with unsaved changes: it lives in a page's scope, under a data router. */
function UnsavedChangesScopeInRouter({ children }: { children: ReactNode }) {
  return <RouterProvider router={createMemoryRouter([{ path: '*', element: <UnsavedChangesScope>{children}</UnsavedChangesScope> }])} />;
}

const empty = { name: 'Ana', phone: null, cpf: null, address: null };

describe('ProfileForm', () => {
  it('requires the name and checks CPF and phone', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<ProfileForm profile={empty} onSubmit={onSubmit} />, { wrapper: UnsavedChangesScopeInRouter });
    await userEvent.clear(screen.getByLabelText(/Nome Completo/));
    await userEvent.type(screen.getByLabelText('CPF'), '12345678900');
    await userEvent.type(screen.getByLabelText('Telefone'), '1198765');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    expect(await screen.findByText('Nome é obrigatório')).toHaveAttribute('role', 'alert');
    expect(screen.getByText('CPF inválido')).toBeInTheDocument();
    expect(screen.getByText('Telefone inválido. Use o formato (00) 00000-0000')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('masks CPF and phone as typed and submits them', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<ProfileForm profile={empty} onSubmit={onSubmit} />, { wrapper: UnsavedChangesScopeInRouter });
    await userEvent.type(screen.getByLabelText('CPF'), '52998224725');
    await userEvent.type(screen.getByLabelText('Telefone'), '11987654321');
    expect(screen.getByLabelText('CPF')).toHaveValue('529.982.247-25');
    expect(screen.getByLabelText('Telefone')).toHaveValue('(11) 98765-4321');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar Alterações' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ name: 'Ana', cpf: '529.982.247-25', phone: '(11) 98765-4321', address: '' }),
    );
  });

  it('shows Salvando... while saving', () => {
    render(<ProfileForm profile={empty} pending onSubmit={vi.fn(async () => undefined)} />, { wrapper: UnsavedChangesScopeInRouter });
    expect(screen.getByRole('button', { name: 'Salvando...' })).toBeDisabled();
  });
});
