// File checks of SPEC §5/§9 and storage paths. Each check returns the pt-BR error message, or null when the file is fine.
import type { Tables } from '@/types/database';
import { imageSize } from '@/utils/image-size';


export const MB = 1024 * 1024;
export const AVATAR_MAX_BYTES = 2 * MB;
export const IMAGE_MAX_BYTES = 5 * MB;
export const VIDEO_MAX_BYTES = 500 * MB;
export const MATERIAL_MAX_BYTES = 20 * MB;

export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp';
export const AVATAR_ACCEPT = 'image/*';
export const ANNOUNCEMENT_VIDEO_ACCEPT = 'video/mp4,video/webm';
export const LESSON_VIDEO_ACCEPT = 'video/mp4,video/webm,video/quicktime,video/x-msvideo,.mp4,.webm,.mov,.avi';
export const MATERIAL_ACCEPT = '.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.csv,image/*';

const INVALID_IMAGE = 'Por favor, selecione uma imagem válida';
const INVALID_VIDEO = 'Por favor, selecione um vídeo válido';

export type FileLike = Pick<File, 'name' | 'size' | 'type'>;

/** Lower-case extension without the dot ('' when none). */
export function fileExtension(name: string): string {
  const i = name.lastIndexOf('.');
  return i > 0 && i < name.length - 1 ? name.slice(i + 1).toLowerCase() : '';
}

function isImage(file: FileLike): boolean {
  return file.type.startsWith('image/');
}

/** Profile photo: any image, at most 2 MB. */
export function validateAvatar(file: FileLike): string | null {
  if (!isImage(file)) return INVALID_IMAGE;
  if (file.size > AVATAR_MAX_BYTES) return 'A imagem deve ter no máximo 2MB';
  return null;
}

/** Banners, thumbnails, logos, announcement images: JPG, PNG or WEBP, at most 5 MB. */
export function validateImage(file: FileLike): string | null {
  const ok = ['image/jpeg', 'image/png', 'image/webp'].includes(file.type) || (isImage(file) && ['jpg', 'jpeg', 'png', 'webp'].includes(fileExtension(file.name)));
  if (!ok) return INVALID_IMAGE;
  if (file.size > IMAGE_MAX_BYTES) return 'A imagem deve ter no máximo 5MB';
  return null;
}

/**
 * What Storage's image transformations decode at most (local-supabase/storage/render.ts, RENDER_LIMITS,
 * as the hosted platform): 50 megapixels, counting each frame of an animated image up to the 60 it renders.
 */
export const RENDER_MAX_PIXELS = 50_000_000;
export const RENDER_MAX_FRAMES = 60;

/**
 * An avatar, banner or thumbnail the platform could not render at the size a screen needs: its header
 * (read, not decoded) says more pixels than the render limit. The pt-BR message, or null when it fits
 * or the header is not one we read (the server decides then).
 */
export async function validateImagePixels(file: Blob): Promise<string | null> {
  const size = imageSize(new Uint8Array(await file.arrayBuffer()));
  if (!size) return null;
  const frames = Math.min(size.frames, RENDER_MAX_FRAMES);
  if (size.width * size.height * frames <= RENDER_MAX_PIXELS) return null;
  return frames > 1
    ? 'A animação é grande demais: diminua as dimensões ou o número de quadros (até 50 megapixels somando os quadros)'
    : 'A imagem deve ter no máximo 50 megapixels';
}

/** Announcement video: MP4 or WebM, at most 500MB. */
export function validateAnnouncementVideo(file: FileLike): string | null {
  const ok = ['video/mp4', 'video/webm'].includes(file.type) || ['mp4', 'webm'].includes(fileExtension(file.name));
  if (!ok) return INVALID_VIDEO;
  if (file.size > VIDEO_MAX_BYTES) return 'O vídeo deve ter no máximo 500MB';
  return null;
}

/** Lesson video: MP4, WebM, MOV or AVI, at most 500MB. */
export function validateLessonVideo(file: FileLike): string | null {
  const types = ['video/mp4', 'video/webm', 'video/quicktime', 'video/x-msvideo', 'video/avi'];
  const ok = types.includes(file.type) || ['mp4', 'webm', 'mov', 'avi'].includes(fileExtension(file.name));
  if (!ok) return INVALID_VIDEO;
  if (file.size > VIDEO_MAX_BYTES) return 'Vídeo muito grande! Tamanho máximo: 500MB';
  return null;
}

const MATERIAL_EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'csv'];

/** Material file: PDF, DOC(X), XLS(X), PPT(X), CSV or an image, at most 20MB. */
export function validateMaterial(file: FileLike): string | null {
  const ok = MATERIAL_EXTENSIONS.includes(fileExtension(file.name)) || isImage(file);
  if (!ok) return 'Tipo de arquivo não suportado';
  if (file.size > MATERIAL_MAX_BYTES) return 'Arquivo muito grande! Tamanho máximo: 20MB';
  return null;
}

export type MaterialType = Tables<'materials'>['type'];

/** Material type from the file extension: pdf → PDF, ppt/pptx → SLIDE, xls/xlsx/csv → SHEET, else OTHER. */
export function materialTypeFromFileName(name: string): MaterialType {
  const ext = fileExtension(name);
  if (ext === 'pdf') return 'PDF';
  if (ext === 'ppt' || ext === 'pptx') return 'SLIDE';
  if (ext === 'xls' || ext === 'xlsx' || ext === 'csv') return 'SHEET';
  return 'OTHER';
}

/** Object path of a user's avatar in bucket `avatars`: {userId}/avatar.{ext}. */
export function avatarPath(userId: string, file: FileLike): string {
  const ext = fileExtension(file.name) || file.type.split('/')[1] || 'png';
  return `${userId}/avatar.${ext}`;
}

/** Human size: 1,5 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / MB).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`;
}

/**
 * A file name Storage accepts (it refuses accents and many symbols, as hosted Supabase does):
 * accents dropped, anything but letters, digits, '.', '_' and '-' turned into '-', lower-case,
 * at most 100 characters, extension kept. Keep the original name for display.
 */
export function storageSafeName(name: string): string {
  const ext = fileExtension(name);
  const stem = ext ? name.slice(0, -(ext.length + 1)) : name;
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '');
  const safeStem = clean(stem).slice(0, 90) || 'arquivo';
  const safeExt = clean(ext).slice(0, 10);
  return safeExt ? `${safeStem}.${safeExt}` : safeStem;
}

/** A unique object name for an upload: '{timestamp}-{safe name}' (two uploads of one file never collide). */
export function uniqueObjectName(name: string, now = Date.now()): string {
  return `${now}-${storageSafeName(name)}`;
}
