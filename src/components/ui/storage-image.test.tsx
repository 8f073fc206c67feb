import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUPABASE_URL } from '@/platform/api-config';
import { failedRenders } from '@/platform/image';
import { StorageImage } from './storage-image';

afterEach(() => failedRenders.clear());

const object = `${SUPABASE_URL}/storage/v1/object/public/school-banners/s1/banner.jpg`;

describe('StorageImage', () => {
  it('serves a stored image through the render route with srcset and sizes, lazily', () => {
    render(<StorageImage src={object} sizes="100vw" widths={[480, 960]} alt="Banner" />);
    const img = screen.getByRole('img', { name: 'Banner' });
    expect(img).toHaveAttribute('src', object);
    expect(img.getAttribute('srcset')).toContain('/storage/v1/render/image/public/school-banners/s1/banner.jpg?width=960 960w');
    expect(img).toHaveAttribute('sizes', '100vw');
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('decoding', 'async');
    expect(img).not.toHaveAttribute('fetchpriority');
  });

  it('the largest paint is fetched at once and first', () => {
    render(<StorageImage src={object} sizes="100vw" priority alt="Banner" />);
    const img = screen.getByRole('img', { name: 'Banner' });
    expect(img).toHaveAttribute('loading', 'eager');
    expect(img).toHaveAttribute('fetchpriority', 'high');
    expect(img).not.toHaveAttribute('decoding');
  });

  it('falls back once to the original when the render route fails (no transformations on the project)', () => {
    const onError = vi.fn();
    render(<StorageImage src={object} sizes="100vw" alt="Banner" onError={onError} />);
    const img = screen.getByRole('img', { name: 'Banner' });
    fireEvent.error(img);
    expect(img).not.toHaveAttribute('srcset');
    expect(img).not.toHaveAttribute('sizes');
    expect(img).toHaveAttribute('src', object);
    expect(onError).not.toHaveBeenCalled();
    fireEvent.error(img); // the original fails too: now the caller hears of it
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('once a rendition failed, the same image elsewhere (another page) goes straight to the original', () => {
    const first = render(<StorageImage src={object} sizes="100vw" alt="Banner" />);
    fireEvent.error(screen.getByRole('img', { name: 'Banner' }));
    first.unmount();
    render(<StorageImage src={object} sizes="50vw" alt="De novo" />);
    const again = screen.getByRole('img', { name: 'De novo' });
    expect(again).not.toHaveAttribute('srcset');
    expect(again).toHaveAttribute('src', object);
  });

  it('an image on another host is used as it is', () => {
    const onError = vi.fn();
    render(<StorageImage src="https://images.exemplo.com.br/capa.jpg" sizes="100vw" alt="Capa" onError={onError} />);
    const img = screen.getByRole('img', { name: 'Capa' });
    expect(img).toHaveAttribute('src', 'https://images.exemplo.com.br/capa.jpg');
    expect(img).not.toHaveAttribute('srcset');
    fireEvent.error(img);
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
