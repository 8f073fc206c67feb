import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { DeferredToaster } from './providers';

describe('DeferredToaster', () => {
  it('shows a toast raised before the toaster was mounted (sonner alone would drop it)', async () => {
    render(<DeferredToaster />);
    expect(screen.queryByRole('region')).toBeNull();
    toast.success('Curso salvo!');
    expect(await screen.findByText('Curso salvo!', undefined, { timeout: 5000 })).toBeInTheDocument();
  });

  it('mounts by itself once the page is idle, with no toast asked for', async () => {
    vi.resetModules(); // a fresh toast module: no toast has asked for the toaster yet
    const fresh = await import('./providers');
    render(<fresh.DeferredToaster />);
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull();
    expect(await screen.findByRole('region', { name: /Notifications/ }, { timeout: 5000 })).toBeInTheDocument();
  });
});
