import { describe, expect, it } from 'vitest';
import {
  MB,
  avatarPath,
  materialTypeFromFileName,
  storageSafeName,
  uniqueObjectName,
  validateAnnouncementVideo,
  validateAvatar,
  validateImage,
  validateLessonVideo,
  validateImagePixels,
  validateMaterial,
} from './upload';
import { gifOfScreens, webpOfScreens } from '@/test/animated-images';

const f = (name: string, type: string, size: number) => ({ name, type, size });

describe('validateAvatar', () => {
  it('accepts images up to 2 MB', () => {
    expect(validateAvatar(f('a.png', 'image/png', 2 * MB))).toBeNull();
    expect(validateAvatar(f('a.gif', 'image/gif', 1000))).toBeNull();
  });
  it('refuses non-images and large files', () => {
    expect(validateAvatar(f('a.pdf', 'application/pdf', 10))).toBe('Por favor, selecione uma imagem válida');
    expect(validateAvatar(f('a.png', 'image/png', 2 * MB + 1))).toBe('A imagem deve ter no máximo 2MB');
  });
});

describe('validateImage', () => {
  it('accepts JPG/PNG/WEBP up to 5 MB', () => {
    expect(validateImage(f('a.jpg', 'image/jpeg', 5 * MB))).toBeNull();
    expect(validateImage(f('a.webp', 'image/webp', 10))).toBeNull();
  });
  it('refuses other types and large files', () => {
    expect(validateImage(f('a.gif', 'image/gif', 10))).toBe('Por favor, selecione uma imagem válida');
    expect(validateImage(f('a.png', 'image/png', 5 * MB + 1))).toBe('A imagem deve ter no máximo 5MB');
  });
});

describe('validateImagePixels (what Storage can render: 50 megapixels, every frame up to 60 counted)', () => {
  /** The start of a PNG: the signature and its IHDR (width, height). */
  const png = (width: number, height: number) => {
    const b = new Uint8Array(33);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(b.buffer).setUint32(16, width);
    new DataView(b.buffer).setUint32(20, height);
    return new File([b], 'foto.png', { type: 'image/png' });
  };
  const file = (bytes: Uint8Array<ArrayBuffer>, name: string, type: string) => new File([bytes], name, { type });
  const ANIMATION_TOO_BIG = 'A animação é grande demais: diminua as dimensões ou o número de quadros (até 50 megapixels somando os quadros)';

  it('refuses an animated avatar of a few KB whose frames add up past the limit (issue 37)', async () => {
    expect(await validateImagePixels(file(gifOfScreens(2048, 60), 'avatar.gif', 'image/gif'))).toBe(ANIMATION_TOO_BIG);
    expect(await validateImagePixels(file(webpOfScreens(2048, 60), 'avatar.webp', 'image/webp'))).toBe(ANIMATION_TOO_BIG);
    expect(await validateImagePixels(file(gifOfScreens(2048, 12), 'avatar.gif', 'image/gif'))).toBe(ANIMATION_TOO_BIG);
  });

  it('accepts animations within it, and frames past the 60 rendered do not count', async () => {
    expect(await validateImagePixels(file(gifOfScreens(2048, 11), 'avatar.gif', 'image/gif'))).toBeNull();
    expect(await validateImagePixels(file(gifOfScreens(200, 1000), 'avatar.gif', 'image/gif'))).toBeNull();
    expect(await validateImagePixels(file(webpOfScreens(400, 60), 'avatar.webp', 'image/webp'))).toBeNull();
  });

  it('a still image: at most 50 megapixels; a header it does not read is left to the server', async () => {
    expect(await validateImagePixels(png(10_000, 5_000))).toBeNull();
    expect(await validateImagePixels(png(10_000, 5_001))).toBe('A imagem deve ter no máximo 50 megapixels');
    expect(await validateImagePixels(file(new TextEncoder().encode('não é imagem'), 'a.png', 'image/png'))).toBeNull();
  });
});

describe('videos', () => {
  it('announcement video: MP4/WebM, 500MB', () => {
    expect(validateAnnouncementVideo(f('v.mp4', 'video/mp4', 500 * MB))).toBeNull();
    expect(validateAnnouncementVideo(f('v.mov', 'video/quicktime', 10))).toBe('Por favor, selecione um vídeo válido');
    expect(validateAnnouncementVideo(f('v.mp4', 'video/mp4', 500 * MB + 1))).toBe('O vídeo deve ter no máximo 500MB');
  });
  it('lesson video: MP4/WebM/MOV/AVI, 500MB', () => {
    expect(validateLessonVideo(f('v.mov', 'video/quicktime', 10))).toBeNull();
    expect(validateLessonVideo(f('v.avi', '', 10))).toBeNull();
    expect(validateLessonVideo(f('v.mp4', 'video/mp4', 501 * MB))).toBe('Vídeo muito grande! Tamanho máximo: 500MB');
  });
});

describe('materials', () => {
  it('accepts documents and images up to 20MB', () => {
    expect(validateMaterial(f('a.pdf', 'application/pdf', 20 * MB))).toBeNull();
    expect(validateMaterial(f('a.png', 'image/png', 10))).toBeNull();
    expect(validateMaterial(f('a.pdf', 'application/pdf', 20 * MB + 1))).toBe('Arquivo muito grande! Tamanho máximo: 20MB');
    expect(validateMaterial(f('a.exe', 'application/x-msdownload', 10))).toBe('Tipo de arquivo não suportado');
  });
  it('derives the type from the extension', () => {
    expect(materialTypeFromFileName('Aula.PDF')).toBe('PDF');
    expect(materialTypeFromFileName('s.pptx')).toBe('SLIDE');
    expect(materialTypeFromFileName('s.ppt')).toBe('SLIDE');
    expect(materialTypeFromFileName('p.csv')).toBe('SHEET');
    expect(materialTypeFromFileName('p.xlsx')).toBe('SHEET');
    expect(materialTypeFromFileName('d.docx')).toBe('OTHER');
  });
});

it('builds avatar paths', () => {
  expect(avatarPath('u1', f('Foto.JPG', 'image/jpeg', 1))).toBe('u1/avatar.jpg');
  expect(avatarPath('u1', f('blob', 'image/png', 1))).toBe('u1/avatar.png');
});

describe('storage-safe names', () => {
  it('drops accents and spaces but keeps the extension', () => {
    expect(storageSafeName('Apostila Módulo 1 – Introdução.PDF')).toBe('apostila-modulo-1-introducao.pdf');
    expect(storageSafeName('ção.mp4')).toBe('cao.mp4');
  });
  it('never yields an empty or hidden name', () => {
    expect(storageSafeName('###.pdf')).toBe('arquivo.pdf');
    expect(storageSafeName('.env')).toBe('env');
  });
  it('prefixes uploads with a timestamp', () => {
    expect(uniqueObjectName('Aula 1.mp4', 123)).toBe('123-aula-1.mp4');
  });
});
