// What sign-lesson-file and download-material both need to know of a stored lesson material (issue 39):
// whether it is a PDF, which only leaves stamped with the student's name (download-material), and the
// caller's and the object's part in that decision.
import { env } from './supabase.ts';

export const MATERIALS_BUCKET = 'lesson-materials';

/** How far into a file a PDF reader looks for the header (Acrobat and pdf.js accept junk before it). */
export const PDF_HEADER_WINDOW = 1024;

export interface StoredHead {
  /** The stored object's content type (lower case, without parameters), '' when unknown. */
  contentType: string;
  /** Its size in bytes, from the range answer. */
  size: number;
  /** Its first PDF_HEADER_WINDOW bytes (fewer for a smaller file). */
  head: Uint8Array;
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** The object's URL as the service role reads it (authenticated download). */
export function serviceObjectUrl(path: string): string {
  return `${env('SUPABASE_URL')}/storage/v1/object/authenticated/${MATERIALS_BUCKET}/${encodePath(path)}`;
}

export function serviceHeaders(): Record<string, string> {
  const key = env('SUPABASE_SERVICE_ROLE_KEY');
  return { apikey: key, Authorization: `Bearer ${key}` };
}

/** The stored type, size and first bytes of a material (one range request), or null when there is none. */
export async function readStoredHead(path: string): Promise<StoredHead | null> {
  const res = await fetch(serviceObjectUrl(path), { headers: { ...serviceHeaders(), Range: `bytes=0-${PDF_HEADER_WINDOW - 1}` } });
  if (res.status === 416) {
    // An empty object: no byte to look at.
    await res.body?.cancel();
    return { contentType: '', size: 0, head: new Uint8Array() };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return null;
  }
  const head = new Uint8Array(await res.arrayBuffer()).subarray(0, PDF_HEADER_WINDOW);
  const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
  return {
    contentType: (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
    size: total ? Number(total) : head.byteLength,
    head,
  };
}

const PDF_MAGIC = new TextEncoder().encode('%PDF-');

/** Whether the bytes hold a PDF header where a reader would find one. */
export function hasPdfHeader(head: Uint8Array): boolean {
  outer: for (let i = 0; i + PDF_MAGIC.length <= Math.min(head.length, PDF_HEADER_WINDOW); i++) {
    for (let j = 0; j < PDF_MAGIC.length; j++) if (head[i + j] !== PDF_MAGIC[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * A PDF, by the stored content type or by its bytes: a PDF uploaded as another type (or under another
 * name) still opens in a PDF reader, so either one is enough to send it through the stamp.
 */
export function isPdf({ contentType, head }: StoredHead): boolean {
  return contentType === 'application/pdf' || contentType === 'application/x-pdf' || hasPdfHeader(head);
}

/** The name the student saves: the object's last segment without the upload's `<timestamp>-` prefix. */
export function downloadName(path: string): string {
  const last = path.split('/').pop() ?? '';
  return last.replace(/^\d{10,}-/, '') || 'material.pdf';
}

/**
 * Whether Storage lets the caller read the object directly (staff of the school and the super admin,
 * by the course_files_select_staff policy): such a caller may have the original file. Asked of Storage
 * as the caller, so it is exactly the rule Storage applies.
 */
export async function callerReadsDirectly(authorization: string, path: string): Promise<boolean> {
  const res = await fetch(`${env('SUPABASE_URL')}/storage/v1/object/info/authenticated/${MATERIALS_BUCKET}/${encodePath(path)}`, {
    headers: { apikey: env('SUPABASE_ANON_KEY'), Authorization: authorization },
  });
  await res.body?.cancel();
  return res.ok;
}
