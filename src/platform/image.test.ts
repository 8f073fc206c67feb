import { describe, expect, it } from 'vitest';
import { SUPABASE_URL } from './api-config';
import { ownAvatarUrl, renderedImageUrl, responsiveImage } from './image';

const object = `${SUPABASE_URL}/storage/v1/object/public/course-thumbnails/5c00/excel%20essencial.jpg`;

describe('renderedImageUrl', () => {
  it('turns our public object URL into the render route at a width, as getPublicUrl({ transform }) does', () => {
    expect(renderedImageUrl(object, 640)).toBe(`${SUPABASE_URL}/storage/v1/render/image/public/course-thumbnails/5c00/excel%20essencial.jpg?width=640`);
  });

  it("keeps the object URL's own query (an avatar's cache buster)", () => {
    expect(renderedImageUrl(`${SUPABASE_URL}/storage/v1/object/public/avatars/u1/a.png?v=17`, 128)).toBe(
      `${SUPABASE_URL}/storage/v1/render/image/public/avatars/u1/a.png?width=128&v=17`,
    );
  });

  it('leaves images on other hosts, signed URLs and empty values alone', () => {
    expect(renderedImageUrl('https://images.exemplo.com.br/capa.jpg', 640)).toBeNull();
    expect(renderedImageUrl(`https://outro.supabase.co/storage/v1/object/public/b/x.jpg`, 640)).toBeNull();
    expect(renderedImageUrl(`${SUPABASE_URL}/storage/v1/object/sign/b/x.jpg?token=t`, 640)).toBeNull();
    expect(renderedImageUrl(`${SUPABASE_URL}/storage/v1/object/public/sem-nome`, 640)).toBeNull();
    expect(renderedImageUrl(null, 640)).toBeNull();
  });
});

describe('responsiveImage', () => {
  it('offers every width as a srcset candidate and keeps the original as src', () => {
    const r = responsiveImage(object, '100vw', [320, 640]);
    expect(r.src).toBe(object);
    expect(r.sizes).toBe('100vw');
    expect(r.srcSet).toBe(
      `${SUPABASE_URL}/storage/v1/render/image/public/course-thumbnails/5c00/excel%20essencial.jpg?width=320 320w, ` +
        `${SUPABASE_URL}/storage/v1/render/image/public/course-thumbnails/5c00/excel%20essencial.jpg?width=640 640w`,
    );
  });

  it('is the plain URL for an image on another host', () => {
    expect(responsiveImage('https://images.exemplo.com.br/capa.jpg', '100vw')).toEqual({ src: 'https://images.exemplo.com.br/capa.jpg' });
  });
});

describe('ownAvatarUrl', () => {
  it("is a photo of this API's avatars bucket, as the upload saves it", () => {
    const url = `${SUPABASE_URL}/storage/v1/object/public/avatars/u1/avatar.png?v=17`;
    expect(ownAvatarUrl(url)).toBe(url);
  });

  it('is null for any other address: a tracker, another project, another bucket, another scheme', () => {
    expect(ownAvatarUrl('https://tracker.example/p.gif?who=aluno')).toBeNull();
    expect(ownAvatarUrl(`https://tracker.example/storage/v1/object/public/avatars/u1/avatar.png`)).toBeNull();
    expect(ownAvatarUrl(`${SUPABASE_URL}.tracker.example/storage/v1/object/public/avatars/u1/avatar.png`)).toBeNull();
    expect(ownAvatarUrl(`${SUPABASE_URL}/storage/v1/object/public/course-thumbnails/u1/a.png`)).toBeNull();
    expect(ownAvatarUrl('data:image/svg+xml,<svg/>')).toBeNull();
    expect(ownAvatarUrl(null)).toBeNull();
  });
});
