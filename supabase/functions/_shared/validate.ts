// Field checks shared by the functions: each returns the value or throws HttpError 400 { error, field }.
import { HttpError, safeEqual } from './http.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (v: string): boolean => EMAIL.test(v);

export function requiredString(body: Record<string, unknown>, field: string, label: string, max = 200): string {
  const v = body[field];
  if (typeof v !== 'string' || v.trim() === '') throw new HttpError(400, `${label} é obrigatório`, { field });
  if (v.trim().length > max) throw new HttpError(400, `${label} deve ter no máximo ${max} caracteres`, { field });
  return v.trim();
}

export function optionalString(body: Record<string, unknown>, field: string, label: string, max = 500): string | null {
  const v = body[field];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw new HttpError(400, `${label} inválido`, { field });
  if (v.trim().length > max) throw new HttpError(400, `${label} deve ter no máximo ${max} caracteres`, { field });
  return v.trim() || null;
}

export function requiredEmail(body: Record<string, unknown>, field = 'email'): string {
  const v = requiredString(body, field, 'E-mail', 254);
  if (!EMAIL.test(v)) throw new HttpError(400, 'E-mail inválido', { field });
  return v.toLowerCase();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string): boolean => UUID.test(v);

export function optionalUuid(body: Record<string, unknown>, field: string, label: string): string | null {
  const v = body[field];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || !UUID.test(v)) throw new HttpError(400, `${label} inválido`, { field });
  return v.toLowerCase();
}

export function requiredUuid(body: Record<string, unknown>, field: string, label: string): string {
  const v = optionalUuid(body, field, label);
  if (!v) throw new HttpError(400, `${label} é obrigatório`, { field });
  return v;
}

/** CPF with valid check digits (formatted or digits only) → 000.000.000-00, or null when absent. */
export function optionalCpf(body: Record<string, unknown>, field = 'cpf'): string | null {
  const v = optionalString(body, field, 'CPF', 20);
  if (!v) return null;
  const d = v.replace(/\D/g, '');
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) throw new HttpError(400, 'CPF inválido', { field });
  const n = d.split('').map(Number);
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += n[i]! * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  if (check(9) !== n[9] || check(10) !== n[10]) throw new HttpError(400, 'CPF inválido', { field });
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

export function digits(v: string | null): string {
  return (v ?? '').replace(/\D/g, '');
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** SPEC §5: lowercase letters, digits and hyphens. */
export function requiredSlug(body: Record<string, unknown>, field: string, label: string): string {
  const v = requiredString(body, field, label, 100);
  if (!SLUG.test(v)) throw new HttpError(400, `${label} deve ter só letras minúsculas, números e hífens`, { field });
  return v;
}

/** An ISO 8601 date or date-time, or null when absent. */
export function optionalIsoDate(body: Record<string, unknown>, field: string, label: string): string | null {
  const v = optionalString(body, field, label, 40);
  if (!v) return null;
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
  const t = Date.parse(v);
  if (!iso.test(v) || Number.isNaN(t)) throw new HttpError(400, `${label} deve ser uma data ISO 8601 (ex.: 2026-12-31 ou 2026-12-31T23:59:59Z)`, { field });
  return new Date(t).toISOString();
}

/** A webhook's secret header, compared in constant time; HttpError 401 otherwise. */
export function requireSecret(req: Request, expected: string | null | undefined): void {
  const given = req.headers.get('x-webhook-secret') ?? '';
  if (!given || !expected || !safeEqual(given, expected)) throw new HttpError(401, 'Segredo do webhook ausente ou inválido');
}

/**
 * A Storage object's path: at most 1024 characters, no NUL, and no empty, '.' or '..' segment. Such a
 * segment would be resolved away in the URL the function fetches, so the object read or signed would
 * not be the one whose folders the access check read (a course the caller bought, climbing into
 * another course or bucket). HttpError 400 otherwise.
 */
export function storagePath(body: Record<string, unknown>, field = 'path'): string {
  const v = body[field];
  const invalid = () => new HttpError(400, 'Caminho do arquivo inválido', { field });
  if (typeof v !== 'string' || !v || v.length > 1024 || v.includes('\u0000')) throw invalid();
  if (v.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) throw invalid();
  return v;
}
