import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { createQueryClient } from '@/platform/query-client';
import { ImageField } from './image-field';

// The toasts the app's one error path raises (src/platform/query-client.ts → errors.ts → toast).
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));

const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'capa.png', { type: 'image/png' });

function renderField(upload: (file: File) => Promise<string>) {
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ImageField
        label="Thumbnail"
        value={null}
        onChange={onChange}
        upload={upload}
        uploadErrorTitle="Erro ao fazer upload da thumbnail"
      />
    </QueryClientProvider>,
  );
  return { onChange, input: screen.getByLabelText(/Selecionar thumbnail/) };
}

describe('ImageField', () => {
  it('an uploaded file becomes the value, and its name stays on screen', async () => {
    const { onChange, input } = renderField(async () => 'https://cdn.exemplo.com/capa.png');
    fireEvent.change(input, { target: { files: [png()] } });
    expect(await screen.findByText('Arquivo enviado: capa.png')).toBeInTheDocument();
    expect(onChange).toHaveBeenCalledWith('https://cdn.exemplo.com/capa.png');
  });

  it('a failed upload keeps the value and says why through the one error path', async () => {
    const { onChange, input } = renderField(() =>
      Promise.reject(Object.assign(new Error('new row violates row-level security policy'), { statusCode: '403' })),
    );
    fireEvent.change(input, { target: { files: [png()] } });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Erro ao fazer upload da thumbnail', {
        description: 'Você não tem permissão para esta ação.',
      }),
    );
    await waitFor(() => expect(input).not.toBeDisabled());
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.queryByText(/Arquivo enviado/)).toBeNull();
  });
});
