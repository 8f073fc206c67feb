import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Avatar } from './avatar';
import { FormField } from './form-field';
import { ImageUpload } from './image-upload';
import { Input } from './input';
import { ProgressRing } from './progress-ring';
import { StarRating } from './star-rating';
import { webpOfScreens } from '@/test/animated-images';
import { SUPABASE_URL } from '@/platform/api-config';

describe('ProgressRing', () => {
  it('is a 48 px progressbar with the clamped, rounded percent', () => {
    const { rerender } = render(<ProgressRing value={44.6} />);
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '45');
    expect(bar).toHaveStyle({ width: '48px', height: '48px' });
    expect(bar).toHaveTextContent('45%');
    rerender(<ProgressRing value={140} />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  });
});

describe('Avatar', () => {
  it('falls back to initials', () => {
    render(<Avatar name="Maria da Silva" />);
    expect(screen.getByText('MS')).toBeInTheDocument();
  });

  it("never asks another host for a photo (a student's avatar_url could be a tracker): the initials show at once", () => {
    // What the browser is asked to fetch: Radix's Avatar probes the photo with `new window.Image()`.
    const requested: string[] = [];
    const probe = vi.spyOn(window, 'Image').mockImplementation(function () {
      const img = document.createElement('img');
      let src = '';
      Object.defineProperty(img, 'src', { set: (v: string) => void requested.push((src = v)), get: () => src });
      Object.defineProperty(img, 'complete', { get: () => false }); // still loading, as in a browser
      return img;
    });
    try {
      render(<Avatar name="Maria da Silva" src="https://tracker.example/p.gif?who=aluno" />);
      expect(requested).toEqual([]);
      expect(screen.getByText('MS')).toBeInTheDocument();
      // Control: a photo of our avatars bucket is asked for, at the avatar's size.
      render(<Avatar name="Maria da Silva" src={`${SUPABASE_URL}/storage/v1/object/public/avatars/u1/avatar.png?v=3`} />);
      expect(requested).toEqual([`${SUPABASE_URL}/storage/v1/render/image/public/avatars/u1/avatar.png?width=128&v=3`]);
    } finally {
      probe.mockRestore();
    }
  });
});

describe('StarRating', () => {
  it('saves the clicked star', async () => {
    const onChange = vi.fn();
    render(<StarRating value={2} onChange={onChange} />);
    expect(screen.getByRole('radio', { name: '2 estrelas' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(screen.getByRole('radio', { name: '4 estrelas' }));
    expect(onChange).toHaveBeenCalledWith(4);
  });
  it('read-only shows the value as text for screen readers', () => {
    render(<StarRating value={3} readOnly />);
    expect(screen.getByRole('img', { name: 'Avaliação: 3 de 5' })).toBeInTheDocument();
  });
});

describe('FormField', () => {
  it('links label, input and the announced error', () => {
    render(
      <FormField label="Nome" error="Nome é obrigatório">
        <Input />
      </FormField>,
    );
    const input = screen.getByLabelText('Nome');
    const error = screen.getByRole('alert');
    expect(error).toHaveTextContent('Nome é obrigatório');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAttribute('aria-describedby', error.id);
  });
});

describe('ImageUpload', () => {
  it('refuses files that fail the check and passes valid ones on', async () => {
    const onFile = vi.fn();
    const { container } = render(<ImageUpload onFile={onFile} />);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    expect(screen.getByRole('alert')).toHaveTextContent('A imagem deve ter no máximo 5MB');
    expect(onFile).not.toHaveBeenCalled();
    const ok = new File([new Uint8Array(10)], 'ok.webp', { type: 'image/webp' });
    await userEvent.upload(input, ok);
    await waitFor(() => expect(onFile).toHaveBeenCalledWith(ok));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses an image Storage could not render: 2.8 KB of WebP that is 60 frames of 2048×2048', async () => {
    const onFile = vi.fn();
    const { container } = render(<ImageUpload onFile={onFile} />);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File([webpOfScreens(2048, 60)], 'banner.webp', { type: 'image/webp' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A animação é grande demais: diminua as dimensões ou o número de quadros');
    const fine = new File([webpOfScreens(400, 60)], 'banner.webp', { type: 'image/webp' });
    await userEvent.upload(input, fine);
    await waitFor(() => expect(onFile).toHaveBeenCalledWith(fine));
    expect(onFile).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
