// Assertions for RLS tests through supabase-js: an attempt is either refused (an error) or filtered
// (no rows); an allowed action succeeds.
import { expect } from 'vitest';

interface Res {
  data: unknown;
  error: { message: string } | null;
}

/** The call succeeded; returns its data (rows are checked by assertions, not by types). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function ok<T = any>(q: PromiseLike<Res>): Promise<T> {
  const r = await q;
  expect(r.error, r.error ? `unexpected error: ${r.error.message}` : '').toBeNull();
  return r.data as T;
}

/** The call was refused with an error. */
export async function refused(q: PromiseLike<Res>): Promise<void> {
  const r = await q;
  expect(r.error, `expected a refusal, got data ${JSON.stringify(r.data)}`).not.toBeNull();
}

/**
 * A read or write (with .select()) that must reach no row: refused, or it returned nothing.
 * Writes must be checked afterwards with the service client too (see unchanged()).
 */
export async function none(q: PromiseLike<Res>): Promise<void> {
  const r = await q;
  if (r.error) return;
  const rows = r.data == null ? [] : Array.isArray(r.data) ? r.data : [r.data];
  expect(rows, `expected no rows, got ${JSON.stringify(rows)}`).toEqual([]);
}

/** Ids of a list of rows, sorted. */
export function ids(rows: { id: string }[] | null): string[] {
  return (rows ?? []).map((r) => r.id).sort();
}
