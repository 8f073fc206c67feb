import { clsx, type ClassValue } from 'clsx';

/** Joins class names (conditional classes allowed). */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}

/** Initials of a person's name for avatar fallbacks: "Maria da Silva" → "MS". */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]!.charAt(0);
  const last = parts.length > 1 ? parts[parts.length - 1]!.charAt(0) : '';
  return (first + last).toUpperCase();
}

/** The message of an unknown thrown value (supabase errors, Error, strings). */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  if (typeof error === 'string') return error;
  return 'Erro desconhecido';
}
