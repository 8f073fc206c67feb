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
  validateMaterial,
} from './upload';

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
