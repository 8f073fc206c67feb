import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { TwoFactorCard } from './two-factor-card';

const api = vi.hoisted(() => ({ fetchVerifiedFactor: vi.fn(), enrollTotp: vi.fn(), verifyTotp: vi.fn(), disableTotp: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

describe('TwoFactorCard', () => {
  beforeEach(() => Object.values(api).forEach((f) => f.mockReset()));

  it('off: says the password is enough and Ativar shows the secret to scan; the first code turns it on', async () => {
    api.fetchVerifiedFactor.mockResolvedValueOnce(null).mockResolvedValue({ id: 'f1', createdAt: '2026-11-20T12:00:00Z' });
    api.enrollTotp.mockResolvedValue({ factorId: 'f1', qrCode: 'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg"/>', secret: 'JBSWY3DPEHPK3PXP' });
    api.verifyTotp.mockResolvedValue(undefined);
    renderScreen(<TwoFactorCard userId="u1" issuer="Escola Demo" />);
    expect(await screen.findByText('Desativada: a senha basta para entrar.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ativar' }));
    expect(api.enrollTotp).toHaveBeenCalledWith(expect.anything(), 'Escola Demo');
    const dialog = await screen.findByRole('dialog');
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Código de 6 dígitos'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(api.verifyTotp).toHaveBeenCalledWith(expect.anything(), 'f1', '123456'));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(await screen.findByText('Ativada em 20/11/2026.')).toBeInTheDocument();
  });

  it('on: Desativar asks for a code before removing it; required by the school, it cannot be turned off', async () => {
    api.fetchVerifiedFactor.mockResolvedValue({ id: 'f1', createdAt: '2026-11-20T12:00:00Z' });
    const { unmount } = renderScreen(<TwoFactorCard userId="u1" issuer="Escola Demo" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Desativar' }));
    expect(await screen.findByRole('dialog', { name: 'Desativar verificação em duas etapas' })).toBeInTheDocument();
    expect(api.disableTotp).not.toHaveBeenCalled();
    unmount();

    renderScreen(<TwoFactorCard userId="u1" issuer="Escola Demo" required />);
    expect(await screen.findByText('Sua escola exige a verificação em duas etapas da equipe.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Desativar' })).toBeNull();
  });

  it('a failed read offers a retry', async () => {
    api.fetchVerifiedFactor.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue(null);
    renderScreen(<TwoFactorCard userId="u1" issuer="Escola Demo" />);
    expect(await screen.findByText('Não foi possível carregar a verificação em duas etapas')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Desativada: a senha basta para entrar.')).toBeInTheDocument();
  });
});
